import { distinctIds, tableNames, type SqliteDatabase } from './sqlite-db.js';

/**
 * Which generation of tables holds each session of an `opencode.db`.
 * - 1.x (≥ 1.2): `session`, `message`, `part`; late 1.x also dual-writes a `session_message`
 *   projection of the same messages.
 * - 2.x: `session_v2` and `session_message` beside the frozen 1.x tables. 2.x imports the 1.x
 *   sessions once, keeping their ids (`kv['migration.v1-v2']`); sessions 1.x wrote after that import
 *   exist only in the 1.x tables (anomalyco/opencode#49641, #41217).
 * - pre-split 2.x betas: one `session` table shared by both, 2.x messages only in `session_message`.
 */
export type Generation = 'v1' | 'v2';

export interface SessionPlan {
  sessionId: string;
  generation: Generation;
}

export interface GenerationFacts {
  /** `session_v2` exists: `session_message` is 2.x's own record, not a 1.x projection. */
  v2Canonical: boolean;
  v2Sessions: ReadonlySet<string>;
  v1Sessions: ReadonlySet<string>;
  /** Sessions with `session_message` rows / with `message` rows. */
  v2Messages: ReadonlySet<string>;
  v1Messages: ReadonlySet<string>;
}

/**
 * Every session exactly once. Its messages come from 2.x rows when 2.x wrote it (they win where
 * both generations hold it: the import carried the 1.x history over); from the 1.x rows otherwise,
 * including a 1.x projection only when the 1.x messages themselves are missing. A session with
 * no messages in either is still listed, from whichever table names it (2.x first).
 */
export function planGenerations(facts: GenerationFacts): SessionPlan[] {
  const ids = new Set([...facts.v2Sessions, ...facts.v1Sessions, ...facts.v2Messages, ...facts.v1Messages]);
  return [...ids].sort().map((sessionId) => {
    const has2 = facts.v2Messages.has(sessionId);
    const has1 = facts.v1Messages.has(sessionId);
    const generation: Generation =
      has2 && (facts.v2Canonical || !has1) ? 'v2' : has1 ? 'v1' : facts.v2Sessions.has(sessionId) ? 'v2' : 'v1';
    return { sessionId, generation };
  });
}

export function readGenerationFacts(db: SqliteDatabase): GenerationFacts {
  const tables = tableNames(db);
  return {
    v2Canonical: tables.has('session_v2'),
    v2Sessions: distinctIds(db, tables, 'session_v2', 'id'),
    v1Sessions: distinctIds(db, tables, 'session', 'id'),
    v2Messages: distinctIds(db, tables, 'session_message', 'session_id'),
    v1Messages: distinctIds(db, tables, 'message', 'session_id'),
  };
}

/** The tables that name sessions, in the order a session of this generation takes its info from. */
export function infoTables(generation: Generation): readonly string[] {
  return generation === 'v2' ? ['session_v2', 'session'] : ['session', 'session_v2'];
}
