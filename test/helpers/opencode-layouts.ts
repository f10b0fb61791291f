/**
 * Writes an `opencode export` document back into the two on-disk layouts opencode itself uses,
 * so adapter tests read real shapes instead of mocks (see docs/formats/opencode.md):
 * - v1.1.x and earlier: a JSON file tree under `<root>/storage/`
 * - v1.2.0 and later: one SQLite database, `opencode.db`, with JSON `data` columns
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';

type JsonObject = { [key: string]: unknown };

export interface ExportSessionInfo extends JsonObject {
  id: string;
  projectID: string;
  directory: string;
  title: string;
  version: string;
  time: { created: number; updated: number };
}
export interface ExportMessageInfo extends JsonObject {
  id: string;
  sessionID: string;
  role: string;
  time: { created: number; completed?: number };
}
export interface ExportPart extends JsonObject {
  id: string;
  sessionID: string;
  messageID: string;
  type: string;
}
export interface OpencodeExport {
  info: ExportSessionInfo;
  messages: { info: ExportMessageInfo; parts: ExportPart[] }[];
}

export interface LayoutCounts {
  sessions: number;
  messages: number;
  parts: number;
}

/** Storage.write in v1.1 is `JSON.stringify(content, null, 2)` into `<key joined by />.json`. */
function writeJson(file: string, content: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(content, null, 2));
}

/** v1.1 files hold the objects as opencode built them: ids first (schema order), not last as a v1.2 export has them. */
function idsFirst<T extends JsonObject>(object: T, keys: readonly string[]): JsonObject {
  const head: JsonObject = {};
  for (const key of keys) if (key in object) head[key] = object[key];
  const rest = Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));
  return { ...head, ...rest };
}

function projectOf(doc: OpencodeExport): JsonObject {
  return {
    id: doc.info.projectID,
    worktree: doc.info.directory,
    vcs: 'git',
    sandboxes: [],
    time: { created: doc.info.time.created, updated: doc.info.time.updated },
  };
}

/**
 * The v1.1 tree: project/<projectID>.json, session/<projectID>/<ses>.json,
 * message/<ses>/<msg>.json, part/<msg>/<prt>.json; every file carries its own ids as well.
 */
export function writeStorageTree(doc: OpencodeExport, rootDir: string): LayoutCounts {
  const storage = join(rootDir, 'storage');
  const session = doc.info;
  // opencode's migration to SQLite drops sessions whose project file is missing, so write it too.
  writeJson(join(storage, 'project', `${session.projectID}.json`), projectOf(doc));
  writeJson(join(storage, 'session', session.projectID, `${session.id}.json`), idsFirst(session, ['id']));
  let parts = 0;
  for (const message of doc.messages) {
    writeJson(join(storage, 'message', session.id, `${message.info.id}.json`), idsFirst(message.info, ['id', 'sessionID']));
    for (const part of message.parts) {
      writeJson(join(storage, 'part', message.info.id, `${part.id}.json`), idsFirst(part, ['id', 'sessionID', 'messageID']));
      parts++;
    }
  }
  return { sessions: 1, messages: doc.messages.length, parts };
}

/**
 * Tables as opencode v1.2.0's first migration creates them (project, session, message, part,
 * todo, permission, session_share). Later releases only add columns, so readers must select by name.
 */
const SCHEMA = `
CREATE TABLE project (
  id text PRIMARY KEY,
  worktree text NOT NULL,
  vcs text,
  name text,
  icon_url text,
  icon_color text,
  time_created integer NOT NULL,
  time_updated integer NOT NULL,
  time_initialized integer,
  sandboxes text NOT NULL
);
CREATE TABLE session (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES project(id) ON DELETE CASCADE,
  parent_id text,
  slug text NOT NULL,
  directory text NOT NULL,
  title text NOT NULL,
  version text NOT NULL,
  share_url text,
  summary_additions integer,
  summary_deletions integer,
  summary_files integer,
  summary_diffs text,
  revert text,
  permission text,
  time_created integer NOT NULL,
  time_updated integer NOT NULL,
  time_compacting integer,
  time_archived integer
);
CREATE TABLE message (
  id text PRIMARY KEY,
  session_id text NOT NULL REFERENCES session(id) ON DELETE CASCADE,
  time_created integer NOT NULL,
  time_updated integer NOT NULL,
  data text NOT NULL
);
CREATE TABLE part (
  id text PRIMARY KEY,
  message_id text NOT NULL REFERENCES message(id) ON DELETE CASCADE,
  session_id text NOT NULL,
  time_created integer NOT NULL,
  time_updated integer NOT NULL,
  data text NOT NULL
);
CREATE TABLE todo (
  session_id text NOT NULL REFERENCES session(id) ON DELETE CASCADE,
  content text NOT NULL,
  status text NOT NULL,
  priority text NOT NULL,
  position integer NOT NULL,
  time_created integer NOT NULL,
  time_updated integer NOT NULL,
  PRIMARY KEY (session_id, position)
);
CREATE TABLE permission (
  project_id text PRIMARY KEY REFERENCES project(id) ON DELETE CASCADE,
  time_created integer NOT NULL,
  time_updated integer NOT NULL,
  data text NOT NULL
);
CREATE TABLE session_share (
  session_id text PRIMARY KEY REFERENCES session(id) ON DELETE CASCADE,
  id text NOT NULL,
  secret text NOT NULL,
  url text NOT NULL,
  time_created integer NOT NULL,
  time_updated integer NOT NULL
);
CREATE INDEX message_session_idx ON message (session_id);
CREATE INDEX part_message_idx ON part (message_id);
CREATE INDEX part_session_idx ON part (session_id);
CREATE INDEX session_project_idx ON session (project_id);
CREATE INDEX session_parent_idx ON session (parent_id);
CREATE INDEX todo_session_idx ON todo (session_id);
`;

function without(object: JsonObject, keys: readonly string[]): JsonObject {
  return Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));
}

/** Reads a nested value from parsed JSON without casting: undefined when any step is missing. */
function valueAt(value: unknown, ...path: string[]): unknown {
  let current: unknown = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !(key in current)) return undefined;
    current = Reflect.get(current, key);
  }
  return current;
}
const numberAt = (value: unknown, ...path: string[]): number | null => {
  const found = valueAt(value, ...path);
  return typeof found === 'number' ? found : null;
};
const stringAt = (value: unknown, ...path: string[]): string | null => {
  const found = valueAt(value, ...path);
  return typeof found === 'string' ? found : null;
};

/**
 * opencode stamps part rows with the wall clock of their first insert and last update; the export
 * keeps no such stamps, so they are rebuilt from the part's own times, else its message's.
 */
function partRowTimes(part: ExportPart, message: ExportMessageInfo): { created: number; updated: number } {
  const messageStart = message.time.created;
  const messageEnd = message.time.completed ?? messageStart;
  if (part.type === 'step-finish') return { created: messageEnd, updated: messageEnd };
  const time = part.type === 'tool' ? valueAt(part, 'state', 'time') : part.time;
  const start = numberAt(time, 'start');
  const end = numberAt(time, 'end');
  return { created: start ?? messageStart, updated: end ?? start ?? messageStart };
}

/** A v1.2 `opencode.db`: ids and times in columns, everything else as JSON text in `data`. */
export function writeOpencodeDb(doc: OpencodeExport, dbPath: string): LayoutCounts {
  mkdirSync(dirname(dbPath), { recursive: true });
  const db = new Database(dbPath);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(SCHEMA);
    const session = doc.info;
    const insertProject = db.prepare(
      'INSERT INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const insertSession = db.prepare(
      `INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, share_url,
        summary_additions, summary_deletions, summary_files, summary_diffs, revert, permission,
        time_created, time_updated, time_compacting, time_archived)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertMessage = db.prepare(
      'INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)',
    );
    const insertPart = db.prepare(
      'INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const json = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));
    let parts = 0;
    db.transaction(() => {
      insertProject.run(session.projectID, session.directory, 'git', session.time.created, session.time.updated, '[]');
      insertSession.run(
        session.id,
        session.projectID,
        stringAt(session, 'parentID'),
        stringAt(session, 'slug') ?? '',
        session.directory,
        session.title,
        session.version,
        stringAt(session, 'share', 'url'),
        numberAt(session, 'summary', 'additions'),
        numberAt(session, 'summary', 'deletions'),
        numberAt(session, 'summary', 'files'),
        json(valueAt(session, 'summary', 'diffs')),
        json(session.revert),
        json(session.permission),
        session.time.created,
        session.time.updated,
        numberAt(session, 'time', 'compacting'),
        numberAt(session, 'time', 'archived'),
      );
      for (const message of doc.messages) {
        const info = message.info;
        insertMessage.run(
          info.id,
          session.id,
          info.time.created,
          info.time.completed ?? info.time.created,
          JSON.stringify(without(info, ['id', 'sessionID'])),
        );
        for (const part of message.parts) {
          const times = partRowTimes(part, info);
          insertPart.run(
            part.id,
            info.id,
            session.id,
            times.created,
            times.updated,
            JSON.stringify(without(part, ['id', 'sessionID', 'messageID'])),
          );
          parts++;
        }
      }
    })();
    return { sessions: 1, messages: doc.messages.length, parts };
  } finally {
    db.close();
  }
}
