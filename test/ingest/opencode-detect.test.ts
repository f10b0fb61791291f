import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { readFileHead } from '../../src/ingest/io/file-head.js';
import { opencodeAdapter } from '../../src/ingest/opencode/index.js';
import { ingestPaths } from '../helpers/ingest.js';
import { createOpencodeDb, insertV1Session, insertV2Session } from '../helpers/opencode-db.js';
import { AFTER_IMPORT, NATIVE } from '../helpers/opencode-sessions.js';
import { sampleExport } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir();
const HEAD = 64 * 1024;

describe('recognising an opencode.db', () => {
  it('by the tables SQLite lists, when its schema text sits past the first 64 KiB', async () => {
    const file = join(dir, 'old', 'opencode.db');
    // Years of data before the latest migrations: the schema pages land at the end of the file
    // (secure_delete: the split root page keeps no stale copy of the text it moved away).
    const db = createOpencodeDb(file, '2.x', (fresh) => {
      fresh.pragma('secure_delete = ON');
      fresh.exec('CREATE TABLE `kv_cache` (`key` text PRIMARY KEY, `value` blob)');
      const insert = fresh.prepare('INSERT INTO kv_cache VALUES (?, ?)');
      for (let i = 0; i < 64; i++) insert.run(`k${i}`, Buffer.alloc(4096, i));
    });
    insertV2Session(db, NATIVE.session, NATIVE.messages);
    db.close();
    const head = readFileSync(file).subarray(0, HEAD).toString('latin1');
    expect(head.startsWith('SQLite format 3')).toBe(true);
    expect(head).not.toContain('session_v2');
    expect(head).not.toContain('CREATE TABLE');
    const fileHead = await readFileHead(file);
    expect(fileHead.sqliteTables).toEqual(expect.arrayContaining(['session_v2', 'session_message', 'session', 'message', 'part']));
    expect(opencodeAdapter.detect(fileHead)).toBe('opencode-sqlite');
    const summary = await ingestPaths(tempDbPath(dir), [file]);
    expect([summary.errors, summary.sessions, summary.messages]).toEqual([[], 1, NATIVE.messages.length]);
  });

  it('not by its name: a renamed copy is read, and read under --format opencode', async () => {
    const file = join(dir, 'renamed', 'opencode.db');
    const db = createOpencodeDb(file, '1.x');
    insertV1Session(db, AFTER_IMPORT.session, AFTER_IMPORT.messages);
    db.close();
    const renamed = join(dir, 'renamed', 'opencode-2026-09-21.bak');
    copyFileSync(file, renamed);
    for (const format of ['auto', 'opencode'] as const) {
      const summary = await ingestPaths(tempDbPath(dir), [renamed], { format });
      expect([summary.errors, summary.sessions, summary.tool_calls]).toEqual([[], 1, 1]);
    }
  });

  it('a SQLite file of another program is not a transcript, and --format opencode says why', async () => {
    const file = join(dir, 'other.db');
    const db = new Database(file);
    db.exec('CREATE TABLE notes (id integer PRIMARY KEY, body text)');
    db.close();
    const auto = await ingestPaths(tempDbPath(dir), [file]);
    expect(auto.errors.map((e) => e.message)).toEqual([expect.stringMatching(/not a transcript/)]);
    const forced = await ingestPaths(tempDbPath(dir), [file], { format: 'opencode' });
    expect(forced.errors.map((e) => e.message)).toEqual(['cannot read as opencode-sqlite: no opencode session tables in this database (it has: notes)']);
  });
});

describe('--format opencode is honoured', () => {
  it('for an export whose first 64 KiB show neither its session id nor its messages', async () => {
    // A 1.2+ export puts ids last in every object, and a session's summary diffs can be large.
    const doc = sampleExport() as { info: Record<string, unknown>; messages: unknown[] };
    const { id, ...rest } = doc.info;
    const diffs = [{ file: 'serve.sh', before: '', after: '#'.repeat(80 * 1024), additions: 1, deletions: 0 }];
    const reordered = { info: { ...rest, summary: { additions: 1, deletions: 0, files: 1, diffs }, id }, messages: doc.messages };
    const file = join(dir, 'big-summary.json');
    writeFileSync(file, JSON.stringify(reordered, null, 2));
    const auto = await ingestPaths(tempDbPath(dir), [file]);
    expect(auto.errors.map((e) => e.message)).toEqual([expect.stringMatching(/not a transcript/)]);
    const forced = await ingestPaths(tempDbPath(dir), [file], { format: 'opencode' });
    expect(forced.errors).toEqual([]);
    expect([forced.sessions, forced.messages]).toEqual([1, doc.messages.length]);
  });
});
