import { beforeAll, describe, expect, it } from 'vitest';
import { runRetrace } from '../helpers/cli.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { tracedRun } from '../helpers/traced-run.js';

/**
 * The query commands on a current store load their own command's code and what they read with,
 * nothing else: no other command, not the schema's migrations, not the lake's views, not the
 * rule engine (the built-in rules are current). The built CLI (`npm run build` first).
 */
const dir = tempDir();
const db = tempDbPath(dir);

beforeAll(async () => {
  const run = await runRetrace(['ingest', SESSIONS_DIR, '--db', db]);
  expect(run.code, run.stderr).toBe(0);
});

const QUERIES: readonly [string, readonly string[]][] = [
  ['sessions', ['sessions']],
  ['tree', ['tree', 'qwen']],
  ['why', ['why', 'scitrera']],
  ['timings', ['timings', '--kind', 'all']],
];

describe('query commands on a current store', () => {
  it.each(QUERIES)('%s loads only its own command, and no migration, lake or rule-engine module', (name, args) => {
    const run = tracedRun([...args, '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(0);
    const commands = run.loaded.filter((url) => url.includes('/cli/commands/') && !url.endsWith('/commands/index.js'));
    expect([...new Set(commands.map((url) => url.slice(url.lastIndexOf('/') + 1)))]).toEqual([`${name}.js`]);
    expect(run.loaded.some((url) => url.endsWith('/store/database.js'))).toBe(true);
    const unneeded = run.loaded.filter((url) =>
      /\/store\/(migrations|schema\/|lake\/)|\/query\/(rules\/(active|load|compile)|derive)\.js|\/node_modules\/(yaml|zod)\//.test(url));
    expect(unneeded).toEqual([]);
  });

  it('a store to bring up to date still loads the migrations (an ingest writes through them)', () => {
    const run = tracedRun(['ingest', SESSIONS_DIR, '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.loaded.some((url) => url.endsWith('/store/migrations.js'))).toBe(true);
  });
});
