import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRetraceJson } from '../helpers/cli.js';
import { queryStore } from '../helpers/ingest.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { syntheticExport } from '../helpers/synthetic-opencode.js';
import { tempDir } from '../helpers/temp.js';

/**
 * A store on a 6 MB tmpfs: the sample fits, a 40 MB transcript does not. The ingest of the big one
 * must fail with a clear message and leave the store exactly as it was (the test runs as root, as
 * CI does, so it can mount; the harness script installs nothing for this).
 */
const dir = tempDir('retrace-disk-');
const mountPoint = join(dir, 'small-disk');
const dbPath = join(mountPoint, 'store.duckdb');
const bigFile = join(dir, 'big.json');

describe('a full disk', () => {
  beforeAll(() => {
    mkdirSync(mountPoint, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', mountPoint]);
    writeFileSync(bigFile, JSON.stringify(syntheticExport({ sessionId: 'ses_big00000000000000000000', messages: 2000, outputPadding: 8000 })));
  });

  afterAll(() => {
    execFileSync('umount', ['-l', mountPoint]);
  });

  it('fails the big source with a clear error and leaves the store intact and readable', async () => {
    const first = await runRetraceJson<{ messages: number }>(['ingest', SESSIONS_DIR, '--db', dbPath]);
    expect(first.code).toBe(0);
    const before = await queryStore(dbPath, (db) => db.all('SELECT id, message_count FROM sessions'));

    const big = await runRetraceJson<{ failed_sources: number; errors: { file: string; message: string }[] }>(['ingest', bigFile, '--db', dbPath]);
    expect(big.code).toBe(1);
    expect(big.json.failed_sources).toBe(1);
    expect(big.json.errors[0]?.file).toBe(bigFile);
    expect(big.json.errors[0]?.message).toMatch(/disk .* is full|No space left/i);
    expect(big.stderr).not.toMatch(/\n\s+at /);

    const after = await queryStore(dbPath, (db) => db.all('SELECT id, message_count FROM sessions'));
    expect(after).toEqual(before);
    const again = await runRetraceJson<{ skipped_unchanged: number; errors: unknown[] }>(['ingest', SESSIONS_DIR, '--db', dbPath]);
    expect(again.json).toMatchObject({ skipped_unchanged: 1, errors: [] });
  }, 120_000);
});
