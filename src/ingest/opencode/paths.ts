import { join } from 'node:path';

/** opencode's data folder: $XDG_DATA_HOME/opencode, else ~/.local/share/opencode. */
export function opencodeDataDir(env: NodeJS.ProcessEnv, home: string): string {
  const base = env['XDG_DATA_HOME'] && env['XDG_DATA_HOME'].length > 0 ? env['XDG_DATA_HOME'] : join(home, '.local', 'share');
  return join(base, 'opencode');
}
