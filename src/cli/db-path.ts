import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { StoreLocation } from '../store/location.js';
import { UsageError } from './errors.js';

/** --db FILE, else $RETRACE_DB, else ~/.local/share/retrace/retrace.duckdb. */
export function resolveDbPath(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (option) return resolve(option);
  if (env['RETRACE_DB']) return resolve(env['RETRACE_DB']);
  const dataHome = env['XDG_DATA_HOME'] && env['XDG_DATA_HOME'].length > 0 ? env['XDG_DATA_HOME'] : join(homedir(), '.local', 'share');
  return join(dataHome, 'retrace', 'retrace.duckdb');
}

/**
 * The one place a read command learns where to read: `--lake DIR` (a Parquet dataset written by
 * `retrace push`), else the store of `resolveDbPath`. Both at once is a usage error.
 */
export function resolveStoreLocation(options: { db?: string; lake?: string }, env: NodeJS.ProcessEnv = process.env): StoreLocation {
  if (options.lake !== undefined && options.db !== undefined) throw new UsageError('name a store (--db) or a lake (--lake), not both');
  if (options.lake !== undefined) return { lake: resolve(options.lake) };
  return resolveDbPath(options.db, env);
}
