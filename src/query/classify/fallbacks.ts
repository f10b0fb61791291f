import type { ParsedCommand } from '../shell/index.js';

/**
 * What the commands after a check print of their own: `curl -sf …/health || echo down`,
 * `… && echo up || echo down`, `…; echo done`. Their text is in the call's output but is not the
 * check's answer: a `||` fallback's text there says the check failed, a `&&` follower's that it
 * worked, and a `;` follower's says nothing of it.
 */
export type FallbackWhen = 'failed' | 'succeeded' | 'always';

export interface FallbackEcho {
  /** The line it prints, its variables (`$?`, `$RC`, `$(…)`) matching any word. */
  line: RegExp;
  when: FallbackWhen;
}

const ECHOES = new Set(['echo', 'printf']);

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The line an `echo`/`printf` prints, as a pattern (null for one that prints nothing to read). */
function printedLine(command: ParsedCommand): RegExp | null {
  const args = command.argv.slice(1);
  while (command.program === 'echo' && /^-[neE]+$/.test(args[0] ?? '')) args.shift();
  const text = (command.program === 'printf' ? (args[0] ?? '').replace(/\\n/g, ' ').replace(/%[-\d.]*[sdiu]/g, '\uE002') : args.join(' ')).trim();
  // Text of its own is needed: a bare `echo $?` could be any line.
  if (!/[A-Za-z]{2}/.test(text.replace(/\$\([^)]*\)|\$\{?[\w?#@*!-]+\}?/g, '')) || command.redirects.some((r) => r.op.includes('>'))) return null;
  const pattern = text
    .split(/(\$\([^)]*\)|\$\{?[\w?#@*!-]+\}?|\uE002)/)
    .map((part, index) => (index % 2 === 1 ? '\\S*' : escape(part)))
    .join('')
    .replace(/\s+/g, '\\s+');
  return new RegExp(`^\\s*${pattern}\\s*$`, 'm');
}

/** For each command, the echoes after it at its level, with when each runs relative to it. */
export function fallbackEchoes(commands: readonly ParsedCommand[], found = new Map<ParsedCommand, FallbackEcho[]>()): Map<ParsedCommand, FallbackEcho[]> {
  commands.forEach((command, index) => {
    const echoes: FallbackEcho[] = [];
    let independent = false;
    let orSeen = false;
    for (const later of commands.slice(index + 1)) {
      if (later.pipelinePosition > 0) continue;
      if (later.connector === ';' || later.connector === '&' || later.connector === null) independent = true;
      const when: FallbackWhen = independent ? 'always' : later.connector === '||' ? 'failed' : orSeen ? 'always' : 'succeeded';
      if (later.connector === '||') orSeen = true;
      const line = ECHOES.has(later.program) ? printedLine(later) : null;
      if (line) echoes.push({ line, when });
    }
    if (echoes.length > 0) found.set(command, echoes);
    fallbackEchoes(command.children, found);
  });
  return found;
}

/** A check's output without the lines its followers printed, and what those lines say of it. */
export function ownOutput(output: string | null, echoes: readonly FallbackEcho[]): { output: string | null; failed: string | null; succeeded: boolean } {
  if (!output || echoes.length === 0) return { output, failed: null, succeeded: false };
  let failed: string | null = null;
  let succeeded = false;
  const kept = output.split('\n').filter((line) => {
    const echo = echoes.find((e) => e.line.test(line));
    if (!echo) return true;
    if (echo.when === 'failed') failed ??= line.trim();
    if (echo.when === 'succeeded') succeeded = true;
    return false;
  });
  return { output: kept.join('\n'), failed, succeeded };
}
