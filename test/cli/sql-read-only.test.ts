import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { runRetrace, runRetraceJson } from '../helpers/cli.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir('retrace-sql-');
const db = tempDbPath(dir);
const other = join(dir, 'other.duckdb');
const written = join(dir, 'written.csv');
const exported = join(dir, 'exported');
const hosts = join(dir, 'hosts.csv');

/** A digest of every file of the store (the database and any WAL): a changed byte changes it. */
function storeDigest(path: string): string {
  const hash = createHash('sha256');
  const base = path.split('/').pop() ?? '';
  for (const name of readdirSync(dir).filter((n) => n.startsWith(base)).sort()) hash.update(name).update(readFileSync(join(dir, name)));
  return hash.digest('hex');
}

async function otherRows(): Promise<number> {
  const instance = await DuckDBInstance.create(other);
  try {
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll('SELECT count(*)::INTEGER AS n FROM kept');
    connection.closeSync();
    return Number(reader.getRowObjectsJS()[0]?.['n']);
  } finally {
    instance.closeSync();
  }
}

beforeAll(async () => {
  expect((await runRetrace(['ingest', SESSIONS_DIR, '--db', db])).code).toBe(0);
  const instance = await DuckDBInstance.create(other);
  const connection = await instance.connect();
  await connection.run('CREATE TABLE kept AS SELECT * FROM range(3)');
  connection.closeSync();
  instance.closeSync();
  writeFileSync(hosts, 'role,host\nhead,spark-a\nworker,spark-b\n');
}, 60_000);

describe('retrace sql is read-only in every sense (issue 15, point 1)', () => {
  const refused: [string, string][] = [
    ['writing the store itself', `COPY (SELECT 'x') TO '${db}'`],
    ['writing another file', `COPY (SELECT 42) TO '${written}'`],
    ['exporting the database', `EXPORT DATABASE '${exported}'`],
    ['reading /etc/passwd', `SELECT * FROM read_csv('/etc/passwd')`],
    ['reading a file as text', `SELECT content FROM read_text('/etc/passwd')`],
    ['listing folders', `SELECT * FROM glob('/root/*')`],
    ['attaching another store read-write', `ATTACH '${other}' AS o (READ_WRITE)`],
    ['installing an extension', 'INSTALL httpfs'],
    ['loading an extension', 'LOAD httpfs'],
    ['reading a URL', `SELECT * FROM read_parquet('https://127.0.0.1:9/x.parquet')`],
    ['turning profiling on', 'PRAGMA enable_profiling'],
    ['changing a setting', 'SET enable_external_access = true'],
    ['deleting rows', 'DELETE FROM messages'],
    ['a checkpoint', 'CHECKPOINT'],
    ['a second statement after a query', `SELECT 1; COPY (SELECT 1) TO '${written}'`],
    ['EXPLAIN ANALYZE of a write', `EXPLAIN ANALYZE COPY (SELECT 1) TO '${written}'`],
  ];

  for (const [what, query] of refused) {
    it(`refuses ${what} with exit 2 and a clear message, changing nothing`, async () => {
      const before = storeDigest(db);
      const run = await runRetrace(['sql', '--db', db, query]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^retrace: refused: /);
      expect(run.stderr).toMatch(/--allow-files|not a read-only query|one statement at a time/);
      expect(run.stdout).toBe('');
      expect(storeDigest(db)).toBe(before);
      expect(existsSync(written)).toBe(false);
      expect(existsSync(exported)).toBe(false);
      expect(await otherRows()).toBe(3);
    });
  }

  it('answers every read-only statement: SELECT, WITH, FROM, DESCRIBE, SHOW, SUMMARIZE', async () => {
    for (const query of [
      'SELECT count(*) AS n FROM messages',
      'WITH m AS (SELECT * FROM messages) SELECT count(*) AS n FROM m',
      'FROM sessions SELECT id',
      'DESCRIBE tool_calls',
      'SHOW TABLES',
      'SUMMARIZE sessions',
    ]) {
      const run = await runRetraceJson<unknown[]>(['sql', '--db', db, query]);
      expect(run.code, query).toBe(0);
      expect(run.json.length, query).toBeGreaterThan(0);
    }
  });

  it('prints one JSON error document on stdout for a refused statement with --json', async () => {
    const run = await runRetraceJson<{ error: { kind: string; message: string; exit_code: number } }>(['sql', '--db', db, 'PRAGMA enable_profiling']);
    expect(run.code).toBe(2);
    expect(run.json.error).toMatchObject({ kind: 'usage', exit_code: 2, message: expect.stringMatching(/PRAGMA is not a read-only query/) });
  });

  it('reads other files with --allow-files, and still runs only read-only queries', async () => {
    const read = await runRetraceJson<{ role: string; host: string }[]>(['sql', '--db', db, '--allow-files', `SELECT role, host FROM read_csv('${hosts}') ORDER BY role`]);
    expect(read.code).toBe(0);
    expect(read.json).toEqual([{ role: 'head', host: 'spark-a' }, { role: 'worker', host: 'spark-b' }]);
    const write = await runRetrace(['sql', '--db', db, '--allow-files', `COPY (SELECT 1) TO '${written}'`]);
    expect(write.code).toBe(2);
    expect(existsSync(written)).toBe(false);
    const remote = await runRetrace(['sql', '--db', db, '--allow-files', `SELECT * FROM read_parquet('https://127.0.0.1:9/x.parquet')`]);
    expect(remote.code).toBe(1);
    expect(remote.stderr).toMatch(/loads no extension, so it reads no URL/);
  });

  it('stops a runaway query at --timeout, and one past --memory-limit, with exit 1', async () => {
    const slow = await runRetrace(['sql', '--db', db, '--timeout', '1', 'SELECT count(*) FROM range(1000000000000) t(a) WHERE a % 7 = 3']);
    expect(slow.code).toBe(1);
    expect(slow.stderr).toMatch(/query stopped after 1 s \(--timeout 1\)/);
    const greedy = await runRetrace(['sql', '--db', db, '--memory-limit', '64MB', `SELECT max(length(s)) FROM (SELECT string_agg(range::VARCHAR, ',') AS s FROM range(100000000))`]);
    expect(greedy.code).toBe(1);
    expect(greedy.stderr).toMatch(/Out of Memory.*--memory-limit 64MB/s);
  }, 60_000);
});
