import { writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/store/database.js';
import { LATEST_SCHEMA_VERSION, migrate, type Migration } from '../../src/store/migrations.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir('retrace-open-');

async function duckdbFile(statements: readonly string[]): Promise<string> {
  const path = tempDbPath(dir);
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  for (const statement of statements) await connection.run(statement);
  connection.closeSync();
  instance.closeSync();
  return path;
}

async function readsAsStore(path: string): Promise<void> {
  const db = await Database.open(path, { readOnly: true });
  try {
    expect(await db.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    expect(await db.scalar('SELECT count(*) FROM tool_calls')).toBe(0);
  } finally {
    db.close();
  }
}

describe('a store whose creation was interrupted still reads (issue 15, point 6)', () => {
  it('an empty file (killed before DuckDB wrote its header)', async () => {
    const path = tempDbPath(dir);
    writeFileSync(path, '');
    await readsAsStore(path);
  });

  it('a DuckDB file with no table yet (killed before the schema)', async () => {
    await readsAsStore(await duckdbFile([]));
  });

  it('a file with retrace_meta and nothing else (what a kill between the two steps of older versions left)', async () => {
    await readsAsStore(await duckdbFile(['CREATE TABLE retrace_meta (key VARCHAR PRIMARY KEY, value VARCHAR)']));
  });

  it('creates retrace_meta in the same transaction as the tables: a failed first migration leaves none of it', async () => {
    const db = await Database.open(':memory:');
    try {
      await db.run('DROP TABLE retrace_meta');
      const broken: Migration = { version: 1, description: 'broken', statements: ['CREATE TABLE half (x INTEGER)', 'NOT SQL'] };
      await expect(migrate(db, [broken])).rejects.toThrow(/migrating .* to schema 1 \(broken\) failed/);
      expect(await db.all(`SELECT table_name FROM information_schema.tables WHERE table_name IN ('retrace_meta', 'half')`)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('still refuses a DuckDB file that is some other database', async () => {
    const path = await duckdbFile(['CREATE TABLE invoices (id INTEGER)']);
    await expect(Database.open(path, { readOnly: true })).rejects.toThrow(/not a retrace store \(no retrace_meta table\)/);
  });
});
