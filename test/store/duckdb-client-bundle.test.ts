import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

/** The one-file DuckDB client `npm run build` writes (scripts/bundle-duckdb-client.mjs), with its V8 code cache. */
const BUNDLE = join(REPO_ROOT, 'dist', 'vendor', 'duckdb-node-api.cjs');
const CODE_CACHE = join(REPO_ROOT, 'dist', 'vendor', 'duckdb-node-api.code-cache');

describe('the bundled DuckDB client', () => {
  it('comes with a code cache this Node accepts, and loads a client that runs queries', async () => {
    expect(existsSync(BUNDLE) && existsSync(CODE_CACHE)).toBe(true);
    const script = new Script(readFileSync(BUNDLE, 'utf8'), { filename: BUNDLE, cachedData: readFileSync(CODE_CACHE) });
    expect(script.cachedDataRejected).toBe(false);
    const bundle = script.runInThisContext() as { version: string; load: (require: NodeJS.Require) => typeof import('@duckdb/node-api') };
    const require = createRequire(join(REPO_ROOT, 'package.json'));
    expect(bundle.version).toBe((JSON.parse(readFileSync(require.resolve('@duckdb/node-api/package.json'), 'utf8')) as { version: string }).version);
    const { DuckDBInstance } = bundle.load(createRequire(require.resolve('@duckdb/node-api')));
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    expect((await connection.runAndReadAll('SELECT 41 + 1 AS answer')).getRowObjectsJS()).toEqual([{ answer: 42 }]);
    connection.closeSync();
    instance.closeSync();
  });

  it('is still read without its code cache (another Node version or other flags make V8 refuse it)', () => {
    const script = new Script(readFileSync(BUNDLE, 'utf8'), { filename: BUNDLE, cachedData: Buffer.from('not a code cache') });
    expect(script.cachedDataRejected).toBe(true);
    expect(typeof (script.runInThisContext() as { load: unknown }).load).toBe('function');
  });
});
