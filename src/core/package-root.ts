import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

/** The package root, found from this compiled file (dist/src/core) or its source (src/core). */
export function packageRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.includes(`${'/dist/'}`) ? join(here, '..', '..', '..') : join(here, '..', '..');
}

/** retrace's version, as its package.json says. */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
  return String(manifest.version ?? '0');
}
