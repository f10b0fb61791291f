import { rmSync } from 'node:fs';
import { DuckDBInstance, version } from '@duckdb/node-api';
import { emitResult } from '../lib/child.js';

/**
 * `node duckdb-child.js FORMAT DB ROOT`: DuckDB's own JSON loader reading the same bytes into
 * tables of an on-disk database, the baseline retrace is measured against. JSONL goes through
 * `read_ndjson`, an export document through `read_json(format='unstructured')`, a storage tree
 * through `read_json` over its globs (one table per kind of file).
 */
export interface DuckdbLoadResult {
  ms: number;
  rows: number;
  method: string;
  duckdbVersion: string;
}

const [format, dbPath, root] = process.argv.slice(2);
if (!format || !dbPath || !root) throw new Error('usage: duckdb-child.js FORMAT DB ROOT');
rmSync(dbPath, { force: true });
rmSync(`${dbPath}.wal`, { force: true });

const quote = (path: string): string => `'${path.replace(/'/g, "''")}'`;
/** Fewer, larger buffers: DuckDB's multi-file JSON scan runs out of memory on tens of thousands of small files otherwise. */
const OBJECT_LIMIT = 'maximum_object_size=1073741824';

function statements(kind: string, dir: string): { table: string; sql: string; fallback?: string }[] {
  if (kind === 'claude' || kind === 'codex') {
    return [{ table: 'lines', sql: `SELECT * FROM read_ndjson(${quote(`${dir}/**/*.jsonl`)}, union_by_name=true, ${OBJECT_LIMIT})` }];
  }
  if (kind === 'opencode-export') {
    return [{ table: 'exports', sql: `SELECT * FROM read_json(${quote(`${dir}/*.json`)}, format='unstructured', union_by_name=true, ${OBJECT_LIMIT})` }];
  }
  // A storage tree: one object per file, tens of thousands of files.
  return ['session/*/*.json', 'message/*/*.json', 'part/*/*.json'].map((glob) => {
    const files = quote(`${dir}/storage/${glob}`);
    return {
      table: glob.split('/')[0] ?? 'files',
      sql: `SELECT * FROM read_json(${files}, union_by_name=true, maximum_object_size=16777216)`,
      fallback: `SELECT * FROM read_json_objects(${files})`,
    };
  });
}

const instance = await DuckDBInstance.create(dbPath, { preserve_insertion_order: 'false' });
const connection = await instance.connect();
const methods: string[] = [];
let rows = 0;
const started = performance.now();
try {
  for (const { table, sql, fallback } of statements(format, root)) {
    try {
      await connection.run(`CREATE TABLE ${table} AS ${sql}`);
      methods.push(`${table}: ${sql.includes('read_ndjson') ? 'read_ndjson' : 'read_json'}`);
    } catch (error) {
      if (!fallback) throw error;
      // read_json with schema detection gives up on some trees (out of memory): load the objects as JSON values.
      await connection.run(`DROP TABLE IF EXISTS ${table}`);
      await connection.run(`CREATE TABLE ${table} AS ${fallback}`);
      methods.push(`${table}: read_json_objects (read_json failed: ${String(error).split('\n')[0]?.slice(0, 80)})`);
    }
    const counted = await connection.runAndReadAll(`SELECT count(*) AS n FROM ${table}`);
    rows += Number(counted.getRows()[0]?.[0] ?? 0);
  }
  await connection.run('CHECKPOINT');
} finally {
  connection.closeSync();
  instance.closeSync();
}
emitResult({ ms: performance.now() - started, rows, method: methods.join('; '), duckdbVersion: version() } satisfies DuckdbLoadResult);
