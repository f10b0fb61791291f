import { open } from 'node:fs/promises';
import type { FileHead } from '../adapter.js';
import { openSqliteReadOnly, type SqliteHandle } from './sqlite-open.js';

const HEAD_BYTES = 64 * 1024;
/** Enough compressed input for a whole first block (≤ 128 KiB compressed) whatever its ratio. */
const COMPRESSED_HEAD_BYTES = 256 * 1024;
const SQLITE_MAGIC = 'SQLite format 3\0';
const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

/** Decompresses the head of a .zst file (`wholeFile`: it is the entire file), within a bound. */
export type Decompressor = (compressed: Buffer, wholeFile: boolean) => { bytes: Buffer; problem: string | null };

/**
 * The tables of a SQLite file, asked of SQLite itself: after years of migrations or a VACUUM the
 * schema text can sit anywhere in the file, far past any head a text scan would read. Empty when
 * the file cannot be opened as a database (damaged, encrypted, locked by an exclusive writer).
 */
export function sqliteTables(path: string): string[] {
  let db: SqliteHandle | null = null;
  try {
    db = openSqliteReadOnly(path);
    const rows = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all();
    return rows.flatMap((row) => {
      const name = typeof row === 'object' && row !== null ? Reflect.get(row, 'name') : undefined;
      return typeof name === 'string' ? [name] : [];
    });
  } catch {
    return [];
  } finally {
    db?.close();
  }
}

/** Reads the first bytes of a file for format detection; decompresses .zst heads when it can. */
export async function readFileHead(path: string, decompress?: Decompressor): Promise<FileHead> {
  const handle = await open(path, 'r');
  let bytes: Buffer;
  let problem: string | null = null;
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    bytes = buffer.subarray(0, bytesRead);
    if (bytes.subarray(0, 4).equals(ZSTD_MAGIC) && decompress) {
      const compressed = Buffer.alloc(COMPRESSED_HEAD_BYTES);
      const { bytesRead: compressedRead } = await handle.read(compressed, 0, COMPRESSED_HEAD_BYTES, 0);
      const head = decompress(compressed.subarray(0, compressedRead), compressedRead < COMPRESSED_HEAD_BYTES);
      bytes = head.bytes.subarray(0, HEAD_BYTES);
      problem = head.problem;
    }
  } finally {
    await handle.close();
  }
  const sqlite = bytes.subarray(0, SQLITE_MAGIC.length).toString('latin1') === SQLITE_MAGIC;
  return {
    path,
    text: sqlite ? '' : bytes.toString('utf8'),
    sqlite,
    sqliteTables: sqlite ? sqliteTables(path) : [],
    ...(problem ? { problem } : {}),
  };
}
