/**
 * Other readings of one text, each with a map back to it. Rules are written for plain text; two
 * ways text hides a secret from them are undone here rather than in every rule: terminal colours
 * (`grep --color` puts escape codes between `password` and `=`) and JSON escaping (`kubectl … -o
 * json` shows a Secret inside `last-applied-configuration` as `{\"password\":\"…\"}`). A match in a
 * view maps back to the span of the original it came from, escape codes included.
 */

export interface View {
  text: string;
  /** Original offset of each view character, and one past its last original character. */
  from: Int32Array;
  to: Int32Array;
}

/** CSI (`ESC [ … letter`), OSC (`ESC ] … BEL|ST`) and two-character escapes. */
// eslint-disable-next-line no-control-regex -- terminal escapes are control characters by definition
const ESCAPE = /\x1b(?:\[[0-?]{0,64}[ -/]{0,8}[@-~]|\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)?|[@-Z\\-_])/g;

function build(length: number): { from: Int32Array; to: Int32Array } {
  return { from: new Int32Array(length), to: new Int32Array(length) };
}

/** The text without terminal escape sequences, or null when it has none. */
export function withoutEscapes(text: string): View | null {
  if (!text.includes('\x1b')) return null;
  const { from, to } = build(text.length);
  const parts: string[] = [];
  let kept = 0;
  let last = 0;
  const keep = (start: number, end: number): void => {
    parts.push(text.slice(start, end));
    for (let i = start; i < end; i++) {
      from[kept] = i;
      to[kept] = i + 1;
      kept += 1;
    }
  };
  for (const match of text.matchAll(ESCAPE)) {
    const at = match.index ?? 0;
    keep(last, at);
    last = at + match[0].length;
  }
  keep(last, text.length);
  return { text: parts.join(''), from: from.subarray(0, kept), to: to.subarray(0, kept) };
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };

/** The text with one level of JSON string escapes undone, or null when it has no `\"`. */
export function unescaped(text: string): View | null {
  if (!text.includes('\\"')) return null;
  const { from, to } = build(text.length);
  const parts: string[] = [];
  let kept = 0;
  let run = 0;
  const flush = (end: number): void => {
    parts.push(text.slice(run, end));
    for (let k = run; k < end; k++) {
      from[kept] = k;
      to[kept] = k + 1;
      kept += 1;
    }
  };
  const push = (char: string, start: number, end: number): void => {
    parts.push(char);
    for (let k = 0; k < char.length; k++) {
      from[kept] = start;
      to[kept] = end;
      kept += 1;
    }
    run = end;
  };
  let i = text.indexOf('\\');
  while (i !== -1 && i + 1 < text.length) {
    const next = text[i + 1] as string;
    const simple = SIMPLE_ESCAPES[next];
    let width = 0;
    let char = '';
    if (simple !== undefined) {
      width = 2;
      char = simple;
    } else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
      width = 6;
      char = String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
    }
    if (width > 0) {
      flush(i);
      push(char, i, i + width);
      i = text.indexOf('\\', i + width);
    } else {
      i = text.indexOf('\\', i + 1);
    }
  }
  flush(text.length);
  return { text: parts.join(''), from: from.subarray(0, kept), to: to.subarray(0, kept) };
}

/** A view of a view, mapped to the original. */
export function compose(outer: View, inner: View): View {
  const from = new Int32Array(inner.text.length);
  const to = new Int32Array(inner.text.length);
  for (let i = 0; i < inner.text.length; i++) {
    from[i] = outer.from[inner.from[i] as number] as number;
    to[i] = outer.to[(inner.to[i] as number) - 1] as number;
  }
  return { text: inner.text, from, to };
}

/** Where a span `[start, end)` of a view lies in the original. */
export function toOriginal(view: View, start: number, end: number): [number, number] {
  return [view.from[start] as number, view.to[end - 1] as number];
}
