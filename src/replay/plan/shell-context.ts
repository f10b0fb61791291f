import { PLACEHOLDER_SOURCE } from './placeholder.js';

/**
 * Where a `{{ name }}` placeholder lands in a command, as the shells that read it will see it: the
 * quotes around it, command substitutions (`$( … )`, at any depth, with their own quotes), here
 * documents (expanding or literal), and strings that a shell reads again as code (`bash -c "…"`,
 * `sh -c '…'`, `eval …`), each layer outermost first. Rendering embeds a value so that every layer
 * passes it on literally; a layer where that cannot be done (backticks, `${…}`, `$((…))`, a here
 * document whose delimiter the value contains) refuses, naming the position. Pure.
 */

export type Layer =
  | { kind: 'none' | 'single' | 'double' | 'ansi' | 'comment' }
  | { kind: 'heredoc'; expands: boolean; delimiter: string; stripTabs: boolean }
  /** Contexts no value but a bare word can be embedded in. */
  | { kind: 'unsupported'; what: string };

export interface PlaceholderSite {
  /** Offset of the placeholder in the text analysed at the outermost level. */
  at: number;
  /** Outermost first; the last layer is the one the value's own characters land in. */
  layers: Layer[];
  /** Here-documents around the site at any depth: a rendered line equal to a delimiter would end one. */
  heredocs: { delimiter: string; stripTabs: boolean }[];
}

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox']);
const PLACEHOLDER_START = new RegExp(PLACEHOLDER_SOURCE, 'y');

type Frame =
  | { kind: 'code'; closer: ')' | null; words: string[]; word: string; wordStart: number | null; scriptWord: boolean }
  | { kind: 'single' | 'double' | 'ansi' }
  | { kind: 'heredoc'; expands: boolean; delimiter: string; stripTabs: boolean; lineStart: number }
  | { kind: 'unsupported'; what: string; closer: string; depth: number };

interface PendingHeredoc {
  delimiter: string;
  expands: boolean;
  stripTabs: boolean;
}

function basename(word: string): string {
  return word.replace(/^.*\//, '');
}

/** `bash -c SCRIPT`, `sudo -u x sh -lc SCRIPT`, `eval WORDS`: the next word is shell code. */
function nextWordIsScript(words: readonly string[]): boolean {
  const previous = words.at(-1);
  if (previous === undefined) return false;
  if (words.some((word) => word === 'eval')) return true;
  if (!/^-[A-Za-z]*c[A-Za-z]*$/.test(previous)) return false;
  return words.slice(0, -1).some((word) => SHELLS.has(basename(word)));
}

/** A word's text after the outer shell removed its quotes: what the inner shell will read. */
export function decodeWord(raw: string): { text: string; origin: number[] } {
  let text = '';
  const origin: number[] = [];
  let state: 'none' | 'single' | 'double' | 'ansi' = 'none';
  const push = (chars: string, from: number): void => {
    for (const ch of chars) {
      text += ch;
      origin.push(from);
    }
  };
  for (let i = 0; i < raw.length; i += 1) {
    const ch = raw[i] as string;
    const placeholder = matchPlaceholder(raw, i);
    if (placeholder) {
      for (let k = 0; k < placeholder.length; k += 1) push(raw[i + k] as string, i + k);
      i += placeholder.length - 1;
      continue;
    }
    if (state === 'none') {
      if (ch === '\\' && i + 1 < raw.length) {
        i += 1;
        if (raw[i] !== '\n') push(raw[i] as string, i);
      } else if (ch === "'") state = raw[i - 1] === '$' && text.endsWith('$') ? (text = text.slice(0, -1), origin.pop(), 'ansi') : 'single';
      else if (ch === '"') state = 'double';
      else push(ch, i);
    } else if (state === 'single') {
      if (ch === "'") state = 'none';
      else push(ch, i);
    } else if (state === 'double') {
      if (ch === '\\' && /[$`"\\\n]/.test(raw[i + 1] ?? '')) {
        i += 1;
        if (raw[i] !== '\n') push(raw[i] as string, i);
      } else if (ch === '"') state = 'none';
      else push(ch, i);
    } else {
      if (ch === '\\' && i + 1 < raw.length) {
        i += 1;
        const escaped = raw[i] as string;
        push({ n: '\n', t: '\t', r: '\r', a: '\u0007', b: '\b', e: '\u001b', f: '\f', v: '\v' }[escaped] ?? escaped, i);
      } else if (ch === "'") state = 'none';
      else push(ch, i);
    }
  }
  return { text, origin };
}

function matchPlaceholder(text: string, at: number): string | null {
  PLACEHOLDER_START.lastIndex = at;
  return PLACEHOLDER_START.exec(text)?.[0] ?? null;
}

function codeFrame(closer: ')' | null): Frame {
  return { kind: 'code', closer, words: [], word: '', wordStart: null, scriptWord: false };
}

function layerOf(frame: Frame): Layer {
  switch (frame.kind) {
    case 'code':
      return { kind: 'none' };
    case 'heredoc':
      return { kind: 'heredoc', expands: frame.expands, delimiter: frame.delimiter, stripTabs: frame.stripTabs };
    case 'unsupported':
      return { kind: 'unsupported', what: frame.what };
    default:
      return { kind: frame.kind };
  }
}

/** The layers of every placeholder in `text` (offsets are `text`'s own). */
export function placeholderSites(text: string, depth = 0): PlaceholderSite[] {
  const sites: PlaceholderSite[] = [];
  const stack: Frame[] = [codeFrame(null)];
  const pending: PendingHeredoc[] = [];
  const top = (): Frame => stack[stack.length - 1] as Frame;
  /** The innermost code frame, whose words decide whether a word is a script. */
  const code = (): Extract<Frame, { kind: 'code' }> | null => {
    for (let k = stack.length - 1; k >= 0; k -= 1) {
      const frame = stack[k] as Frame;
      if (frame.kind === 'code') return frame;
      if (frame.kind === 'heredoc' || frame.kind === 'unsupported') return null;
    }
    return null;
  };
  const touchWord = (at: number): void => {
    const frame = code();
    if (frame && frame.wordStart === null) {
      frame.wordStart = at;
      frame.scriptWord = depth < 4 && nextWordIsScript(frame.words);
    }
  };
  const endWord = (at: number): void => {
    const frame = code();
    if (!frame || frame.wordStart === null) return;
    const raw = text.slice(frame.wordStart, at);
    if (frame.scriptWord) {
      // The inner shell reads the decoded word: its placeholders get the inner layers too.
      const decoded = decodeWord(raw);
      const outer = new Map(sites.filter((site) => site.at >= (frame.wordStart as number) && site.at < at).map((site) => [site.at, site]));
      for (const inner of placeholderSites(decoded.text, depth + 1)) {
        const at0 = (frame.wordStart as number) + (decoded.origin[inner.at] ?? 0);
        const site = outer.get(at0);
        if (site) {
          site.layers.push(...inner.layers);
          site.heredocs.push(...inner.heredocs);
        }
      }
    }
    frame.words.push(raw);
    frame.word = '';
    frame.wordStart = null;
    frame.scriptWord = false;
  };
  const endCommand = (at: number): void => {
    endWord(at);
    const frame = code();
    if (frame) frame.words = [];
  };

  for (let i = 0; i < text.length; i += 1) {
    const frame = top();
    const ch = text[i] as string;
    const placeholder = matchPlaceholder(text, i);
    if (placeholder) {
      if (frame.kind === 'code') touchWord(i);
      const heredocs = stack.flatMap((f) => (f.kind === 'heredoc' ? [{ delimiter: f.delimiter, stripTabs: f.stripTabs }] : []));
      sites.push({ at: i, layers: [layerOf(frame)], heredocs });
      i += placeholder.length - 1;
      continue;
    }
    switch (frame.kind) {
      case 'single':
        if (ch === "'") stack.pop();
        break;
      case 'ansi':
        if (ch === '\\') i += 1;
        else if (ch === "'") stack.pop();
        break;
      case 'double':
        if (ch === '\\') i += 1;
        else if (ch === '"') stack.pop();
        else if (ch === '$' && text[i + 1] === '(' && text[i + 2] === '(') {
          stack.push({ kind: 'unsupported', what: '$(( … )) arithmetic', closer: ')', depth: 0 });
          i += 2;
        } else if (ch === '$' && text[i + 1] === '(') {
          stack.push(codeFrame(')'));
          i += 1;
        } else if (ch === '$' && text[i + 1] === '{') {
          stack.push({ kind: 'unsupported', what: '${ … } parameter expansion', closer: '}', depth: 0 });
          i += 1;
        } else if (ch === '`') stack.push({ kind: 'unsupported', what: 'backticks', closer: '`', depth: 0 });
        break;
      case 'unsupported':
        if (ch === '\\') i += 1;
        else if (frame.closer !== '`' && (ch === '(' || ch === '{') && ch === (frame.closer === ')' ? '(' : '{')) frame.depth += 1;
        else if (ch === frame.closer) {
          if (frame.depth > 0) frame.depth -= 1;
          else {
            stack.pop();
            if (frame.closer === ')' && text[i + 1] === ')') i += 1;
          }
        }
        break;
      case 'heredoc': {
        if (i === frame.lineStart) {
          const end = text.indexOf('\n', i);
          const line = text.slice(i, end < 0 ? text.length : end);
          if ((frame.stripTabs ? line.replace(/^\t+/, '') : line) === frame.delimiter) {
            stack.pop();
            i = (end < 0 ? text.length : end) - 1;
            if (end >= 0) i += 1; // past the newline: back in the code, at the start of a line
            const next = pending.shift();
            if (next) stack.push({ kind: 'heredoc', ...next, lineStart: i + 1 });
            break;
          }
        }
        if (ch === '\n') frame.lineStart = i + 1;
        else if (frame.expands && ch === '\\') i += 1;
        else if (frame.expands && ch === '$' && text[i + 1] === '(' && text[i + 2] !== '(') {
          stack.push(codeFrame(')'));
          i += 1;
        } else if (frame.expands && ch === '$' && (text[i + 1] === '{' || text[i + 1] === '(')) {
          stack.push({ kind: 'unsupported', what: text[i + 1] === '{' ? '${ … } parameter expansion' : '$(( … )) arithmetic', closer: text[i + 1] === '{' ? '}' : ')', depth: 0 });
          i += text[i + 1] === '(' ? 2 : 1;
        } else if (frame.expands && ch === '`') stack.push({ kind: 'unsupported', what: 'backticks', closer: '`', depth: 0 });
        break;
      }
      case 'code': {
        if (ch === '\\') {
          touchWord(i);
          i += 1;
        } else if (ch === "'") {
          touchWord(i);
          stack.push({ kind: text[i - 1] === '$' ? 'ansi' : 'single' });
        } else if (ch === '"') {
          touchWord(i);
          stack.push({ kind: 'double' });
        } else if (ch === '$' && text[i + 1] === '(' && text[i + 2] === '(') {
          touchWord(i);
          stack.push({ kind: 'unsupported', what: '$(( … )) arithmetic', closer: ')', depth: 0 });
          i += 2;
        } else if (ch === '$' && text[i + 1] === '(') {
          touchWord(i);
          stack.push(codeFrame(')'));
          i += 1;
        } else if (ch === '$' && text[i + 1] === '{') {
          touchWord(i);
          stack.push({ kind: 'unsupported', what: '${ … } parameter expansion', closer: '}', depth: 0 });
          i += 1;
        } else if (ch === '`') {
          touchWord(i);
          stack.push({ kind: 'unsupported', what: 'backticks', closer: '`', depth: 0 });
        } else if (ch === '#' && frame.wordStart === null) {
          const end = text.indexOf('\n', i);
          const stop = end < 0 ? text.length : end;
          for (const site of sitesIn(text, i, stop)) sites.push({ at: site, layers: [{ kind: 'comment' }], heredocs: [] });
          i = stop - 1;
        } else if (ch === '<' && text[i + 1] === '<' && text[i + 2] !== '<') {
          endWord(i);
          const heredoc = /^<<(-?)[ \t]*((?:'[^'\n]*'|"[^"\n]*"|\\?[^\s;&|<>()]+)+)/.exec(text.slice(i));
          if (heredoc) {
            const word = heredoc[2] ?? '';
            pending.push({ delimiter: word.replace(/['"\\]/g, ''), expands: !/['"\\]/.test(word), stripTabs: heredoc[1] === '-' });
            i += heredoc[0].length - 1;
          } else i += 1;
        } else if (ch === '\n') {
          endCommand(i);
          const next = pending.shift();
          if (next) stack.push({ kind: 'heredoc', ...next, lineStart: i + 1 });
        } else if (ch === ' ' || ch === '\t') endWord(i);
        else if (ch === ';' || ch === '&' || ch === '|' || ch === '(') endCommand(i);
        else if (ch === ')') {
          endCommand(i);
          if (frame.closer === ')') {
            stack.pop();
            // The substitution is part of the word around it in the frame outside.
            const outer = top();
            if (outer.kind === 'code') touchWord(i);
          }
        } else touchWord(i);
        break;
      }
    }
  }
  endCommand(text.length);
  return sites.sort((a, b) => a.at - b.at);
}

function sitesIn(text: string, from: number, to: number): number[] {
  const found: number[] = [];
  for (let i = from; i < to; i += 1) if (matchPlaceholder(text, i)) found.push(i);
  return found;
}
