import type { Database } from '../store/database.js';
import { recordDeriveFailure, replaceDerivedRows, type DerivedSessionRows } from '../store/derived-writer.js';
import { retryWithMoreMemory } from '../store/memory-limit.js';
import type { Row } from '../store/values.js';
import type { CallRecord } from './classify/index.js';
import { derivedRows } from './derived-rows.js';
import { rulesFingerprint } from './rules/active.js';
import { SessionDerivation, type DerivedRows } from './session-derivation.js';
import type { TreeMessage } from './tree/types.js';

/**
 * Fills the derived tables (commands, actions, candidates, pivots, trees) for given sessions:
 * reads their messages and tool calls, runs the pure core (parse → classify → tree) and replaces
 * their derived rows in one transaction. Called by ingest after each committed source, and by
 * the query commands for sessions derived by an older version of the rules.
 */

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const str = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** Outputs longer than this are read as their head and tail: signatures and facts look only there. */
const OUTPUT_WINDOW = 512 * 1024;
const CALL_PAGE = 2000;

export async function readMessages(db: Database, sessionId: string): Promise<{ parentId: string | null; messages: TreeMessage[] }> {
  const session = await db.one(`SELECT parent_id FROM sessions WHERE id = ?`, [sessionId]);
  const messages = await db.all(`SELECT ordinal, role, text, reasoning FROM messages WHERE session_id = ? ORDER BY ordinal`, [sessionId]);
  return {
    parentId: str(session?.['parent_id']),
    messages: messages.map((row: Row) => ({ ordinal: Number(row['ordinal']), role: String(row['role'] ?? ''), text: String(row['text'] ?? ''), reasoning: String(row['reasoning'] ?? '') })),
  };
}

/** A session's calls in order, a page at a time, so a long session's outputs are never all in memory. */
export async function* callPages(db: Database, sessionId: string): AsyncGenerator<CallRecord[]> {
  let after = 0;
  for (;;) {
    const rows = await db.all(
      `SELECT c.ordinal, c.call_id, m.ordinal AS message_ordinal, c.tool, c.status, c.input, c.command,
              CASE WHEN length(c.output) > ${2 * OUTPUT_WINDOW}
                   THEN left(c.output, ${OUTPUT_WINDOW}) || chr(10) || '…' || chr(10) || right(c.output, ${OUTPUT_WINDOW})
                   ELSE c.output END AS output,
              epoch_ms(c.started_at) AS started_ms, c.duration_ms, c.exit_code, c.timed_out
       FROM tool_calls c JOIN messages m ON m.session_id = c.session_id AND m.id = c.message_id
       WHERE c.session_id = ? AND c.ordinal > ? ORDER BY c.ordinal LIMIT ${CALL_PAGE}`,
      [sessionId, after],
    );
    if (rows.length === 0) return;
    after = Number(rows[rows.length - 1]?.['ordinal']);
    yield rows.map((row: Row) => ({
      callId: String(row['call_id']),
      messageOrdinal: Number(row['message_ordinal']),
      tool: String(row['tool'] ?? ''),
      status: str(row['status']),
      input: String(row['input'] ?? '{}'),
      command: str(row['command']),
      output: str(row['output']),
      startedAt: num(row['started_ms']),
      durationMs: num(row['duration_ms']),
      exitCode: num(row['exit_code']),
      timedOut: row['timed_out'] === true,
    }));
    if (rows.length < CALL_PAGE) return;
  }
}

export type { DerivedRows } from './session-derivation.js';

/** The pure part: a session's rows in, its derived rows out. */
export function deriveRows(sessionId: string, isSubagent: boolean, messages: readonly TreeMessage[], calls: readonly CallRecord[]): DerivedRows {
  const derivation = new SessionDerivation();
  derivation.add(calls);
  return derivation.finish(sessionId, isSubagent, messages);
}

/** Reads a session page by page and derives it. */
export async function deriveStored(db: Database, sessionId: string): Promise<DerivedRows> {
  const { parentId, messages } = await readMessages(db, sessionId);
  const derivation = new SessionDerivation();
  for await (const page of callPages(db, sessionId)) derivation.add(page);
  return derivation.finish(sessionId, parentId !== null, messages);
}

export interface DeriveFailureReport {
  sessionId: string;
  cause: string;
}

export interface DeriveOptions {
  /** Sessions done so far of the total, for a progress line on long work. */
  onProgress?: (done: number, total: number) => void;
  /** How one stored session is derived (default: read it page by page and run the pure core). */
  derive?: (db: Database, sessionId: string) => Promise<DerivedRows>;
}

/**
 * Derives and stores the given sessions, each in its own transaction. A session that cannot be
 * derived (a rule that throws, a number its column cannot hold) is recorded with its cause and
 * skipped: every other session still derives, and the failed one is retried when the rules change.
 */
export async function deriveSessions(db: Database, sessionIds: readonly string[], options: DeriveOptions = {}): Promise<DeriveFailureReport[]> {
  const fingerprint = rulesFingerprint();
  return storeDerivations(db, sessionIds, fingerprint, (sessionId) => storedSessionRows(db, sessionId, fingerprint, options.derive), options.onProgress);
}

/** A stored session's derived rows, derived in this thread. */
export async function storedSessionRows(db: Database, sessionId: string, fingerprint: string, derive = deriveStored): Promise<DerivedSessionRows> {
  // A session of many megabyte outputs needs more than the bulk-write cache to be read back.
  const derived = await retryWithMoreMemory(db, () => derive(db, sessionId));
  return derivedRows(derived.commands, derived.actions, derived.tree, derived.candidateOf, fingerprint, Date.now());
}

/** Stores each session's rows as `rowsOf` gives them, each in its own transaction; failures recorded as deriveSessions says. */
export async function storeDerivations(
  db: Database,
  sessionIds: readonly string[],
  fingerprint: string,
  rowsOf: (sessionId: string) => Promise<DerivedSessionRows>,
  onProgress?: (done: number, total: number) => void,
): Promise<DeriveFailureReport[]> {
  const failures: DeriveFailureReport[] = [];
  for (const [index, sessionId] of sessionIds.entries()) {
    onProgress?.(index, sessionIds.length);
    const failure = await storeDerivation(db, sessionId, fingerprint, rowsOf(sessionId));
    if (failure) failures.push(failure);
  }
  onProgress?.(sessionIds.length, sessionIds.length);
  return failures;
}

/** Stores one session's rows, or, when they could not be derived or written, records why (and says so). */
export async function storeDerivation(db: Database, sessionId: string, fingerprint: string, rows: Promise<DerivedSessionRows>): Promise<DeriveFailureReport | null> {
  try {
    await replaceDerivedRows(db, sessionId, await rows);
    return null;
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    await recordDeriveFailure(db, sessionId, fingerprint, cause);
    return { sessionId, cause };
  }
}

export { staleSessions, withDerivedStore, type DerivedStoreOptions } from './derived-store.js';
