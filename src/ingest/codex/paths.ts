import { join } from 'node:path';

/** `$CODEX_HOME/sessions`, where Codex writes rollouts (`CODEX_HOME` defaults to `~/.codex`). */
export function codexSessionsDir(env: NodeJS.ProcessEnv, home: string): string {
  const codexHome = env['CODEX_HOME'] && env['CODEX_HOME'].length > 0 ? env['CODEX_HOME'] : join(home, '.codex');
  return join(codexHome, 'sessions');
}
