import { stat } from 'node:fs/promises';
import BetterSqlite3 from 'better-sqlite3';
import { hashStrings } from '../../core/io/hash.js';
import type { IngestItem } from '../../core/model.js';
import type { Source } from '../../core/source.js';
import { OpencodeSessionBuilder } from './convert.js';
import { parseJson } from '../../core/json-depth.js';

/**
 * opencode ≥ 1.2 keeps sessions in SQLite (`opencode.db`): tables `session`, `message` and `part`,
 * whose `data` column holds the JSON the storage tree kept in files, minus the ids and times that
 * became columns. Opened read-only: opencode may be running and writing it.
 */
type Row = Record<string, unknown>;
type SqliteDatabase = InstanceType<typeof BetterSqlite3>;

function openReadOnly(file: string): SqliteDatabase {
  return new BetterSqlite3(file, { readonly: true, fileMustExist: true });
}

const SNAKE_TO_INFO: Record<string, string> = {
  project_id: 'projectID',
  parent_id: 'parentID',
  session_id: 'sessionID',
  message_id: 'messageID',
  workspace_id: 'workspaceID',
};

function parseData(row: Row): { value: Record<string, unknown> } | { error: string } {
  if (typeof row['data'] !== 'string') return { value: {} };
  try {
    const value = parseJson(row['data']);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'data is not a JSON object' };
    return { value: value as Record<string, unknown> };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** Columns holding JSON text (the session's revert and permission records). */
function columnValue(value: unknown): unknown {
  if (typeof value !== 'string' || !/^[[{]/.test(value)) return value;
  try {
    return parseJson(value);
  } catch {
    return value;
  }
}

/**
 * Rebuilds the JSON object opencode works with from a row: `time_x` columns into `time`,
 * `summary_x` into `summary`, `share_url` into `share.url`, then the data JSON over them.
 */
function infoFromRow(row: Row, data: Record<string, unknown>): Record<string, unknown> {
  const info: Record<string, unknown> = {};
  const time: Record<string, unknown> = {};
  const summary: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (column === 'data' || value === null) continue;
    if (column.startsWith('time_')) time[column.slice(5)] = value;
    else if (column.startsWith('summary_')) summary[column.slice(8)] = columnValue(value);
    else if (column === 'share_url') info['share'] = { url: value };
    else info[SNAKE_TO_INFO[column] ?? column] = columnValue(value);
  }
  if (Object.keys(summary).length > 0) info['summary'] = summary;
  const merged: Record<string, unknown> = { ...info, ...data };
  const dataTime = (data['time'] ?? {}) as Record<string, unknown>;
  if (Object.keys(time).length > 0 || data['time']) merged['time'] = { ...time, ...dataTime };
  return merged;
}

function* readSession(file: string, sessionId: string): Generator<IngestItem> {
  const db = openReadOnly(file);
  try {
    const builder = new OpencodeSessionBuilder(file);
    const sessionRow = db.prepare('SELECT * FROM session WHERE id = ?').get(sessionId) as Row | undefined;
    if (sessionRow) {
      const data = parseData(sessionRow);
      const location = { file, path: `session[id=${sessionId}]` };
      if ('error' in data) yield { kind: 'problem', message: `invalid JSON in data: ${data.error}`, location };
      else yield* builder.setInfo(infoFromRow(sessionRow, data.value), location);
    }
    const partsOf = db.prepare('SELECT * FROM part WHERE message_id = ? ORDER BY id');
    const messages = db.prepare('SELECT * FROM message WHERE session_id = ? ORDER BY time_created, id');
    for (const row of messages.iterate(sessionId) as Iterable<Row>) {
      const messageId = String(row['id']);
      const location = { file, path: `message[id=${messageId}]` };
      const data = parseData(row);
      if ('error' in data) {
        yield { kind: 'problem', message: `invalid JSON in data: ${data.error}`, location };
        continue;
      }
      const parts: unknown[] = [];
      for (const partRow of partsOf.iterate(messageId) as Iterable<Row>) {
        const partData = parseData(partRow);
        if ('error' in partData) {
          yield { kind: 'problem', message: `invalid JSON in data: ${partData.error}`, location: { file, path: `part[id=${String(partRow['id'])}]` } };
          continue;
        }
        parts.push(infoFromRow(partRow, partData.value));
      }
      yield* builder.addMessage({ info: infoFromRow(row, data.value), parts }, location);
    }
    yield* builder.finish();
  } finally {
    db.close();
  }
}

/** Changes when any message or part of the session is added or updated. */
function fingerprintSession(file: string, sessionId: string): string {
  const db = openReadOnly(file);
  try {
    const rows = db
      .prepare(
        `SELECT 'm' AS k, id, time_updated AS t, length(data) AS n FROM message WHERE session_id = ?
         UNION ALL SELECT 'p', id, time_updated, length(data) FROM part WHERE session_id = ?
         UNION ALL SELECT 's', id, time_updated, 0 FROM session WHERE id = ?
         ORDER BY 1, 2`,
      )
      .all(sessionId, sessionId, sessionId) as Row[];
    return hashStrings(rows.map((r) => `${String(r['k'])}${String(r['id'])}:${String(r['t'])}:${String(r['n'])}`));
  } finally {
    db.close();
  }
}

/** Every session in an opencode.db as its own source. */
export async function sqliteSources(file: string): Promise<Source[]> {
  const size = (await stat(file)).size;
  const db = openReadOnly(file);
  let ids: string[];
  try {
    ids = (db.prepare('SELECT id FROM session ORDER BY id').all() as Row[]).map((row) => String(row['id']));
    const orphan = db.prepare('SELECT DISTINCT session_id AS id FROM message WHERE session_id NOT IN (SELECT id FROM session)').all() as Row[];
    ids.push(...orphan.map((row) => String(row['id'])));
  } finally {
    db.close();
  }
  return ids.map((sessionId) => ({
    key: `${file}#${sessionId}`,
    path: file,
    format: 'opencode-sqlite' as const,
    size,
    appendable: false,
    sessionId,
    fingerprint: async () => fingerprintSession(file, sessionId),
    read: () => toAsync(readSession(file, sessionId)),
  }));
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
