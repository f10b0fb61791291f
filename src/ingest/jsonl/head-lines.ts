import { isJsonObject, type JsonObject } from './parse-line.js';

export type HeadVerdict = 'yes' | 'no' | 'unsure';

export interface HeadLineRules {
  /** Judges one complete line parsed as a JSON object. */
  classify(value: JsonObject): HeadVerdict;
  /** Judges a line cut off by the end of the head (too long to parse) from its first bytes. */
  prefix: RegExp;
  /** How many lines to look at before giving up. */
  maxLines?: number;
}

/**
 * Tells a JSONL format apart by the content of a file's first bytes: the first line that settles
 * it decides. Lines that are not JSON objects are passed over (a corrupt first line must not hide
 * a whole transcript); a file with no line that settles it is not this format.
 */
export function detectJsonlHead(text: string, rules: HeadLineRules): boolean {
  const pieces = text.split('\n');
  const maxLines = rules.maxLines ?? 20;
  for (const [index, raw] of pieces.slice(0, maxLines).entries()) {
    const piece = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = index === 0 ? piece.replace(/^\ufeff/, '').trim() : piece.trim();
    if (trimmed === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      // The last piece may be a line cut short by the head's size limit: judge its first bytes.
      if (index === pieces.length - 1) return rules.prefix.test(trimmed);
      continue;
    }
    if (!isJsonObject(value)) continue;
    const verdict = rules.classify(value);
    if (verdict !== 'unsure') return verdict === 'yes';
  }
  return false;
}

/** The first value `pick` finds in the complete JSON-object lines of a head, or null. */
export function pickFromHead(text: string, pick: (value: JsonObject) => string | null, maxLines = 20): string | null {
  for (const raw of text.split('\n').slice(0, maxLines)) {
    let value: unknown;
    try {
      value = JSON.parse(raw.replace(/^\ufeff/, ''));
    } catch {
      continue;
    }
    if (!isJsonObject(value)) continue;
    const found = pick(value);
    if (found !== null) return found;
  }
  return null;
}
