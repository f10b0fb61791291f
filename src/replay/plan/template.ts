/**
 * Plan commands name their variables as `{{ name }}`. Substitution shell-quotes the value for
 * the quoting context it lands in, so a value arrives as one word, byte for byte, whatever it
 * holds: quotes, `$`, backticks, newlines. Only declared names are replaced, so Go templates
 * (`docker ps --format '{{.Names}}'`) pass through. Secrets are not substituted at all: a plan
 * writes them as shell references (`${HF_TOKEN}`) and their values travel apart (see the runner).
 */

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

/** Words that need no quotes in any POSIX shell: kept bare so rendered commands stay readable. */
const BARE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One shell word holding exactly `value`. */
export function shellQuote(value: string): string {
  if (value.includes('\0')) throw new TemplateError('a shell word cannot hold a NUL byte');
  if (BARE_WORD.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export type QuoteState = 'none' | 'single' | 'double' | 'ansi';

/**
 * The quoting state at every offset of `text`, as a POSIX shell lexer sees it: backslash escapes
 * outside single quotes, `'…'`, `"…"` and `$'…'`. Command substitutions nested inside double
 * quotes are not followed; a placeholder there is rendered as if in the outer double quotes.
 */
export function quoteStates(text: string): QuoteState[] {
  const states: QuoteState[] = new Array<QuoteState>(text.length + 1);
  let state: QuoteState = 'none';
  for (let i = 0; i < text.length; i += 1) {
    states[i] = state;
    const ch = text[i];
    if (state === 'none') {
      if (ch === '\\') {
        states[i + 1] = state;
        i += 1;
      } else if (ch === "'") state = text[i - 1] === '$' ? 'ansi' : 'single';
      else if (ch === '"') state = 'double';
    } else if (state === 'single') {
      if (ch === "'") state = 'none';
    } else if (state === 'double' || state === 'ansi') {
      if (ch === '\\') {
        states[i + 1] = state;
        i += 1;
      } else if ((state === 'double' && ch === '"') || (state === 'ansi' && ch === "'")) state = 'none';
    }
  }
  states[text.length] = state;
  return states;
}

/** Closes the surrounding quotes, adds the quoted word, reopens them: `"a"'v'"b"` is one word. */
function quoteFor(state: QuoteState, value: string): string {
  // A bare word means the same inside any quotes: keep rendered commands as they were recorded.
  if (BARE_WORD.test(value)) return value;
  const word = shellQuote(value);
  switch (state) {
    case 'none':
      return word;
    case 'single':
      return `'${word}'`;
    case 'double':
      return `"${word}"`;
    case 'ansi':
      return `'${word}$'`;
  }
}

/** Names of the `{{ name }}` placeholders in a command, in order of first use. */
export function placeholdersOf(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** Replaces every `{{ name }}` of a declared value with the value, quoted for where it stands. */
export function renderTemplate(text: string, values: Readonly<Record<string, string>>): string {
  const states = quoteStates(text);
  let out = '';
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!Object.hasOwn(values, name)) continue;
    const at = match.index ?? 0;
    out += text.slice(last, at) + quoteFor(states[at] ?? 'none', values[name] ?? '');
    last = at + match[0].length;
  }
  return out + text.slice(last);
}

/** Turns every literal occurrence of a value into its placeholder (plan extraction's inverse). */
export function templatize(text: string, values: readonly { name: string; value: string }[]): string {
  // Longest values first, so `192.168.200.1` never eats part of `192.168.200.12`.
  const ordered = [...values].filter((v) => v.value.length > 0).sort((a, b) => b.value.length - a.value.length);
  let out = text;
  for (const { name, value } of ordered) {
    const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`(?<![A-Za-z0-9._-])${escaped}(?![A-Za-z0-9_-]|\\.[0-9])`, 'g'), `{{ ${name} }}`);
  }
  return out;
}
