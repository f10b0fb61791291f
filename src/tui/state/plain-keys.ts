/**
 * The keys of one line typed in plain mode (TERM=dumb, where keys cannot be read one by one):
 * the characters as typed, named keys in angle brackets, and an empty line for Enter.
 */
export const NAMED_KEYS: Readonly<Record<string, string>> = {
  enter: '\r',
  esc: '\u001B',
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  pgup: '\u001B[5~',
  pgdn: '\u001B[6~',
  bs: '\u007F',
  tab: '\t',
  space: ' ',
};

const NAMED = /<([a-z]+)>/gi;

/** `/scitrera<enter>` → ['/', 's', …, '\r']; '' → ['\r']; an unknown `<name>` is typed as text. */
export function plainKeys(line: string): string[] {
  if (line === '') return [NAMED_KEYS['enter'] ?? '\r'];
  const keys: string[] = [];
  let at = 0;
  for (const match of line.matchAll(NAMED)) {
    const named = NAMED_KEYS[(match[1] ?? '').toLowerCase()];
    if (named === undefined) continue;
    keys.push(...line.slice(at, match.index));
    keys.push(named);
    at = match.index + match[0].length;
  }
  keys.push(...line.slice(at));
  return keys;
}

/** The help line plain mode prints once, before the first screen. */
export const PLAIN_HELP =
  'plain mode (TERM=dumb): type keys and press Enter; an empty line is Enter; <esc> <up> <down> <pgup> <pgdn> <left> <right> <bs> name keys; ? lists the keys; q quits';
