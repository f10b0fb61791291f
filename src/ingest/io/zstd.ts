import { Decompress } from 'fzstd';
import { ZstdFormatError, ZstdFrameGuard } from './zstd-frames.js';

/** What format detection gets from the head of a .zst file. */
export interface ZstdHead {
  /** Up to `limit` decompressed bytes. */
  bytes: Buffer;
  /** Set when the head is not valid zstd, or wants more memory than retrace gives it. */
  problem: string | null;
}

function describe(error: unknown, guard: ZstdFrameGuard): string {
  if (error instanceof ZstdFormatError) return error.message;
  return new ZstdFormatError(error instanceof Error ? error.message : String(error), guard.position).message;
}

/**
 * Decompresses the first bytes of a .zst file, for format detection only: no more than `limit`
 * bytes (plus at most one block) are produced, however much the input would expand to, and no
 * frame gets a window over the guard's limit. Node 20's zlib has no zstd, so this uses fzstd (a
 * pure-JS streaming decoder). `wholeFile`: the input is the entire file, so a cut frame is corrupt.
 */
export function decompressZstdHead(compressed: Buffer, wholeFile = false, limit = 64 * 1024): ZstdHead {
  const pieces: Buffer[] = [];
  let size = 0;
  const decoder = new Decompress((chunk) => {
    // Copied: the decoder reuses its window buffer.
    pieces.push(Buffer.from(chunk));
    size += chunk.length;
  });
  const guard = new ZstdFrameGuard();
  let problem: string | null = null;
  try {
    const parts = guard.cut(compressed);
    for (const [index, part] of parts.entries()) {
      if (size >= limit) break;
      decoder.push(part, wholeFile && index === parts.length - 1 && guard.atFrameBoundary);
    }
    if (wholeFile && size < limit) guard.finish();
  } catch (error) {
    problem = describe(error, guard);
  }
  const bytes = Buffer.concat(pieces, size);
  return { bytes: bytes.length > limit ? bytes.subarray(0, limit) : bytes, problem };
}
