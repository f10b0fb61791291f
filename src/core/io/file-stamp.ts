import { stat } from 'node:fs/promises';
import type { BigIntStats } from 'node:fs';

/**
 * A file's size, modification time (nanoseconds) and inode: what a re-ingest compares with the
 * store's record to skip a file without opening it. Equal stamps mean unchanged bytes for every
 * writer that does not both keep a file's size and set its modification time back: the bet rsync's
 * quick check and make make. A different stamp proves nothing either way: the content hash
 * decides, as before. The change time is left out: SQLite truncates an empty write-ahead log each
 * time a reader opens the database, which moves its change time and nothing else.
 */
export type FileStamp = string;

/**
 * A file modified this recently may be modified again within the clock's granularity without its
 * times changing ("racy" entries, as git calls them): its stamp is not trusted, it is hashed.
 * Two seconds also covers file systems that keep times to 2 s.
 */
export const RACY_WINDOW_MS = 2_000;

export function stampOf(info: BigIntStats, nowMs: number = Date.now()): FileStamp | null {
  // A write after this stat moves the modification time, unless it lands in the same clock tick.
  if (nowMs - Number(info.mtimeMs) < RACY_WINDOW_MS) return null;
  return `${info.size}/${info.mtimeNs}/${info.ino}`;
}

/** The stamp of a file, or null when it is too recent to trust or cannot be read. */
export async function fileStamp(path: string, nowMs?: number): Promise<FileStamp | null> {
  const info = await stat(path, { bigint: true }).catch(() => null);
  return info ? stampOf(info, nowMs) : null;
}

/** The stamp of several files read as one source (a database and its write-ahead log); null when any is untrusted. */
export async function filesStamp(paths: readonly string[], nowMs?: number): Promise<FileStamp | null> {
  const parts: string[] = [];
  for (const path of paths) {
    const info = await stat(path, { bigint: true }).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? 'absent' : null));
    if (info === null) return null;
    if (info === 'absent') {
      parts.push('-');
      continue;
    }
    const stamp = stampOf(info, nowMs);
    if (stamp === null) return null;
    parts.push(stamp);
  }
  return parts.join('+');
}

/** A file's size and stamp from one stat call (what a source records at discovery, before reading). */
export async function statStamped(path: string, nowMs?: number): Promise<{ size: number; stamp: FileStamp | null }> {
  const info = await stat(path, { bigint: true });
  return { size: Number(info.size), stamp: stampOf(info, nowMs) };
}
