import { PLACEHOLDER_SOURCE } from './placeholder.js';
import { placeholderSites, type Layer } from './shell-context.js';

/**
 * Plan commands name their variables as `{{ name }}`. Substitution shell-quotes the value for
 * the quoting context it lands in, so a value arrives as one word, byte for byte, whatever it
 * holds: quotes, `$`, backticks, newlines. Only declared names are replaced, so Go templates
 * (`docker ps --format '{{.Names}}'`, `{{ end }}`) pass through. Secrets are not substituted at all: a plan
 * writes them as shell references (`${HF_TOKEN}`) and their values travel apart (see the runner).
 */

const PLACEHOLDER = new RegExp(PLACEHOLDER_SOURCE, 'g');

/**
 * Values derived from a variable, written as `{{ name | filter }}` so a `--var` moves them too:
 * the Hugging Face cache folder of a model (`models--Org--Name`) follows `{{ model }}`.
 */
export const FILTERS: Readonly<Record<string, { description: string; apply(value: string): string }>> = {
  hf_cache_dir: { description: 'the Hugging Face cache folder of a model id: Org/Name → models--Org--Name', apply: (value) => `models--${value.replace(/\//g, '--')}` },
};

/** The text a placeholder stands for: the value, through its filter if it names one. */
export function placeholderValue(value: string, filter: string | undefined): string {
  if (filter === undefined) return value;
  const known = FILTERS[filter];
  if (!known) throw new TemplateError(`unknown filter "${filter}" (known: ${Object.keys(FILTERS).join(', ')})`);
  return known.apply(value);
}

/** Filters a text names that do not exist. */
export function unknownFiltersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[2]).filter((filter): filter is string => filter !== undefined && !FILTERS[filter]);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A pattern's placeholders replaced by their values, escaped so they match literally. */
export function renderPattern(pattern: string, values: Readonly<Record<string, string>>): string {
  return pattern.replace(PLACEHOLDER, (whole, name: string, filter: string | undefined) =>
    Object.hasOwn(values, name) ? escapeRegExp(placeholderValue(values[name] ?? '', filter)) : whole,
  );
}

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

/** Names of the `{{ name }}` placeholders in a command, in order of first use. */
export function placeholdersOf(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * `text` written so that a shell in `layer` reads it back exactly: the value's own layer first,
 * then each layer around it in turn (a `bash -c "…"` string holds a word the inner shell reads).
 */
/**
 * A value line a here-document cannot hold: the delimiter itself, or any line starting with it —
 * dash loses bytes of a line that begins with the delimiter and goes on (`EOF` then U+00A0 arrives
 * one byte short), so such lines are refused too.
 */
function closesHeredoc(line: string, delimiter: string): boolean {
  return line.startsWith(delimiter);
}

function embed(layer: Layer, text: string, where: string): string {
  switch (layer.kind) {
    case 'none':
      return shellQuote(text);
    case 'single':
      return text.replace(/'/g, `'\\''`);
    case 'double':
      return text.replace(/[\\"$`]/g, '\\$&');
    case 'ansi':
      return text.replace(/[\\']/g, '\\$&');
    case 'comment':
      if (/[\n\r]/.test(text)) throw new TemplateError(`${where}: a value with a line break cannot stand in a comment`);
      return text;
    case 'heredoc': {
      const lines = text.split('\n');
      if (lines.some((line, index) => index > 0 && closesHeredoc(layer.stripTabs ? line.replace(/^\t+/, '') : line, layer.delimiter))) {
        throw new TemplateError(`${where}: the value holds a line starting "${layer.delimiter}", which would (or on dash may) end the here-document`);
      }
      if (layer.stripTabs && lines.some((line, index) => index > 0 && line.startsWith('\t'))) {
        throw new TemplateError(`${where}: a <<- here-document strips the tabs that begin the value's lines`);
      }
      return layer.expands ? text.replace(/[\\$`]/g, '\\$&') : text;
    }
    case 'unsupported':
      throw new TemplateError(`${where}: a value that is not a plain word cannot be quoted safely inside ${layer.what}; use $(…) or a plain word`);
  }
}

/** Where a placeholder stands, for messages: `offset 41 (line 2)`. */
function positionOf(text: string, at: number): string {
  const line = text.slice(0, at).split('\n').length;
  return `{{ … }} at offset ${at}${line > 1 ? ` (line ${line})` : ''}`;
}

/**
 * Replaces every `{{ name }}` of a declared value with the value, written so that it arrives as
 * exactly that text through every layer it stands in: quotes, `$( … )` at any depth, here
 * documents, and strings a shell runs again (`bash -c "…"`, `eval`). A value that cannot be
 * written safely where it stands is refused with its position (TemplateError), never rendered.
 */
export function renderTemplate(text: string, values: Readonly<Record<string, string>>): string {
  const sites = new Map(placeholderSites(text).map((site) => [site.at, site]));
  let out = '';
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!Object.hasOwn(values, name)) continue;
    const at = match.index ?? 0;
    const value = placeholderValue(values[name] ?? '', match[2]);
    if (value.includes('\0')) throw new TemplateError(`${positionOf(text, at)}: a shell word cannot hold a NUL byte`);
    const site = sites.get(at);
    const layers: Layer[] = site?.layers ?? [{ kind: 'none' }];
    const where = `${name} ${positionOf(text, at)}`;
    let rendered = value;
    // A bare word means the same in every layer: kept as it is, so commands stay as recorded.
    if (!BARE_WORD.test(value) || layers.some((layer) => layer.kind === 'comment')) {
      for (let k = layers.length - 1; k >= 0; k -= 1) rendered = embed(layers[k] as Layer, rendered, where);
    }
    for (const heredoc of site?.heredocs ?? []) {
      const lines = rendered.split('\n').slice(1);
      if (lines.some((line) => closesHeredoc(heredoc.stripTabs ? line.replace(/^\t+/, '') : line, heredoc.delimiter))) {
        throw new TemplateError(`${where}: the value holds a line starting "${heredoc.delimiter}", which would (or on dash may) end the here-document around it`);
      }
    }
    out += text.slice(last, at) + rendered;
    last = at + match[0].length;
  }
  return out + text.slice(last);
}

/**
 * A workdir template rendered as plain text (not shell-quoted): the caller writes it into one
 * `cd` word itself, keeping a leading `~` the home's.
 */
export function renderWorkdir(template: string, values: Readonly<Record<string, string>>): string {
  const text = template.replace(PLACEHOLDER, (whole, name: string, filter: string | undefined) =>
    Object.hasOwn(values, name) ? placeholderValue(values[name] ?? '', filter) : whole,
  );
  if (/[\n\r\0]/.test(text)) throw new TemplateError(`workdir "${template}": a directory cannot hold a line break or NUL`);
  return text;
}

/** Turns every literal occurrence of a value into its placeholder (plan extraction's inverse). */
export function templatize(text: string, values: readonly { name: string; value: string }[]): string {
  // Longest values first, so `192.168.200.1` never eats part of `192.168.200.12`.
  const ordered = [...values].filter((v) => v.value.length > 0).sort((a, b) => b.value.length - a.value.length);
  let out = text;
  // Derived forms first (longer, and they contain the value's parts): `models--Org--Name`.
  for (const { name, value } of ordered) {
    if (!value.includes('/')) continue;
    const derived = escapeRegExp(placeholderValue(value, 'hf_cache_dir'));
    out = out.replace(new RegExp(`${derived}(?![A-Za-z0-9_.-])`, 'g'), `{{ ${name} | hf_cache_dir }}`);
  }
  for (const { name, value } of ordered) {
    const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`(?<![A-Za-z0-9._-])${escaped}(?![A-Za-z0-9_-]|\\.[0-9])`, 'g'), `{{ ${name} }}`);
  }
  return out;
}

/** In a pattern, every value written as a literal (regex-escaped) becomes its placeholder; renderPattern undoes it. */
export function templatizePattern(pattern: string, values: readonly { name: string; value: string }[]): string {
  let out = pattern;
  for (const { name, value } of [...values].filter((v) => v.value.length > 2).sort((a, b) => b.value.length - a.value.length)) {
    out = out.split(escapeRegExp(value)).join(`{{ ${name} }}`);
  }
  return out;
}
