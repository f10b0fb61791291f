import { DuckDBTimestampValue, type DuckDBAppender } from './duckdb-api.js';
import type { Database } from './database.js';

/**
 * Writes a session's derived rows (commands, actions, candidates, pivots, trees). The query layer
 * hands over plain rows keyed by column name; this file owns the tables' column order and types,
 * appends in bulk, and refuses a value its column cannot hold (a NaN or an Infinity would otherwise
 * become NULL, or fail the whole store's reads later) with the table, column and row at fault.
 */

export type DerivedValue = string | number | boolean | null;
export type DerivedRow = Readonly<Record<string, DerivedValue>>;

export interface DerivedSessionRows {
  commands: readonly DerivedRow[];
  actions: readonly DerivedRow[];
  candidates: readonly DerivedRow[];
  pivots: readonly DerivedRow[];
  /** The `trees` row: goal, counts and the rule-set fingerprint the rows were derived with. */
  tree: DerivedRow;
}

export const DERIVED_TABLES = ['commands', 'actions', 'candidates', 'pivots', 'trees'] as const;
type DerivedTable = (typeof DERIVED_TABLES)[number];

interface Column {
  name: string;
  type: string;
  nullable: boolean;
}

/** A value that cannot be written, named precisely enough to find the rule or row that made it. */
export class DerivedValueError extends Error {}

/**
 * The columns of each derived table, read once per open store: the schema is fixed once a store is
 * open (upgrades run at open), and asking information_schema five times per session was a fifth of
 * the ingest time of an opencode.db of small sessions.
 */
const columnsByStore = new WeakMap<Database, Map<DerivedTable, Promise<Column[]>>>();

function columnsOf(db: Database, table: DerivedTable): Promise<Column[]> {
  let tables = columnsByStore.get(db);
  if (!tables) columnsByStore.set(db, (tables = new Map()));
  let columns = tables.get(table);
  if (!columns) {
    columns = readColumns(db, table);
    columns.catch(() => tables.delete(table));
    tables.set(table, columns);
  }
  return columns;
}

async function readColumns(db: Database, table: DerivedTable): Promise<Column[]> {
  const rows = await db.all(
    `SELECT column_name, data_type, is_nullable FROM information_schema.columns
     WHERE table_name = ? AND table_schema = 'main' ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((row) => ({ name: String(row['column_name']), type: String(row['data_type']), nullable: row['is_nullable'] !== 'NO' }));
}

function checked(table: string, index: number, column: Column, value: DerivedValue | undefined): DerivedValue {
  const at = `${table}[${index}].${column.name}`;
  if (value === undefined || value === null) {
    if (!column.nullable) throw new DerivedValueError(`${at} is required but missing`);
    return null;
  }
  const numeric = column.type === 'INTEGER' || column.type === 'BIGINT' || column.type === 'DOUBLE' || column.type === 'TIMESTAMP';
  if (numeric && (typeof value !== 'number' || !Number.isFinite(value))) {
    throw new DerivedValueError(`${at} must be a finite number, got ${String(value)}`);
  }
  if (column.type === 'BOOLEAN' && typeof value !== 'boolean') throw new DerivedValueError(`${at} must be true or false, got ${String(value)}`);
  if (column.type === 'VARCHAR' && typeof value !== 'string') throw new DerivedValueError(`${at} must be text, got ${typeof value}`);
  return value;
}

function append(appender: DuckDBAppender, column: Column, value: DerivedValue): void {
  if (value === null) return appender.appendNull();
  switch (column.type) {
    case 'INTEGER':
      return appender.appendInteger(Math.trunc(value as number));
    case 'BIGINT':
      return appender.appendBigInt(BigInt(Math.trunc(value as number)));
    case 'DOUBLE':
      return appender.appendDouble(value as number);
    case 'BOOLEAN':
      return appender.appendBoolean(value as boolean);
    case 'TIMESTAMP':
      return appender.appendTimestamp(new DuckDBTimestampValue(BigInt(Math.round((value as number) * 1000))));
    default:
      return appender.appendVarchar(value as string);
  }
}

/** Checks every value first, so a bad row fails before anything of the session is replaced. */
function validated(table: DerivedTable, columns: readonly Column[], rows: readonly DerivedRow[]): DerivedValue[][] {
  const known = new Set(columns.map((c) => c.name));
  return rows.map((row, index) => {
    const extra = Object.keys(row).find((name) => !known.has(name));
    if (extra) throw new DerivedValueError(`${table}[${index}] has no column ${extra}`);
    return columns.map((column) => checked(table, index, column, row[column.name]));
  });
}

/** Replaces one session's derived rows in one transaction; on any error nothing of it changes. */
export async function replaceDerivedRows(db: Database, sessionId: string, rows: DerivedSessionRows): Promise<void> {
  const byTable: Record<DerivedTable, readonly DerivedRow[]> = {
    commands: rows.commands, actions: rows.actions, candidates: rows.candidates, pivots: rows.pivots, trees: [rows.tree],
  };
  const prepared: [DerivedTable, Column[], DerivedValue[][]][] = [];
  for (const table of DERIVED_TABLES) {
    const columns = await columnsOf(db, table);
    prepared.push([table, columns, validated(table, columns, byTable[table].map((row) => ({ ...row, session_id: sessionId })))]);
  }
  await db.run('BEGIN TRANSACTION');
  try {
    // Every derivation writes the session's `trees` row (or a derive_failures row) with its other
    // rows: without either it has none to delete, and each DELETE scans a table that grows with
    // the store (commands and actions hold a row per call of every session).
    const derivedBefore = await db.scalar(
      `SELECT EXISTS (SELECT 1 FROM trees WHERE session_id = ?) OR EXISTS (SELECT 1 FROM derive_failures WHERE session_id = ?)`,
      [sessionId, sessionId],
    );
    if (derivedBefore !== false) {
      for (const table of DERIVED_TABLES) await db.run(`DELETE FROM ${table} WHERE session_id = ?`, [sessionId]);
      await db.run(`DELETE FROM derive_failures WHERE session_id = ?`, [sessionId]);
    }
    for (const [table, columns, values] of prepared) {
      const appender = await db.connection.createAppender(table);
      try {
        for (const row of values) {
          columns.forEach((column, at) => append(appender, column, row[at] as DerivedValue));
          appender.endRow();
        }
      } finally {
        appender.closeSync();
      }
    }
    await db.run('COMMIT');
  } catch (error) {
    await db.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** A session whose derivation failed: recorded once per rule set, so it is retried only when the rules change. */
export async function recordDeriveFailure(db: Database, sessionId: string, fingerprint: string, cause: string): Promise<void> {
  await db.run('BEGIN TRANSACTION');
  try {
    for (const table of DERIVED_TABLES) await db.run(`DELETE FROM ${table} WHERE session_id = ?`, [sessionId]);
    await db.run(`DELETE FROM derive_failures WHERE session_id = ?`, [sessionId]);
    await db.run(`INSERT INTO derive_failures VALUES (?, ?, ?, now()::TIMESTAMP)`, [sessionId, fingerprint, cause]);
    await db.run('COMMIT');
  } catch (error) {
    await db.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Sessions (all, or the ones given) whose derived rows are missing or from another rule set,
 * leaving out those that already failed with this rule set.
 */
export async function staleDerivedSessions(db: Database, fingerprint: string, sessionIds?: readonly string[]): Promise<string[]> {
  if (sessionIds && sessionIds.length === 0) return [];
  const filter = sessionIds ? `AND s.id IN (${sessionIds.map(() => '?').join(', ')})` : '';
  const rows = await db.all(
    `SELECT s.id FROM sessions s
     WHERE NOT EXISTS (SELECT 1 FROM trees t WHERE t.session_id = s.id AND t.rules_fingerprint = ?)
       AND NOT EXISTS (SELECT 1 FROM derive_failures f WHERE f.session_id = s.id AND f.rules_fingerprint = ?)
       ${filter}
     ORDER BY s.id`,
    [fingerprint, fingerprint, ...(sessionIds ?? [])],
  );
  return rows.map((row) => String(row['id']));
}

/**
 * Sessions never derived by any rule set, nor failed: stored by an ingest that was killed (or
 * failed) before it derived them. Sessions derived by other rules are not among them.
 */
export async function underivedSessions(db: Database): Promise<string[]> {
  const rows = await db.all(
    `SELECT s.id FROM sessions s
     WHERE NOT EXISTS (SELECT 1 FROM trees t WHERE t.session_id = s.id)
       AND NOT EXISTS (SELECT 1 FROM derive_failures f WHERE f.session_id = s.id)
     ORDER BY s.id`,
  );
  return rows.map((row) => String(row['id']));
}

export interface DeriveFailure {
  session_id: string;
  cause: string;
  failed_at: string | null;
}

export async function deriveFailures(db: Database): Promise<DeriveFailure[]> {
  const rows = await db.all(`SELECT session_id, cause, failed_at::VARCHAR AS failed_at FROM derive_failures ORDER BY session_id`);
  return rows.map((row) => ({ session_id: String(row['session_id']), cause: String(row['cause']), failed_at: row['failed_at'] === null ? null : String(row['failed_at']) }));
}

/** Why a session has no tree, when its derivation failed (null when it did not). */
export async function deriveFailureOf(db: Database, sessionId: string): Promise<string | null> {
  const row = await db.one(`SELECT cause FROM derive_failures WHERE session_id = ? ORDER BY failed_at DESC LIMIT 1`, [sessionId]);
  return row ? String(row['cause']) : null;
}
