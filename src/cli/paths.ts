import { join } from 'node:path';
import { packageRoot } from '../core/package-root.js';

export { packageRoot };

export function bundledSessionsDir(): string {
  return join(packageRoot(), 'sessions');
}
