import { fit } from './format.js';
import type { Tone } from './theme.js';

/** A run of text in one tone; a row is a few of them. Rows are built as data, then drawn. */
export interface Segment {
  text: string;
  tone?: Tone;
}

export function seg(text: string, tone?: Tone): Segment {
  return tone ? { text, tone } : { text };
}

export function segmentsText(segments: readonly Segment[]): string {
  return segments.map((segment) => segment.text).join('');
}

/** Cuts a row to `width` characters (the last visible segment ends in …) and pads it to `width`. */
export function fitSegments(segments: readonly Segment[], width: number): Segment[] {
  const out: Segment[] = [];
  let used = 0;
  const total = [...segmentsText(segments)].length;
  for (const segment of segments) {
    const length = [...segment.text].length;
    if (used + length <= width && (total <= width || used + length < width)) {
      out.push(segment);
      used += length;
      continue;
    }
    out.push({ ...segment, text: fit(segment.text, width - used).trimEnd() });
    used = width;
    break;
  }
  const last = out[out.length - 1];
  if (used < width) out.push({ text: ' '.repeat(width - used) });
  else if (last && [...segmentsText(out)].length < width) out.push({ text: ' '.repeat(width - [...segmentsText(out)].length) });
  return out;
}

/**
 * A fitted row without the blanks at its end that carry no style: Ink starts every frame from a
 * blank screen and measures, tokenizes and copies each written character, so unstyled padding costs
 * a third of a frame's work and draws nothing. An empty row keeps one blank (an empty text is no line).
 */
export function withoutTrailingBlanks(segments: readonly Segment[]): Segment[] {
  const out = [...segments];
  for (;;) {
    const last = out.at(-1);
    if (!last || (last.tone !== undefined && last.tone !== 'plain')) break;
    const text = last.text.trimEnd();
    if (text !== '') {
      out[out.length - 1] = { ...last, text };
      break;
    }
    out.pop();
  }
  return out.length > 0 ? out : [{ text: ' ' }];
}

/** The same text in the same tones. */
export function sameSegments(a: readonly Segment[], b: readonly Segment[]): boolean {
  return a.length === b.length && a.every((segment, index) => segment.text === b[index]?.text && segment.tone === b[index]?.tone);
}
