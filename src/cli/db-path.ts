import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
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
 * A store a command will create must go into a folder that exists: a mistyped `--db` folder is
 * bad usage (exit 2), not a new tree of folders. The default location's folders are made on use.
 */
export function requireStoreFolder(dbPath: string, env: NodeJS.ProcessEnv = process.env): string {
  if (dbPath === resolveDbPath(undefined, { ...env, RETRACE_DB: undefined })) return dbPath;
  const folder = dirname(dbPath);
  if (!existsSync(folder)) throw new UsageError(`the store's folder ${folder} does not exist (--db ${dbPath}); create it first or name another file`);
  if (!statSync(folder).isDirectory()) throw new UsageError(`the store's folder ${folder} is not a folder (--db ${dbPath})`);
  return dbPath;
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
