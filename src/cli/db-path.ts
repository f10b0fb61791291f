import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** --db FILE, else $RETRACE_DB, else ~/.local/share/retrace/retrace.duckdb. */
export function resolveDbPath(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (option) return resolve(option);
  if (env['RETRACE_DB']) return resolve(env['RETRACE_DB']);
  const dataHome = env['XDG_DATA_HOME'] && env['XDG_DATA_HOME'].length > 0 ? env['XDG_DATA_HOME'] : join(homedir(), '.local', 'share');
  return join(dataHome, 'retrace', 'retrace.duckdb');
}
