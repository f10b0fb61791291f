/**
 * Splits a shell script into its logical lines. shell-quote reads a newline as plain whitespace,
 * so `a\nb` would become one command; this splitter finds the newlines that end a command (outside
 * quotes, `$( … )` and backslash continuations), drops comments, and lifts here-documents out of
 * the text so the line that opened them can receive their body.
 */

export interface ScriptLine {
  text: string;
  /** Bodies of the here-documents this line opened, in order. */
  heredocs: string[];
}

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
}

const HEREDOC_OPEN = /^<<(-?)[ \t]*(['"]?)([A-Za-z_][\w.-]*)\2/;

/** Reads the here-document bodies that start at `start`; returns them and where the script resumes. */
function readHeredocs(script: string, start: number, pending: readonly PendingHeredoc[]): { bodies: string[]; next: number } {
  const bodies: string[] = [];
  let position = start;
  for (const doc of pending) {
    const body: string[] = [];
    while (position < script.length) {
      const end = script.indexOf('\n', position);
      const line = script.slice(position, end === -1 ? script.length : end);
      position = end === -1 ? script.length : end + 1;
      const candidate = doc.stripTabs ? line.replace(/^\t+/, '') : line;
      if (candidate.trimEnd() === doc.delimiter) break;
      body.push(candidate);
    }
    bodies.push(body.join('\n'));
  }
  return { bodies, next: position };
}

export function splitScript(script: string): ScriptLine[] {
  const lines: ScriptLine[] = [];
  let current = '';
  let quote: "'" | '"' | '`' | null = null;
  let substitutionDepth = 0;
  let pending: PendingHeredoc[] = [];
  let i = 0;
  const endLine = (): void => {
    if (pending.length > 0) {
      const { bodies, next } = readHeredocs(script, i + 1, pending);
      lines.push({ text: current, heredocs: bodies });
      pending = [];
      i = next - 1;
    } else if (current.trim() !== '') {
      lines.push({ text: current, heredocs: [] });
    }
    current = '';
  };
  for (; i < script.length; i++) {
    const ch = script[i] as string;
    if (quote === "'") {
      current += ch;
      if (ch === "'") quote = null;
      continue;
    }
    if (ch === '\\' && i + 1 < script.length) {
      const next = script[i + 1] as string;
      if (next === '\n') {
        i += 1;
        continue;
      }
      current += ch + next;
      i += 1;
      continue;
    }
    if (quote) {
      current += ch;
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') {
      quote = ch;
      current += ch;
      continue;
    }
    if (ch === '$' && script[i + 1] === '(') {
      substitutionDepth += 1;
      current += '$(';
      i += 1;
      continue;
    }
    if (ch === '(' && substitutionDepth > 0) substitutionDepth += 1;
    if (ch === ')' && substitutionDepth > 0) substitutionDepth -= 1;
    if (ch === '#' && (current === '' || /[\s;&|(]$/.test(current))) {
      while (i + 1 < script.length && script[i + 1] !== '\n') i += 1;
      continue;
    }
    if (ch === '<' && script[i + 1] === '<' && script[i + 2] !== '<') {
      const match = HEREDOC_OPEN.exec(script.slice(i));
      if (match) {
        pending.push({ delimiter: match[3] as string, stripTabs: match[1] === '-' });
        current += `<< ${match[3] as string}`;
        i += match[0].length - 1;
        continue;
      }
    }
    if (ch === '\n' && substitutionDepth === 0) {
      endLine();
      continue;
    }
    current += ch;
  }
  endLine();
  return lines;
}
