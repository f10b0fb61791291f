import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';
import type * as DuckDBApi from '@duckdb/node-api';
import { packageRoot } from '../core/package-root.js';

interface ClientBundle {
  version: string;
  load: (externalRequire: NodeJS.Require) => typeof DuckDBApi;
}

/**
 * The bundle is a script whose value is the client's loader, compiled with the code cache the build
 * took of it: compiling it and running it the first time is ~30-50 ms of every store command without.
 */
function runBundle(path: string): ClientBundle {
  const cachePath = `${path.slice(0, -'.cjs'.length)}.code-cache`;
  const cachedData = existsSync(cachePath) ? readFileSync(cachePath) : undefined;
  return new Script(readFileSync(path, 'utf8'), { filename: path, cachedData }).runInThisContext() as ClientBundle;
}

/**
 * The DuckDB client, loaded with `require` (it is a CommonJS package: imported from ESM, Node
 * lexed every file of it for its named exports first, ~250 ms of every store command here), and
 * from the one-file copy the build writes (scripts/bundle-duckdb-client.mjs) when it is of the
 * installed version (with its V8 code cache, see `runBundle`): ~120 files loaded one by one cost
 * another ~150 ms. Every module of the store takes DuckDB from here, so it is loaded once and only
 * by commands that open a store.
 */
function loadDuckDB(): typeof DuckDBApi {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@duckdb/node-api');
  const bundlePath = join(packageRoot(), 'dist', 'vendor', 'duckdb-node-api.cjs');
  if (existsSync(bundlePath)) {
    const bundle = runBundle(bundlePath);
    const installed = JSON.parse(readFileSync(require.resolve('@duckdb/node-api/package.json'), 'utf8')) as { version?: unknown };
    // The package's own require: the native bindings resolve from where the package is installed.
    if (bundle.version === installed.version) return bundle.load(createRequire(entry));
  }
  return require(entry) as typeof DuckDBApi;
}

const duckdb = loadDuckDB();

export const { DuckDBInstance, DuckDBTimestampValue, StatementType } = duckdb;
export type DuckDBInstance = DuckDBApi.DuckDBInstance;
export type DuckDBTimestampValue = DuckDBApi.DuckDBTimestampValue;
export type StatementType = DuckDBApi.StatementType;
export type { DuckDBAppender, DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
