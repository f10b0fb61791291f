import type { Database } from './database.js';
import { MERGE } from './staging.js';

/**
 * The merge half of a source writer: the staged rows of a commit group (what was not appended
 * straight into the store) are folded into the store's tables, whole-session sources take the
 * shape of their new read, and the touched sessions' rows and counts are brought up to date.
 * Runs inside the writer's transaction; the writer decides when it commits.
 */

export interface MergedCounts {
  sessionsAdded: number;
  /** Rows inserted from staging (the writer adds the ones it appended directly). */
  messagesInserted: number;
  messagesUpdated: number;
  messagesRemoved: number;
  toolCallsInserted: number;
  toolCallsUpdated: number;
  toolCallsRemoved: number;
}

/**
 * Merges the staged rows. `staged`: whether any message or call was staged (else only sessions
 * are); `wholeSessions`: sessions a source holds whole, each with the first staging sequence
 * number of its read; `readDirectly`: whether a session was new to the store (its rows were
 * appended directly and are exactly this read).
 */
export async function mergeStagedRows(
  db: Database,
  staged: boolean,
  wholeSessions: ReadonlyMap<string, number>,
  readDirectly: (sessionId: string) => boolean,
): Promise<MergedCounts> {
  const messagesUpdated = staged ? await db.run(MERGE.updateMessages) : 0;
  const messagesInserted = staged ? await db.run(MERGE.insertMessages) : 0;
  const toolCallsUpdated = staged ? await db.run(MERGE.updateToolCalls) : 0;
  const toolCallsInserted = staged ? await db.run(MERGE.insertToolCalls) : 0;
  const removed = await replaceWholeSessions(db, wholeSessions, readDirectly);
  await db.run(`INSERT INTO stg_touched SELECT id FROM stg_sessions`);
  const sessionsAdded = await db.run(MERGE.insertSessions);
  await db.run(MERGE.updateSessions);
  await db.run(MERGE.refreshSessionAggregates);
  return {
    sessionsAdded,
    messagesInserted,
    messagesUpdated,
    messagesRemoved: removed.messages,
    toolCallsInserted,
    toolCallsUpdated,
    toolCallsRemoved: removed.calls,
  };
}

/** Removes what a whole-session source no longer holds; renumbers what it holds in its order. */
async function replaceWholeSessions(
  db: Database,
  wholeSessions: ReadonlyMap<string, number>,
  readDirectly: (sessionId: string) => boolean,
): Promise<{ messages: number; calls: number }> {
  let messages = 0;
  let calls = 0;
  for (const [sessionId, readFrom] of wholeSessions) {
    // New to the store: its rows were appended directly and are exactly this read.
    if (readDirectly(sessionId)) continue;
    // What the whole read holds is what it staged, and what later sources of a group staged
    // (as if they had been stored after it): staged rows carry their arrival order in `ordinal`.
    const args = [sessionId, sessionId, readFrom];
    messages += await db.run(
      `DELETE FROM messages WHERE session_id = ? AND id NOT IN (SELECT id FROM stg_messages WHERE session_id = ? AND ordinal >= ?)`, args);
    calls += await db.run(
      `DELETE FROM tool_calls WHERE session_id = ? AND call_id NOT IN (SELECT call_id FROM stg_tool_calls WHERE session_id = ? AND ordinal >= ?)`, args);
    const renumber = [sessionId, readFrom, sessionId];
    await db.run(
      `UPDATE messages t SET ordinal = s.rn
       FROM (SELECT id, row_number() OVER (ORDER BY min(ordinal)) AS rn FROM stg_messages WHERE session_id = ? AND ordinal >= ? GROUP BY id) s
       WHERE t.session_id = ? AND t.id = s.id AND t.ordinal IS DISTINCT FROM s.rn`, renumber);
    await db.run(
      `UPDATE tool_calls t SET ordinal = s.rn
       FROM (SELECT call_id, row_number() OVER (ORDER BY min(ordinal)) AS rn FROM stg_tool_calls WHERE session_id = ? AND ordinal >= ? GROUP BY call_id) s
       WHERE t.session_id = ? AND t.call_id = s.call_id AND t.ordinal IS DISTINCT FROM s.rn`, renumber);
    const both = [sessionId, sessionId];
    // Its counts are refreshed from its rows at commit; a session left with none has none.
    await db.run(`INSERT INTO stg_touched VALUES (?)`, [sessionId]);
    await db.run(
      `UPDATE sessions SET message_count = 0, tool_call_count = 0
       WHERE id = ? AND NOT EXISTS (SELECT 1 FROM messages WHERE session_id = ?)`, both);
  }
  return { messages, calls };
}
