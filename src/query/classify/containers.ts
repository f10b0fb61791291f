import type { ClassifiedCommand } from './classify-call.js';
import { parseImageRef } from './names.js';

/**
 * Which image each named container runs, per host, learned as the session goes: from
 * `docker run --name X IMAGE` and from `docker ps` listings (table or `--format` output).
 */
export class ContainerMap {
  private readonly byHost = new Map<string, Map<string, string>>();

  imageOf(host: string | null, container: string): string | null {
    return this.byHost.get(host ?? '')?.get(container) ?? null;
  }

  set(host: string | null, container: string, image: string): void {
    const key = host ?? '';
    const map = this.byHost.get(key) ?? new Map<string, string>();
    map.set(container, image);
    this.byHost.set(key, map);
  }

  learn(classified: readonly ClassifiedCommand[], call: { output: string | null }): void {
    for (const { command } of classified) {
      const run = command.dockerRun;
      if (run?.name) this.set(command.place.host, run.name, run.image);
      if (/^(?:docker|podman|nerdctl)$/.test(command.program) && (command.argv[1] === 'ps' || (command.argv[1] === 'container' && command.argv[2] === 'ls'))) {
        for (const [name, image] of parseContainerListing(call.output ?? '', command.argv)) this.set(command.place.host, name, image);
      }
    }
  }
}

/** `docker ps` output → [name, image] pairs; understands the default table and `--format` templates. */
export function parseContainerListing(output: string, argv: readonly string[]): [string, string][] {
  const lines = output.split('\n');
  const headerIndex = lines.findIndex((line) => /\bNAMES\b/.test(line) && /\bIMAGE\b/.test(line));
  const pairs: [string, string][] = [];
  if (headerIndex !== -1) {
    const header = lines[headerIndex] as string;
    const columns = [...header.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ name: m[0], start: m.index }));
    const imageColumn = columns.findIndex((c) => c.name === 'IMAGE');
    const namesColumn = columns.findIndex((c) => c.name === 'NAMES');
    const cell = (line: string, index: number): string => {
      const start = columns[index]?.start ?? 0;
      const end = columns[index + 1]?.start ?? line.length;
      return line.slice(start, end).trim().split(/\s+/)[0] ?? '';
    };
    for (const line of lines.slice(headerIndex + 1)) {
      // The table ends at a blank line or where other output (indented, unaligned) begins.
      if (!line.trim() || /^\s/.test(line.slice(columns[0]?.start ?? 0))) break;
      const name = cell(line, namesColumn);
      const image = cell(line, imageColumn);
      if (name && image && parseImageRef(image)) pairs.push([name, image]);
    }
    return pairs;
  }
  const formatIndex = argv.findIndex((a) => a === '--format' || a.startsWith('--format='));
  const format = formatIndex === -1 ? '' : argv[formatIndex]?.includes('=') ? (argv[formatIndex] as string).slice(9) : (argv[formatIndex + 1] ?? '');
  const fields = [...format.matchAll(/\{\{\s*\.(\w+)\s*\}\}/g)].map((m) => m[1]);
  const nameAt = fields.indexOf('Names');
  const imageAt = fields.indexOf('Image');
  if (nameAt === -1 || imageAt === -1) return pairs;
  for (const line of lines) {
    const cells = line.trim().split(/\t| {2,}/);
    const name = cells[nameAt];
    const image = cells[imageAt];
    if (name && image && cells.length === fields.length && parseImageRef(image)) pairs.push([name, image]);
  }
  return pairs;
}
