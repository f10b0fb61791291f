// vitest globalSetup: runs once before the whole suite. The replay and TUI tests drive real
// OpenSSH servers and a real terminal, so the tools must be installed first.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ENSURE_TOOLS = fileURLToPath(new URL('../scripts/ensure-test-tools.sh', import.meta.url));

export function setup(): void {
  const result = spawnSync('bash', [ENSURE_TOOLS], { encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'] });
  const message = (result.stderr ?? '').trim();
  if (result.status !== 0) {
    throw new Error(message || `${ENSURE_TOOLS} failed (exit ${result.status ?? result.signal})`);
  }
  if (message) console.error(message);
}
