import { existsSync, readFileSync } from 'node:fs';

/** Every byte a DuckDB store has on disk: the database file and its write-ahead log, if any. */
export function storeBytes(dbPath: string): Buffer {
  return Buffer.concat([dbPath, `${dbPath}.wal`].filter((file) => existsSync(file)).map((file) => readFileSync(file)));
}
