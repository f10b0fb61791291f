import { filesStamp } from '../../core/io/file-stamp.js';
import { hashStrings } from '../../core/io/hash.js';
import type { IngestItem, Location } from '../../core/model.js';
import type { Source } from '../../core/source.js';
import { OpencodeSessionBuilder } from './convert.js';
import { allRows, infoFromRow, oneRow, openReadOnly, parseData, tableNames, type Row, type SqliteDatabase } from './sqlite-db.js';
import { infoTables, planGenerations, readGenerationFacts, type SessionPlan } from './sqlite-generations.js';

/**
 * opencode ≥ 1.2 keeps sessions in SQLite (`opencode.db`). 1.x tables `session`, `message` and
 * `part` hold in `data` the JSON the storage tree kept in files, minus the ids and times that
 * became columns; 2.x writes `session_v2` and `session_message` beside them. Each session is read
 * from the generation sqlite-generations.ts picks for it.
 */

/** The session's own row, from the table its generation prefers, else the other one. */
function readInfo(db: SqliteDatabase, tables: ReadonlySet<string>, file: string, plan: SessionPlan, builder: OpencodeSessionBuilder): IngestItem[] {
  for (const table of infoTables(plan.generation)) {
    if (!tables.has(table)) continue;
    const row = oneRow(db, `SELECT * FROM "${table}" WHERE id = ?`, plan.sessionId);
    if (!row) continue;
    const data = parseData(row);
    const location = { file, path: `${table}[id=${plan.sessionId}]` };
    if ('error' in data) return [{ kind: 'problem', message: `invalid JSON in data: ${data.error}`, location }];
    return builder.setInfo(infoFromRow(row, data.value), location);
  }
  return [];
}

function* readV1Messages(db: SqliteDatabase, tables: ReadonlySet<string>, file: string, sessionId: string, builder: OpencodeSessionBuilder): Generator<IngestItem> {
  const partsOf = tables.has('part') ? db.prepare('SELECT * FROM part WHERE message_id = ? ORDER BY id') : null;
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
    for (const partRow of (partsOf?.iterate(messageId) ?? []) as Iterable<Row>) {
      const partData = parseData(partRow);
      if ('error' in partData) {
        yield { kind: 'problem', message: `invalid JSON in data: ${partData.error}`, location: { file, path: `part[id=${String(partRow['id'])}]` } };
        continue;
      }
      parts.push(infoFromRow(partRow, partData.value));
    }
    yield* builder.addMessage({ info: infoFromRow(row, data.value), parts }, location);
  }
}

/** 2.x rows in the order opencode replays them: `seq` (null in 1.x projections, so last), then time. */
function* readV2Messages(db: SqliteDatabase, file: string, sessionId: string, builder: OpencodeSessionBuilder): Generator<IngestItem> {
  const messages = db.prepare(
    `SELECT id, session_id, type, seq, time_created, data FROM session_message
     WHERE session_id = ? ORDER BY seq IS NULL, seq, time_created, id`,
  );
  for (const row of messages.iterate(sessionId) as Iterable<Row>) {
    const id = String(row['id']);
    const location: Location = { file, path: `session_message[id=${id}]` };
    const data = parseData(row);
    if ('error' in data) {
      yield { kind: 'problem', message: `invalid JSON in data: ${data.error}`, location };
      continue;
    }
    const type = typeof row['type'] === 'string' && row['type'] ? row['type'] : String(data.value['type'] ?? 'unknown');
    const seq = typeof row['seq'] === 'number' ? row['seq'] : null;
    const created = typeof row['time_created'] === 'number' ? row['time_created'] : null;
    yield* builder.addV2Message({ id, sessionId, type, seq, timeCreated: created, data: data.value }, location);
  }
}

function* readSession(file: string, plan: SessionPlan): Generator<IngestItem> {
  const db = openReadOnly(file);
  try {
    const tables = tableNames(db);
    const builder = new OpencodeSessionBuilder(file);
    yield* readInfo(db, tables, file, plan, builder);
    if (plan.generation === 'v2') yield* readV2Messages(db, file, plan.sessionId, builder);
    else if (tables.has('message')) yield* readV1Messages(db, tables, file, plan.sessionId, builder);
    builder.assumeSession(plan.sessionId);
    yield* builder.finish();
  } finally {
    db.close();
  }
}

/**
 * Changes when any row the session is read from is added or updated: opencode rewrites rows in
 * place (`time_updated`), so new rows alone would miss an edited message or a finished tool.
 */
function fingerprintSession(file: string, plan: SessionPlan): string {
  const db = openReadOnly(file);
  try {
    const tables = tableNames(db);
    const queries: string[] = [];
    for (const table of ['session', 'session_v2']) {
      if (tables.has(table)) queries.push(`SELECT '${table}' AS k, id, time_updated AS t, 0 AS n FROM "${table}" WHERE id = @session`);
    }
    if (plan.generation === 'v2') {
      queries.push(`SELECT 'sm', id, time_updated, length(data) FROM session_message WHERE session_id = @session`);
    } else {
      if (tables.has('message')) queries.push(`SELECT 'm', id, time_updated, length(data) FROM message WHERE session_id = @session`);
      if (tables.has('part')) queries.push(`SELECT 'p', id, time_updated, length(data) FROM part WHERE session_id = @session`);
    }
    const rows = queries.length > 0 ? allRows(db, `${queries.join(' UNION ALL ')} ORDER BY 1, 2`, { session: plan.sessionId }) : [];
    return hashStrings([plan.generation, ...rows.map((r) => `${String(r['k'])}${String(r['id'])}:${String(r['t'])}:${String(r['n'])}`)]);
  } finally {
    db.close();
  }
}

const SESSION_TABLES = ['session', 'session_v2', 'message', 'session_message'];

/**
 * The bytes of JSON each session's rows hold, per generation: a session's size, so that one
 * session written to leaves the others' size (and so their skip on re-ingest) untouched.
 */
function sessionSizes(db: SqliteDatabase, tables: ReadonlySet<string>): Record<'v1' | 'v2', Map<string, number>> {
  const sum = (table: string): Map<string, number> =>
    new Map(
      tables.has(table)
        ? allRows(db, `SELECT session_id AS id, sum(length(data)) AS n FROM "${table}" GROUP BY session_id`).map((r) => [String(r['id']), Number(r['n'] ?? 0)])
        : [],
    );
  const v1 = sum('message');
  for (const [id, n] of sum('part')) v1.set(id, (v1.get(id) ?? 0) + n);
  return { v1, v2: sum('session_message') };
}

/** Every session in an opencode.db as its own source, each once whichever tables hold it. */
export async function sqliteSources(file: string): Promise<Source[]> {
  // Taken before the file is opened: a write while it is read leaves an older stamp, never a newer one.
  const stamp = await filesStamp([file, `${file}-wal`]);
  const db = openReadOnly(file);
  let plans: SessionPlan[];
  let sizes: Record<'v1' | 'v2', Map<string, number>>;
  try {
    const tables = tableNames(db);
    if (!SESSION_TABLES.some((table) => tables.has(table))) {
      throw new Error(`no opencode session tables in this database (it has: ${[...tables].sort().join(', ') || 'no tables'})`);
    }
    plans = planGenerations(readGenerationFacts(db));
    sizes = sessionSizes(db, tables);
  } finally {
    db.close();
  }
  return plans.map((plan) => ({
    key: `${file}#${plan.sessionId}`,
    path: file,
    format: 'opencode-sqlite' as const,
    size: sizes[plan.generation].get(plan.sessionId) ?? 0,
    // The whole database's stamp: any write to it makes every session prove itself by its rows.
    stamp,
    appendable: false,
    sessionId: plan.sessionId,
    fingerprint: async () => fingerprintSession(file, plan),
    read: () => toAsync(readSession(file, plan)),
  }));
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
