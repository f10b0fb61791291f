import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

/** The package root, found from this compiled file (dist/src/cli) or its source (src/cli). */
export function packageRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.includes(`${'/dist/'}`) ? join(here, '..', '..', '..') : join(here, '..', '..');
}

export function bundledSessionsDir(): string {
  return join(packageRoot(), 'sessions');
}
