import { open } from 'node:fs/promises';
import type { FileHead } from '../adapter.js';

const HEAD_BYTES = 64 * 1024;
const SQLITE_MAGIC = 'SQLite format 3\0';
const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

export type Decompressor = (compressed: Buffer) => Buffer | null;

/** Reads the first bytes of a file for format detection; decompresses .zst heads when it can. */
export async function readFileHead(path: string, decompress?: Decompressor): Promise<FileHead> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    let bytes: Buffer = buffer.subarray(0, bytesRead);
    if (bytes.subarray(0, 4).equals(ZSTD_MAGIC) && decompress) bytes = decompress(bytes) ?? Buffer.alloc(0);
    return {
      path,
      text: bytes.toString('utf8'),
      sqlite: bytes.subarray(0, SQLITE_MAGIC.length).toString('latin1') === SQLITE_MAGIC,
    };
  } finally {
    await handle.close();
  }
}
