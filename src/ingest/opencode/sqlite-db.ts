import { parseJson } from '../../core/json-depth.js';
import { openSqliteReadOnly, type SqliteHandle } from '../io/sqlite-open.js';

/**
 * Shared access to an `opencode.db`: opened read-only (opencode may be running and writing it),
 * rows as plain records, and the rebuilding of opencode's JSON objects from columns + `data`.
 */
export type Row = Record<string, unknown>;
export type SqliteDatabase = SqliteHandle;

export function openReadOnly(file: string): SqliteDatabase {
  return openSqliteReadOnly(file);
}

function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The rows a query returns, as records. */
export function allRows(db: SqliteDatabase, sql: string, ...params: unknown[]): Row[] {
  return db.prepare(sql).all(...params).filter(isRow);
}

export function oneRow(db: SqliteDatabase, sql: string, ...params: unknown[]): Row | undefined {
  const row: unknown = db.prepare(sql).get(...params);
  return isRow(row) ? row : undefined;
}

export function tableNames(db: SqliteDatabase): Set<string> {
  return new Set(allRows(db, `SELECT name FROM sqlite_master WHERE type = 'table'`).map((row) => String(row['name'])));
}

/** The distinct values of one column of a table, or nothing when the table is absent. */
export function distinctIds(db: SqliteDatabase, tables: ReadonlySet<string>, table: string, column: string): Set<string> {
  if (!tables.has(table)) return new Set();
  return new Set(allRows(db, `SELECT DISTINCT "${column}" AS id FROM "${table}"`).map((row) => String(row['id'])));
}

export function parseData(row: Row): { value: Record<string, unknown> } | { error: string } {
  if (typeof row['data'] !== 'string') return { value: {} };
  try {
    const value: unknown = parseJson(row['data']);
    if (!isRow(value)) return { error: 'data is not a JSON object' };
    return { value };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

const SNAKE_TO_INFO: Record<string, string> = {
  project_id: 'projectID',
  parent_id: 'parentID',
  session_id: 'sessionID',
  message_id: 'messageID',
  workspace_id: 'workspaceID',
  fork_session_id: 'forkSessionID',
  fork_message_id: 'forkMessageID',
  fork_boundary: 'forkBoundary',
  resume_attempts: 'resumeAttempts',
  idle_outcome: 'idleOutcome',
};

/** Columns holding JSON text (a session's model, revert and permission records). */
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
 * `summary_x` into `summary`, `tokens_x` into `tokens`, `share_url` into `share.url`, then the
 * data JSON over them.
 */
export function infoFromRow(row: Row, data: Record<string, unknown>): Record<string, unknown> {
  const info: Record<string, unknown> = {};
  const groups: Record<'time' | 'summary' | 'tokens', Record<string, unknown>> = { time: {}, summary: {}, tokens: {} };
  for (const [column, value] of Object.entries(row)) {
    if (column === 'data' || value === null) continue;
    const group = (['time', 'summary', 'tokens'] as const).find((name) => column.startsWith(`${name}_`));
    if (group) groups[group][column.slice(group.length + 1)] = group === 'summary' ? columnValue(value) : value;
    else if (column === 'share_url') info['share'] = { url: value };
    else info[SNAKE_TO_INFO[column] ?? column] = columnValue(value);
  }
  if (Object.keys(groups.summary).length > 0) info['summary'] = groups.summary;
  if (Object.keys(groups.tokens).length > 0) info['tokens'] = groups.tokens;
  const merged: Record<string, unknown> = { ...info, ...data };
  const dataTime = isRow(data['time']) ? data['time'] : {};
  if (Object.keys(groups.time).length > 0 || data['time']) merged['time'] = { ...groups.time, ...dataTime };
  return merged;
}
