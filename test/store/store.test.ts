import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/store/database.js';
import { LATEST_SCHEMA_VERSION, migrate, type Migration } from '../../src/store/migrations.js';
import { SourceWriter } from '../../src/store/source-writer.js';
import { emptyMessage, type MessageRecord, type SessionRecord } from '../../src/core/model.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { REPO_ROOT } from '../helpers/cli.js';

const dir = tempDir();

const session: SessionRecord = {
  id: 'ses_a', agent: 'opencode', parentId: null, title: 'a session', directory: '/w', startedAt: 1_000, endedAt: 2_000, model: 'm', extra: null,
};

function message(id: string, createdAt: number, text = id): MessageRecord {
  return { ...emptyMessage('ses_a', id, 'assistant'), createdAt, completedAt: createdAt + 10, text };
}

const STATE = { key: 'k', path: '/x.json', format: 'opencode-export', size: 1, contentHash: 'h', bytesConsumed: null, linesConsumed: null, prefixHash: null };

async function write(db: Database, messages: MessageRecord[], key = 'k') {
  const writer = await SourceWriter.begin(db, key, 'replace');
  writer.addSession(session);
  for (const m of messages) await writer.addMessage(m, []);
  return writer.commit({ ...STATE, key }, 0);
}

describe('Database', () => {
  it('creates the schema at the latest version and reopens without migrating again', async () => {
    const path = tempDbPath(dir);
    const db = await Database.open(path);
    expect(await db.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    db.close();
    const again = await Database.open(path, { readOnly: true });
    expect(await again.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    again.close();
  });

  it('applies a new migration once, and rolls a failing one back whole', async () => {
    const db = await Database.open(tempDbPath(dir));
    try {
      const extra: Migration = { version: LATEST_SCHEMA_VERSION + 1, description: 'test', statements: ['CREATE TABLE t_new (x INTEGER)'] };
      await migrate(db, [extra]);
      expect(await db.schemaVersion()).toBe(LATEST_SCHEMA_VERSION + 1);
      const broken: Migration = { version: LATEST_SCHEMA_VERSION + 2, description: 'broken', statements: ['CREATE TABLE t_half (x INTEGER)', 'NOT SQL'] };
      await expect(migrate(db, [extra, broken])).rejects.toThrow(/migrating .* to schema \d+ \(broken\) failed/);
      expect(await db.schemaVersion()).toBe(LATEST_SCHEMA_VERSION + 1);
      expect(await db.all(`SELECT * FROM information_schema.tables WHERE table_name = 't_half'`)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('refuses a store newer than this retrace', async () => {
    const path = tempDbPath(dir);
    const db = await Database.open(path);
    await db.run(`UPDATE retrace_meta SET value = '999' WHERE key = 'schema_version'`);
    db.close();
    await expect(Database.open(path)).rejects.toThrow(/schema version 999, newer than this retrace/);
  });

  it('says clearly when the file is missing or is not a store', async () => {
    await expect(Database.open(join(dir, 'absent.duckdb'), { readOnly: true })).rejects.toThrow(/no store at .*absent\.duckdb/);
    const junk = join(dir, 'junk.duckdb');
    writeFileSync(junk, 'this is not a database at all, just text'.repeat(200));
    await expect(Database.open(junk)).rejects.toThrow(/not a retrace store|could not open/);
  });

  it('waits a moment for a lock to go: a reader that lets go in time is no failure', async () => {
    const path = tempDbPath(dir);
    (await Database.open(path)).close();
    const holder = spawn(process.execPath, ['--input-type=module', '-e',
      `import { DuckDBInstance } from '@duckdb/node-api';
       const i = await DuckDBInstance.create(${JSON.stringify(path)}); const c = await i.connect();
       process.stdout.write('ready\\n'); setTimeout(() => { c.closeSync(); i.closeSync(); process.exit(0); }, 500);`], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve()));
    const db = await Database.open(path, { lockWaitMs: 8_000 });
    db.close();
  }, 20_000);

  it('names the process holding the lock when another one has the store open', async () => {
    const path = tempDbPath(dir);
    (await Database.open(path)).close();
    const holder = spawn(process.execPath, ['--input-type=module', '-e',
      `import { DuckDBInstance } from '@duckdb/node-api';
       const i = await DuckDBInstance.create(${JSON.stringify(path)}); await i.connect();
       process.stdout.write('ready\\n'); setTimeout(() => {}, 20000);`], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
        holder.on('exit', (code) => reject(new Error(`holder exited ${code}`)));
      });
      // The holder's command line, not just the executable (every retrace process is `node`).
      await expect(Database.open(path, { lockWaitMs: 0 })).rejects.toThrow(new RegExp(`locked by another process: .*--input-type=module.*\\(PID ${holder.pid}\\)`));
    } finally {
      holder.kill('SIGKILL');
    }
  });
});

describe('SourceWriter', () => {
  it('is idempotent: writing the same source again adds no rows', async () => {
    const db = await Database.open(tempDbPath(dir));
    try {
      const first = await write(db, [message('msg_1', 1_000), message('msg_2', 2_000)]);
      expect(first).toMatchObject({ sessionsAdded: 1, messagesAdded: 2 });
      const second = await write(db, [message('msg_1', 1_000), message('msg_2', 2_000)]);
      expect(second).toMatchObject({ sessionsAdded: 0, messagesAdded: 0, messagesUpdated: 0 });
      expect(await db.scalar('SELECT count(*) FROM messages')).toBe(2);
    } finally {
      db.close();
    }
  });

  it('adds only the new messages of a session that grew, continuing the ordinals, and updates changed ones', async () => {
    const db = await Database.open(tempDbPath(dir));
    try {
      await write(db, [message('msg_1', 1_000), message('msg_2', 2_000, 'in progress')]);
      const grown = await write(db, [message('msg_1', 1_000), message('msg_2', 2_000, 'finished'), message('msg_3', 3_000)]);
      expect(grown).toMatchObject({ messagesAdded: 1, messagesUpdated: 1 });
      expect(await db.all('SELECT id, ordinal, text FROM messages ORDER BY ordinal')).toEqual([
        { id: 'msg_1', ordinal: 1, text: 'msg_1' },
        { id: 'msg_2', ordinal: 2, text: 'finished' },
        { id: 'msg_3', ordinal: 3, text: 'msg_3' },
      ]);
      expect(await db.one('SELECT message_count, ended_at FROM sessions')).toEqual({ message_count: 3, ended_at: '1970-01-01T00:00:03.010Z' });
    } finally {
      db.close();
    }
  });

  it('replaces the unknown records and problems of re-read lines when a grown file is read again from a line', async () => {
    const db = await Database.open(tempDbPath(dir));
    try {
      const location = (line: number) => ({ file: '/x.jsonl', line });
      const first = await SourceWriter.begin(db, 'k', 'replace');
      first.addUnknown({ kind: 'unknown', sessionId: 'ses_a', what: 'line:progress', raw: '{}', location: location(2) });
      first.addUnknown({ kind: 'unknown', sessionId: 'ses_a', what: 'line:progress', raw: '{}', location: location(7) });
      first.addProblem({ kind: 'problem', message: 'incomplete last line', location: location(9) });
      await first.commit(STATE, 0);
      const again = await SourceWriter.begin(db, 'k', { append: { fromLine: 5 } });
      again.addUnknown({ kind: 'unknown', sessionId: 'ses_a', what: 'line:progress', raw: '{}', location: location(7) });
      await again.commit(STATE, 0);
      expect(await db.all('SELECT line FROM unknown_records ORDER BY line')).toEqual([{ line: 2 }, { line: 7 }]);
      expect(await db.scalar('SELECT count(*) FROM ingest_problems')).toBe(0);
    } finally {
      db.close();
    }
  });

  it('leaves nothing of a source that was rolled back', async () => {
    const db = await Database.open(tempDbPath(dir));
    try {
      const writer = await SourceWriter.begin(db, 'k', 'replace');
      writer.addSession(session);
      await writer.addMessage(message('msg_1', 1_000), []);
      await writer.rollback();
      expect(await db.scalar('SELECT count(*) FROM messages')).toBe(0);
      expect(await db.scalar('SELECT count(*) FROM sessions')).toBe(0);
      expect(await db.scalar('SELECT count(*) FROM sources')).toBe(0);
    } finally {
      db.close();
    }
  });
});
