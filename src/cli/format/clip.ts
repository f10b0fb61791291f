/**
 * Shortening a text for a terminal without hiding what matters: every cut ends in `…` and says
 * how much it left out, lines the caller must keep (the line that decided a call) are shown whole
 * wherever they are, and `full` shows everything.
 */
export interface ClipOptions {
  /** Lines shown from the start. */
  lines: number;
  /** Columns a line may take before it is cut. */
  width: number;
  /** Lines (compared trimmed) never cut nor left out. */
  keep?: ReadonlySet<string>;
  /** Show every line whole. */
  full?: boolean;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function cutLine(line: string, width: number): string {
  const chars = [...line];
  if (chars.length <= width) return line;
  const marker = (left: number): string => `… (+${plural(left, 'char')})`;
  // The marker's own length depends on the count; one refinement is enough for a stable width.
  let room = Math.max(1, width - marker(chars.length).length);
  room = Math.max(1, width - marker(chars.length - room).length);
  return `${chars.slice(0, room).join('')}${marker(chars.length - room)}`;
}

function gap(lines: readonly string[]): string {
  const chars = lines.reduce((sum, line) => sum + [...line].length, 0);
  return `… (${plural(lines.length, 'line')}, ${plural(chars, 'char')} left out; --full shows them)`;
}

export function clipText(text: string, options: ClipOptions): string[] {
  const all = text.split('\n');
  if (options.full) return all;
  const keep = options.keep ?? new Set<string>();
  const kept = (line: string): boolean => keep.size > 0 && keep.has(line.trim());
  const out: string[] = [];
  let skipped: string[] = [];
  all.forEach((line, index) => {
    if (index < options.lines || kept(line)) {
      if (skipped.length > 0) out.push(gap(skipped));
      skipped = [];
      out.push(kept(line) ? line : cutLine(line, options.width));
    } else {
      skipped.push(line);
    }
  });
  if (skipped.length > 0) out.push(gap(skipped));
  return out;
}

/** One line of a longer text (a command), cut to `width` with what was left out said. */
export function clipLine(text: string, width: number, full = false): string {
  return full ? text : cutLine(text, width);
}
