import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Decompress } from 'fzstd';
import { splitLines, type Line, type LineReaderOptions } from './line-reader.js';
import { ZstdFormatError, ZstdFrameGuard } from './zstd-frames.js';

const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

/** True when the file starts with a zstd frame, whatever its name says. */
export async function isZstdFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && head.equals(ZSTD_MAGIC);
  } finally {
    await handle.close();
  }
}

/**
 * The decompressed bytes of a .zst file, chunk by chunk. The frame guard cuts the input at block
 * boundaries, so at most one block (≤ 128 KiB) of output is held at a time however far the file
 * expands, and refuses frames whose window is over its limit (fzstd is a pure-JS streaming
 * decoder; Node 20's zlib has no zstd).
 */
export async function* zstdChunks(path: string, highWaterMark = 256 * 1024): AsyncGenerator<Buffer> {
  const ready: Buffer[] = [];
  // Copied: the decoder may reuse its window buffer, while a line can span several chunks.
  const decoder = new Decompress((data) => {
    ready.push(Buffer.from(data));
  });
  const guard = new ZstdFrameGuard();
  const push = (piece: Uint8Array, final: boolean): void => {
    try {
      decoder.push(piece, final);
    } catch (error) {
      throw error instanceof ZstdFormatError ? error : new ZstdFormatError(error instanceof Error ? error.message : String(error), guard.position);
    }
  };
  for await (const chunk of createReadStream(path, { highWaterMark }) as AsyncIterable<Buffer>) {
    for (const piece of guard.cut(chunk)) {
      push(piece, false);
      while (ready.length > 0) yield ready.shift() as Buffer;
    }
  }
  guard.finish();
  push(new Uint8Array(0), true);
  while (ready.length > 0) yield ready.shift() as Buffer;
}

/**
 * Streams the lines of a zstd-compressed file. Offsets count decompressed bytes, so a compressed
 * source cannot be resumed mid-file: it is read whole whenever it changes.
 */
export async function* readZstdLines(path: string, options: Omit<LineReaderOptions, 'startOffset' | 'startLine'> = {}): AsyncGenerator<Line> {
  yield* splitLines(zstdChunks(path, options.highWaterMark), options);
}
