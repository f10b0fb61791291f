/**
 * Builds `opencode.db` files from opencode's real DDL (opencode-db-ddl.ts) and fills them the way
 * opencode does: 1.x rows with ids and times in columns and the rest of the object in `data`
 * (minus `id`, `sessionID`, `messageID`), 2.x `session_message` rows with `id` and `type` as
 * columns (v1-transform's `row()` strips them from `data`) and `seq` counting from 0 per session.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { V1_SESSION_MESSAGE_PROJECTION, V1_TABLES, V2_LATER_COLUMNS, V2_SPLIT } from './opencode-db-ddl.js';

export type SqliteDb = InstanceType<typeof Database>;
type Json = Record<string, unknown>;

export interface DbSession {
  id: string;
  title: string;
  version: string;
  directory: string;
  created: number;
  updated: number;
  parentID?: string;
  agent?: string;
  model?: { id: string; providerID: string; variant?: string };
}

export interface V1Message {
  info: Json & { id: string; role: string; time: { created: number; completed?: number } };
  parts: (Json & { id: string; type: string })[];
}

export interface V2Message {
  id: string;
  type: string;
  data: Json & { time?: { created?: number; completed?: number } };
}

const PROJECT = 'a3f1c0de9b7e4d2c8f6a5b4c3d2e1f0a9b8c7d6e';

/** A new database at a 1.x or 2.x schema; 2.x is 1.x with the split migration run over it. */
export function createOpencodeDb(file: string, generation: '1.x' | '2.x', filler?: (db: SqliteDb) => void): SqliteDb {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  filler?.(db);
  db.exec(V1_TABLES);
  db.exec(V1_SESSION_MESSAGE_PROJECTION);
  if (generation === '2.x') {
    db.exec(V2_SPLIT);
    db.exec(V2_LATER_COLUMNS);
  }
  db.prepare(
    `INSERT INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES (?, ?, 'git', ?, ?, '[]')`,
  ).run(PROJECT, '/home/ops/spark-deploy', 1788000000000, 1788000000000);
  return db;
}

/** opencode's ids: prefix, 12 hex of `ms * 0x1000 + n` (so they sort by time), 14 base62 chars. */
export function opencodeId(prefix: string, ms: number, n: number): string {
  const value = (BigInt(ms) * 0x1000n + BigInt(n)) & 0xffffffffffffn;
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let seed = BigInt(ms) * 7919n + BigInt(n) * 104729n;
  let tail = '';
  while (tail.length < 14) {
    tail += alphabet[Number(seed % 62n)];
    seed = seed / 62n + 3n * BigInt(tail.length);
  }
  return `${prefix}_${value.toString(16).padStart(12, '0')}${tail}`;
}

function without(object: Json, keys: readonly string[]): Json {
  return Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));
}

function sessionColumns(session: DbSession): unknown[] {
  return [
    session.id, PROJECT, session.parentID ?? null, session.id.slice(4, 16).toLowerCase(), session.directory, session.title,
    session.version, session.agent ?? null, session.model ? JSON.stringify(session.model) : null, session.created, session.updated,
  ];
}

/** A session as 1.x writes it: `session`, `message`, `part` (and, like late 1.x, the projection off). */
export function insertV1Session(db: SqliteDb, session: DbSession, messages: readonly V1Message[]): void {
  db.prepare(
    `INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, agent, model, time_created, time_updated)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(...sessionColumns(session));
  const message = db.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)');
  const part = db.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const { info, parts } of messages) {
      const done = info.time.completed ?? info.time.created;
      message.run(info.id, session.id, info.time.created, done, JSON.stringify(without(info, ['id', 'sessionID'])));
      for (const p of parts) part.run(p.id, info.id, session.id, info.time.created, done, JSON.stringify(without(p, ['id', 'sessionID', 'messageID'])));
    }
  })();
}

/** A session as 2.x writes it: `session_v2` and `session_message` rows in `seq` order. */
export function insertV2Session(db: SqliteDb, session: DbSession, messages: readonly V2Message[]): void {
  db.prepare(
    `INSERT INTO session_v2 (id, project_id, parent_id, slug, directory, title, version, agent, model, time_created, time_updated)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(...sessionColumns(session));
  const insert = db.prepare(
    'INSERT INTO session_message (id, session_id, type, seq, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    messages.forEach((message, seq) => {
      const created = message.data.time?.created ?? session.created;
      insert.run(message.id, session.id, message.type, seq, created, message.data.time?.completed ?? created, JSON.stringify(message.data));
    });
  })();
}

/** What 2.x's one-shot importer leaves behind once it has run (`kv['migration.v1-v2']`). */
export function markImported(db: SqliteDb, at: number): void {
  db.prepare('INSERT INTO kv (key, value, time_created, time_updated) VALUES (?, ?, ?, ?)').run(
    'migration.v1-v2', JSON.stringify({ phase: 'completed' }), at, at,
  );
}

/** opencode rewrites a row in place as a step streams: new `data`, new `time_updated`. */
export function rewriteV2Message(db: SqliteDb, id: string, data: Json, at: number): void {
  const changed = db.prepare('UPDATE session_message SET data = ?, time_updated = ? WHERE id = ?').run(JSON.stringify(data), at, id);
  if (changed.changes !== 1) throw new Error(`no session_message ${id} to rewrite`);
}

export function appendV2Message(db: SqliteDb, sessionId: string, message: V2Message): void {
  const row: unknown = db.prepare('SELECT coalesce(max(seq), -1) + 1 AS seq FROM session_message WHERE session_id = ?').get(sessionId);
  const seq = typeof row === 'object' && row !== null ? Number(Reflect.get(row, 'seq')) : 0;
  const created = message.data.time?.created ?? 0;
  db.prepare('INSERT INTO session_message (id, session_id, type, seq, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    message.id, sessionId, message.type, seq, created, message.data.time?.completed ?? created, JSON.stringify(message.data),
  );
  db.prepare('UPDATE session_v2 SET time_updated = ? WHERE id = ?').run(message.data.time?.completed ?? created, sessionId);
}
