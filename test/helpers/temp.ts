import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
// Registered once, when a test file imports this module: vitest never runs an `afterAll` that is
// registered inside a hook or a test, which is where many folders are made.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder under the OS temp dir, removed when the test file ends. */
export function tempDir(prefix = 'retrace-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

let counter = 0;

/** A path for a new DuckDB file inside a temp folder. */
export function tempDbPath(dir: string): string {
  counter += 1;
  return join(dir, `store-${process.pid}-${counter}.duckdb`);
}
