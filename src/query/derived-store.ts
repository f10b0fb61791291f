import { BULK_WRITE_MEMORY_LIMIT, Database } from '../store/database.js';
import { staleDerivedSessions } from '../store/derived-writer.js';
import { isLake, openForReading, type StoreLocation } from '../store/location.js';
import type { DeriveFailureReport, DeriveOptions } from './derive.js';
import { rulesInForce } from './rules/in-force.js';

/**
 * A store whose derived rows are current before a command reads them. Apart from derive.ts: a
 * command on a current store (the usual case) never loads the classifier, the tree builder and
 * the rules (derive.ts is imported only when some session has to be derived).
 */

/** Sessions (all, or the ones given) whose derived rows are missing or from another rule set. */
export async function staleSessions(db: Database, sessionIds?: readonly string[]): Promise<string[]> {
  return staleDerivedSessions(db, (await rulesInForce()).fingerprint, sessionIds);
}

export interface DerivedStoreOptions extends DeriveOptions {
  onFailures?: (failures: readonly DeriveFailureReport[]) => void;
  /** A lake is never written: sessions it holds derived by other rules (or not at all) are named here and read as pushed. */
  onStaleLake?: (sessionIds: readonly string[]) => void;
}

/**
 * Runs `work` on a read-only store whose derived rows are current for the sessions `select`
 * names (null: all). Stale sessions are derived first through a short read-write open. A lake
 * is read as it was pushed: its derived rows came with it, with the fingerprint of their rules.
 */
export async function withDerivedStore<T>(
  location: StoreLocation,
  select: (db: Database) => Promise<readonly string[] | null>,
  work: (db: Database) => Promise<T>,
  options: DerivedStoreOptions = {},
): Promise<T> {
  const reader = await openForReading(location);
  let stale: string[];
  try {
    stale = await staleSessions(reader, (await select(reader)) ?? undefined);
    if (isLake(location) && stale.length > 0) options.onStaleLake?.(stale);
    if (stale.length === 0 || isLake(location)) return await work(reader);
  } finally {
    await reader.close();
  }
  const path = location;
  const [{ deriveSessions }, writer] = await Promise.all([import('./derive.js'), Database.open(path, { memoryLimit: BULK_WRITE_MEMORY_LIMIT })]);
  try {
    const failures = await deriveSessions(writer, stale, options);
    if (failures.length > 0) options.onFailures?.(failures);
  } finally {
    await writer.close();
  }
  const fresh = await Database.open(path, { readOnly: true });
  try {
    return await work(fresh);
  } finally {
    await fresh.close();
  }
}
