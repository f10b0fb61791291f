import { createReadStream } from 'node:fs';
import { isUtf8 } from 'node:buffer';

export interface Line {
  /** The line's text without its line ending (and without a leading BOM on line 1). */
  text: string;
  /** 1-based line number. */
  number: number;
  /** Byte offset of the line's first byte. */
  start: number;
  /** Byte offset just past the line ending (where the next line starts). */
  end: number;
  /** False for a last line with no newline after it (possibly still being written). */
  complete: boolean;
  /** False when the bytes were not valid UTF-8 (they were decoded with U+FFFD replacements). */
  validUtf8: boolean;
  /** Set when the line was longer than the limit: its text is empty and it must be reported. */
  oversized?: number;
}

export interface LineReaderOptions {
  /** Byte offset to start at (a line boundary), with the line number of the line there. */
  startOffset?: number;
  startLine?: number;
  /** Lines longer than this are skipped without being held in memory. */
  maxLineBytes?: number;
  highWaterMark?: number;
}

export const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;

/** Streams a file as lines with byte offsets, never holding more than one line in memory. */
export async function* readLines(file: string, options: LineReaderOptions = {}): AsyncGenerator<Line> {
  const stream = createReadStream(file, {
    start: options.startOffset ?? 0,
    highWaterMark: options.highWaterMark ?? 1024 * 1024,
  });
  yield* splitLines(stream as AsyncIterable<Buffer>, options);
}

/**
 * Splits a stream of byte chunks into lines (the bytes of a file from `startOffset`, or the
 * output of a decompressor), never holding more than one line in memory.
 */
export async function* splitLines(chunks: AsyncIterable<Buffer>, options: LineReaderOptions = {}): AsyncGenerator<Line> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let offset = options.startOffset ?? 0;
  let number = options.startLine ?? 1;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  const atFileStart = offset === 0;

  const makeLine = (bytes: Buffer, end: number, complete: boolean): Line => {
    let body = bytes;
    if (body.length > 0 && body[body.length - 1] === 0x0d) body = body.subarray(0, body.length - 1);
    if (number === 1 && atFileStart && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) {
      body = body.subarray(3);
    }
    const validUtf8 = isUtf8(body);
    const line: Line = { text: body.toString('utf8'), number, start: end - bytes.length - (complete ? 1 : 0), end, complete, validUtf8 };
    number += 1;
    return line;
  };

  for await (const chunk of chunks) {
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(0x0a, from);
      const until = newline === -1 ? chunk.length : newline;
      const piece = chunk.subarray(from, until);
      if (!skipping) {
        if (pendingBytes + piece.length > maxLineBytes) {
          skipping = true;
          pending = [];
        } else if (piece.length > 0) {
          pending.push(piece);
        }
      }
      pendingBytes += piece.length;
      offset += piece.length;
      if (newline === -1) break;
      offset += 1;
      from = newline + 1;
      if (skipping) {
        yield { text: '', number, start: offset - pendingBytes - 1, end: offset, complete: true, validUtf8: true, oversized: pendingBytes };
        number += 1;
      } else {
        const bytes = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending, pendingBytes);
        yield makeLine(bytes, offset, true);
      }
      pending = [];
      pendingBytes = 0;
      skipping = false;
    }
  }
  if (pendingBytes > 0) {
    if (skipping) {
      yield { text: '', number, start: offset - pendingBytes, end: offset, complete: false, validUtf8: true, oversized: pendingBytes };
    } else {
      yield makeLine(Buffer.concat(pending, pendingBytes), offset, false);
    }
  }
}
