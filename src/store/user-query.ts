import { Database, StatementType, statementTypeName, type QueryResult } from './database.js';
import { isLake, type StoreLocation } from './location.js';

/** What a query typed by a user may do, and how long and how much memory it may take. */
export interface UserQueryLimits {
  /** Let the query read other files (`read_csv('…')`, `glob`); the store stays read-only. */
  allowFiles: boolean;
  timeoutMs: number;
  /** DuckDB memory limit, e.g. '2GB'. */
  memoryLimit: string;
}

export const DEFAULT_USER_QUERY_LIMITS: UserQueryLimits = { allowFiles: false, timeoutMs: 300_000, memoryLimit: '2GB' };

/** The statements a user query may be: DuckDB prepares SELECT, WITH, FROM, VALUES, DESCRIBE, SHOW and SUMMARIZE as SELECT. */
export const READ_ONLY_STATEMENTS = 'SELECT, WITH, FROM, VALUES, DESCRIBE, SHOW, SUMMARIZE';

/**
 * Why a statement type may not run as a user query, or null. Only queries: COPY and EXPORT
 * write files, ATTACH opens other databases, INSTALL and LOAD fetch and run extensions, PRAGMA
 * and SET change settings (profiling output would corrupt `--json`), CALL and EXPLAIN ANALYZE
 * execute what they wrap.
 */
export function refuseUnlessQuery(type: StatementType): string | null {
  return type === StatementType.SELECT ? null : `${statementTypeName(type)} is not a read-only query`;
}

/** The statement's first keyword as the user wrote it (`INSTALL` prepares as a LOAD statement). */
export function leadingKeyword(sql: string): string | null {
  return /^[\s(]*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? null;
}

const QUERY_KEYWORDS = new Set(['SELECT', 'WITH', 'FROM', 'VALUES', 'DESCRIBE', 'SHOW', 'SUMMARIZE', 'TABLE', 'PIVOT', 'UNPIVOT']);

/** A statement that starts like a query (its refusal, if any, is about what it reads). */
export function looksLikeQuery(sql: string): boolean {
  return QUERY_KEYWORDS.has(leadingKeyword(sql) ?? '');
}

function openLockedDown(location: StoreLocation, limits: UserQueryLimits): Promise<Database> {
  // A lake is always locked to its own folder: --allow-files does not widen it.
  if (isLake(location)) return Database.openLake(location.lake, { memoryLimit: limits.memoryLimit });
  return Database.open(location, { readOnly: true, memoryLimit: limits.memoryLimit, lockedDown: { allowFiles: limits.allowFiles } });
}

/**
 * Runs one read-only query on a store (opened read-only with external access off, or on with
 * `allowFiles`, no extensions and a locked configuration) or on a lake (locked to its folder).
 * Throws QueryError.
 */
export async function runUserQuery(location: StoreLocation, sql: string, limits: UserQueryLimits = DEFAULT_USER_QUERY_LIMITS): Promise<QueryResult> {
  const db = await openLockedDown(location, limits);
  try {
    return await db.querySingleStatement(sql, { refuse: refuseUnlessQuery, timeoutMs: limits.timeoutMs });
  } finally {
    await db.close();
  }
}
