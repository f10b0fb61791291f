import { totalmem } from 'node:os';
import type { Database } from './database.js';

/**
 * Bulk writes run under a small DuckDB memory limit (BULK_WRITE_MEMORY_LIMIT) so a long ingest
 * stays small. Two things need more, and get it only while they run:
 *
 * - A commit: DuckDB keeps the strings a transaction appended in memory and pins them all to
 *   commit, so a source whose texts add up to more than the limit (an opencode export with ten
 *   15 MB outputs) failed and was dropped whole. The limit is raised to twice the transaction's
 *   text plus the usual cache (measured: 1.25× is not always enough, 1.5× was) for the commit
 *   and the checkpoint after it, then set back.
 * - Reading large texts back (deriving a session whose outputs are megabytes each): DuckDB pins
 *   every string of a 2,048-row vector at once. A read that runs out of memory is run once more
 *   with the limit at RETRY_LIMIT_BYTES.
 */

const MIB = 1024 * 1024;
/** Below this much appended text, the usual limit has room enough to commit. */
const RAISE_ABOVE_BYTES = 32 * MIB;
export const RETRY_LIMIT_BYTES = Math.min(4 * 1024 * MIB, Math.floor(totalmem() / 2));

const UNITS: Record<string, number> = { B: 1, KB: 1000, MB: 1000 ** 2, GB: 1000 ** 3, TB: 1000 ** 4, KIB: 1024, MIB, GIB: 1024 ** 3, TIB: 1024 ** 4 };

/** DuckDB's `current_setting('memory_limit')`, e.g. `122.0 MiB`, in bytes (null if unreadable). */
export function memoryLimitBytes(setting: string): number | null {
  const match = /^\s*([\d.]+)\s*([KMGT]?i?B)\s*$/i.exec(setting);
  const unit = match ? UNITS[(match[2] as string).toUpperCase()] : undefined;
  return match && unit ? Number(match[1]) * unit : null;
}

export function isOutOfMemory(error: unknown): boolean {
  return /Out of Memory Error|could not allocate block|failed to pin block/i.test(error instanceof Error ? error.message : String(error));
}

/**
 * Runs `work` with DuckDB's memory limit at least `bytes`, then sets it back; `checkpoint`: write
 * the WAL into the file before that, while there is room (left to DuckDB, the checkpoint after a
 * large commit would run at the next statement under the small limit, and fail the instance).
 */
export async function withMemoryLimit<T>(db: Database, bytes: number, work: () => Promise<T>, options: { checkpoint?: boolean } = {}): Promise<T> {
  const setting = String(await db.scalar(`SELECT current_setting('memory_limit')`));
  const current = memoryLimitBytes(setting);
  if (current === null || bytes <= current) return work();
  await db.run(`SET memory_limit = '${Math.ceil(bytes / MIB)}MiB'`);
  try {
    const result = await work();
    // What `work` committed is durable in the WAL already: a checkpoint that fails (a full disk)
    // is retried by DuckDB later and must not make a stored source look failed.
    if (options.checkpoint) await db.run('CHECKPOINT').catch(() => undefined);
    return result;
  } finally {
    await db.run(`SET memory_limit = '${setting}'`);
  }
}

/** Commits with a memory limit that can hold `textBytes` of appended strings. */
export async function withCommitMemory<T>(db: Database, textBytes: number, commit: () => Promise<T>): Promise<T> {
  if (textBytes < RAISE_ABOVE_BYTES) return commit();
  const current = memoryLimitBytes(String(await db.scalar(`SELECT current_setting('memory_limit')`))) ?? 0;
  return withMemoryLimit(db, current + 2 * textBytes, commit, { checkpoint: true });
}

/** Runs `work`; when DuckDB runs out of memory, once more with the limit at RETRY_LIMIT_BYTES. */
export async function retryWithMoreMemory<T>(db: Database, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isOutOfMemory(error)) throw error;
    return withMemoryLimit(db, RETRY_LIMIT_BYTES, work);
  }
}
