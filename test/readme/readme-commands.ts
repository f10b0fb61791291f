/**
 * The `sh` blocks of a README as commands: one per line (a line ending in `\` goes on), comment
 * lines dropped, and a trailing `# needs: …` read as what the command needs that a test machine
 * does not have (SSH hosts, a live run, your own file).
 */
export interface ReadmeCommand {
  /** 1-based line of the README where the command starts. */
  line: number;
  /** 0-based index of its `sh` block. */
  block: number;
  text: string;
  /** Why it cannot run here, from `# needs: …`; null when it must run. */
  needs: string | null;
}

const NEEDS = /#\s*needs:\s*([^(]+?)\s*(?:\(.*)?$/;

export function readmeCommands(markdown: string): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  const lines = markdown.split('\n');
  let block = -1;
  let inSh = false;
  let inOther = false;
  let pending: { line: number; parts: string[] } | null = null;
  lines.forEach((raw, index) => {
    const fence = /^(`{3,}|~{3,})\s*(\S*)/.exec(raw);
    if (fence && !inSh && !inOther) {
      if (fence[2] === 'sh') {
        inSh = true;
        block += 1;
      } else inOther = true;
      return;
    }
    if (fence && (inSh || inOther) && fence[2] === '') {
      inSh = false;
      inOther = false;
      return;
    }
    if (!inSh) return;
    const line = raw.trimEnd();
    if (pending === null && (line.trim() === '' || line.trim().startsWith('#'))) return;
    const parts: { line: number; parts: string[] } = pending ?? { line: index + 1, parts: [] };
    if (line.endsWith('\\')) {
      parts.parts.push(line.slice(0, -1));
      pending = parts;
      return;
    }
    parts.parts.push(line);
    pending = null;
    const text = parts.parts.join(' ').replace(/\s+/g, ' ').trim();
    commands.push({ line: parts.line, block, text, needs: NEEDS.exec(text)?.[1] ?? null });
  });
  return commands;
}
