import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A fresh folder under the OS temp dir, removed when the test file ends. */
export function tempDir(prefix = 'retrace-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

let counter = 0;

/** A path for a new DuckDB file inside a temp folder. */
export function tempDbPath(dir: string): string {
  counter += 1;
  return join(dir, `store-${process.pid}-${counter}.duckdb`);
}
