import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

export type SqliteHandle = InstanceType<typeof BetterSqlite3>;

/**
 * Where SQLite files are read from. Even a read-only open of a WAL-mode database writes beside it:
 * SQLite creates `-wal` and `-shm` when they are absent and takes read marks in `-shm`. Ingest
 * accepts that (opencode itself keeps both files while it runs). A reader that promises to write
 * nothing of the user's (`retrace doctor`) instead reads each database from a private copy (the
 * file and its `-wal`, copied once per process into a folder it owns and removes).
 */
interface CopyPolicy {
  dir: string;
  copies: Map<string, string>;
}

let policy: CopyPolicy | null = null;

/** From now on, read SQLite files from copies under `dir` (null: read them in place again). */
export function readSqliteFromCopies(dir: string | null): void {
  policy = dir === null ? null : { dir, copies: new Map() };
}

function copyOf(file: string, active: CopyPolicy): string {
  const known = active.copies.get(file);
  if (known) return known;
  const folder = join(active.dir, String(active.copies.size));
  mkdirSync(folder, { recursive: true });
  const copy = join(folder, basename(file));
  copyFileSync(file, copy);
  const wal = `${file}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) copyFileSync(wal, `${copy}-wal`);
  active.copies.set(file, copy);
  return copy;
}

/** Opens an SQLite file for reading only, in place or from its copy as the policy says. */
export function openSqliteReadOnly(file: string): SqliteHandle {
  const path = policy ? copyOf(file, policy) : file;
  return new BetterSqlite3(path, { readonly: true, fileMustExist: true });
}
