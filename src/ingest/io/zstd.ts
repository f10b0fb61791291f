import { Decompress } from 'fzstd';

/**
 * Decompresses the first bytes of a .zst file, for format detection only. Node 20's zlib has no
 * zstd, so this uses fzstd (a pure-JS streaming decoder).
 */
export function decompressZstdHead(compressed: Buffer): Buffer | null {
  const pieces: Uint8Array[] = [];
  try {
    const stream = new Decompress((chunk) => {
      pieces.push(chunk);
    });
    stream.push(compressed, false);
  } catch {
    // A head cut mid-frame fails once the decoder needs the missing bytes; what came out still counts.
  }
  if (pieces.length === 0) return null;
  return Buffer.concat(pieces.map((piece) => Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength)));
}
