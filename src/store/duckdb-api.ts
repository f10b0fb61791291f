import { createRequire } from 'node:module';
import type * as DuckDBApi from '@duckdb/node-api';

/**
 * The DuckDB client, loaded with `require`. It is a CommonJS package: imported from ESM, Node runs
 * its lexer over every file of the package to find the named exports first, which cost ~250 ms of
 * every store command's start-up here (import ~420 ms against require ~170 ms). Every module of
 * the store takes DuckDB from here, so the package is loaded once and only by commands that open
 * a store.
 */
const duckdb = createRequire(import.meta.url)('@duckdb/node-api') as typeof DuckDBApi;

export const { DuckDBInstance, DuckDBTimestampValue, StatementType } = duckdb;
export type DuckDBInstance = DuckDBApi.DuckDBInstance;
export type DuckDBTimestampValue = DuckDBApi.DuckDBTimestampValue;
export type StatementType = DuckDBApi.StatementType;
export type { DuckDBAppender, DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
