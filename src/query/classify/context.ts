import { parseAllDocuments } from 'yaml';
import { FileTracker, pathMatches } from './files.js';
import type { ClassifyContext, ComposeService } from './view.js';
import { looseName } from './names.js';

/**
 * What the session has learned that a later command depends on: the files it read, wrote and edited
 * (compose files, manifests), and the image its Kubernetes workload was last rolled to.
 */
const COMPOSE_FILE = /(?:^|\/)(?:docker-)?compose(?:\.[\w-]+)?\.ya?ml$/;
const MANIFEST_FILE = /\.ya?ml$/;

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function words(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') return value.trim().split(/\s+/).filter(Boolean);
  return [];
}

function environment(value: unknown): Record<string, string> {
  const env: Record<string, string> = {};
  if (Array.isArray(value)) {
    for (const item of value.map(String)) {
      const at = item.indexOf('=');
      if (at > 0) env[item.slice(0, at)] = item.slice(at + 1);
    }
  } else {
    for (const [key, item] of Object.entries(asRecord(value) ?? {})) env[key] = String(item);
  }
  return env;
}

function documents(text: string): unknown[] {
  try {
    return parseAllDocuments(text).map((doc) => doc.toJS() as unknown);
  } catch {
    return [];
  }
}

/** The services of a compose file; a file that does not parse still gives its `image:` lines. */
export function composeServicesOf(text: string): ComposeService[] {
  const services = asRecord(asRecord(documents(text)[0])?.['services']);
  if (services) {
    return Object.entries(services).map(([name, value]) => {
      const service = asRecord(value) ?? {};
      const ports = (Array.isArray(service['ports']) ? service['ports'] : []).map((p) => Number(/^(?:[\d.]+:)?(\d+):\d+/.exec(String(p))?.[1] ?? NaN)).filter((p) => Number.isInteger(p));
      return { name, image: typeof service['image'] === 'string' ? service['image'] : null, command: words(service['command']), environment: environment(service['environment']), ports };
    });
  }
  return [...text.matchAll(/^\s+image:\s*["']?([^\s"'#]+)/gm)].map((m, index) => ({ name: `service-${index + 1}`, image: m[1] as string, command: [], environment: {}, ports: [] }));
}

/** Every container image a manifest file names (Deployments, StatefulSets, Pods, Jobs…). */
export function manifestImagesOf(text: string): string[] {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    const record = asRecord(value);
    if (!record) return;
    if (typeof record['image'] === 'string' && ('name' in record || 'command' in record || 'args' in record || 'ports' in record)) found.push(record['image']);
    for (const child of Object.values(record)) visit(child);
  };
  documents(text).forEach(visit);
  if (found.length === 0) for (const m of text.matchAll(/^\s*-?\s*image:\s*["']?([^\s"'#]+)/gm)) found.push(m[1] as string);
  return [...new Set(found)];
}


export class SessionContext implements ClassifyContext {
  readonly files = new FileTracker();
  private workloadImage: string | null = null;
  /** Packages of no known framework the session installed, by loose name, with the spec as typed. */
  private readonly installed = new Map<string, string>();

  composeServices(file: string | null, cwd: string | null): ComposeService[] {
    const candidates = this.files.find((path) => (file ? pathMatches(path, file, false) || pathMatches(path, `${cwd ?? ''}/${file}`, false) : COMPOSE_FILE.test(path)));
    const inDirectory = cwd && !file ? candidates.filter((f) => pathMatches(f.path, cwd, true)) : [];
    const chosen = inDirectory[0] ?? candidates[0];
    return chosen ? composeServicesOf(chosen.text) : [];
  }

  manifestImages(path: string, directory: boolean): string[] {
    const files = this.files.find((p) => MANIFEST_FILE.test(p) && !COMPOSE_FILE.test(p) && pathMatches(p, path, directory || !MANIFEST_FILE.test(path)));
    return files.flatMap((f) => manifestImagesOf(f.text));
  }

  configFileText(names: readonly string[], cwd: string | null): string | null {
    if (names.length === 0) return null;
    const known = this.files.find((path) => names.some((name) => pathMatches(path, name, false) || (cwd !== null && pathMatches(path, `${cwd}/${name}`, false))));
    const inDirectory = cwd ? known.filter((f) => pathMatches(f.path, cwd, true)) : [];
    return (inDirectory[0] ?? known[0])?.text ?? null;
  }

  unitCommand(unit: string): string | null {
    if (unit.endsWith('.plist')) {
      const base = unit.split('/').at(-1) as string;
      const file = this.files.find((path) => path === unit || path.endsWith(`/${base}`)).at(-1);
      return file ? plistCommand(file.text) : null;
    }
    const name = unit.endsWith('.service') ? unit : `${unit}.service`;
    const file = this.files.find((path) => path === name || path.endsWith(`/${name}`))[0];
    // systemd joins a line ending in a backslash with the next (`ExecStart=vllm serve M \` then `  --port 8000`).
    // `%h` is systemd's name for the user's home: `%h/models/x` is `~/models/x`.
    const text = file ? file.text.replace(/\\\r?\n/g, ' ').replace(/%h(?=\/)/g, '~') : '';
    const starts = [...text.matchAll(/^\s*ExecStart=[-@+!:]*(.+)$/gm)].map((m) => (m[1] as string).trim().replace(/\s+/g, ' ')).filter(Boolean);
    return starts.at(-1) ?? null;
  }

  scriptText(path: string, cwd: string | null): string | null {
    const known = this.files.find((p) => pathMatches(p, path, false) || (cwd !== null && !/^[~/]/.test(path) && pathMatches(p, `${cwd}/${path}`, false)));
    const text = known.at(-1)?.text ?? '';
    // Only what follows its `#!` line: a script read with other commands' output before it is the script from there on.
    const start = /^#!.*$/m.exec(text);
    return start ? text.slice(start.index + start[0].length).replace(/\\\r?\n/g, ' ') : null;
  }

  currentWorkloadImage(): string | null {
    return this.workloadImage;
  }

  rolledTo(image: string): void {
    this.workloadImage = image;
  }

  packageInstalled(name: string, spec: string): void {
    this.installed.set(looseName(name), spec);
  }

  /**
   * A program is an installed package's when its name is the package's, or one is the other with a
   * word more (`xinference-local` of `xinference`, `aphrodite` of `aphrodite-engine`); a module by its
   * top-level name (`fastllm_serve.server`).
   */
  installedPackage(program: string): string | null {
    const name = looseName(program.split('/').at(-1)?.split('.')[0] ?? program);
    if (name.length < 3) return null;
    const exact = this.installed.get(name);
    if (exact) return exact;
    for (const [installed, spec] of this.installed) if (name.startsWith(`${installed}-`) || installed.startsWith(`${name}-`)) return spec;
    return null;
  }
}

/** The strings of a plist array under a key (`<key>ProgramArguments</key><array><string>…</string>…</array>`), unescaped. */
function plistStrings(text: string, key: string): string[] {
  const array = new RegExp(`<key>${key}</key>\\s*<array>([\\s\\S]*?)</array>`).exec(text)?.[1] ?? '';
  return [...array.matchAll(/<string>([\s\S]*?)<\/string>/g)].map((m) => unescapeXml(m[1] as string));
}

function unescapeXml(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

/**
 * The command a launchd property list starts: its `EnvironmentVariables` as assignments, then its
 * `ProgramArguments` (a word with spaces quoted), or its `Program`. A `bash -c` wrapper stays as written.
 */
export function plistCommand(text: string): string | null {
  const words = plistStrings(text, 'ProgramArguments');
  const program = /<key>Program<\/key>\s*<string>([\s\S]*?)<\/string>/.exec(text)?.[1];
  const argv = words.length > 0 ? words : program ? [unescapeXml(program)] : [];
  if (argv.length === 0) return null;
  const env = /<key>EnvironmentVariables<\/key>\s*<dict>([\s\S]*?)<\/dict>/.exec(text)?.[1] ?? '';
  const assignments = [...env.matchAll(/<key>([A-Za-z_][A-Za-z0-9_]*)<\/key>\s*<string>([\s\S]*?)<\/string>/g)].map((m) => `${m[1] as string}=${quoted(unescapeXml(m[2] as string))}`);
  return [...assignments, ...argv.map(quoted)].join(' ');
}

function quoted(word: string): string {
  return /^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
