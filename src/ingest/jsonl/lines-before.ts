import { open } from 'node:fs/promises';
import { readLines } from '../io/line-reader.js';
import { isJsonObject, type JsonObject } from './parse-line.js';
import { parseJson } from '../../core/json-depth.js';

const BLOCK = 64 * 1024;
/** How far back a resumed read looks for its context before giving up on it. */
export const MAX_LOOK_BACK_BYTES = 256 * 1024 * 1024;

export interface EarlierLine {
  bytes: Buffer;
  /** 1-based line number. */
  number: number;
}

/**
 * The complete lines before `offset` (a line boundary: the start of line `line`), last first,
 * read backwards block by block; one line in memory at a time. Stops after `maxBytes`.
 */
export async function* linesBefore(file: string, offset: number, line: number, maxBytes = MAX_LOOK_BACK_BYTES): AsyncGenerator<EarlierLine> {
  const handle = await open(file, 'r');
  try {
    // The byte before the resume point is the newline ending the previous line.
    let position = Math.max(0, offset - 1);
    let number = line - 1;
    let pieces: Buffer[] = [];
    while (position > 0 && offset - position <= maxBytes) {
      const start = Math.max(0, position - BLOCK);
      const block = Buffer.alloc(position - start);
      await handle.read(block, 0, block.length, start);
      let cut = block.length;
      let newline = cut > 0 ? block.lastIndexOf(0x0a, cut - 1) : -1;
      while (newline !== -1) {
        yield { bytes: Buffer.concat([block.subarray(newline + 1, cut), ...pieces]), number };
        number -= 1;
        pieces = [];
        cut = newline;
        newline = cut > 0 ? block.lastIndexOf(0x0a, cut - 1) : -1;
      }
      pieces.unshift(block.subarray(0, cut));
      position = start;
    }
    if (position === 0 && number >= 1) yield { bytes: Buffer.concat(pieces), number };
  } finally {
    await handle.close();
  }
}

/** A line's JSON object, or null when it is not one. */
export function objectOf(bytes: Buffer): JsonObject | null {
  try {
    const value: unknown = parseJson(bytes.toString('utf8'));
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** How many lines from the top a resumed read looks at for the facts a session began with. */
export const MAX_LOOK_AHEAD_LINES = 10_000;

/**
 * The lines from the start of the file up to (not including) line `beforeLine`, as JSON objects
 * when they are, for as long as `visit` returns false.
 */
export async function scanFromStart(file: string, beforeLine: number, visit: (value: JsonObject, number: number) => boolean): Promise<void> {
  for await (const line of readLines(file)) {
    if (line.number >= Math.min(beforeLine, MAX_LOOK_AHEAD_LINES)) return;
    const value = objectOf(Buffer.from(line.text));
    if (value && visit(value, line.number)) return;
  }
}
