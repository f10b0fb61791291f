import type { Database } from '../../store/database.js';
import { buildOtlpTraces, type OtlpSessionRows, type OtlpTraces } from './build.js';

/** Reads a session and its subagents (recursively) and builds their OTLP/JSON traces. */
export async function exportOtlp(db: Database, sessionId: string, version: string): Promise<OtlpTraces> {
  return buildOtlpTraces(await readRows(db, sessionId, new Set()), version);
}

async function readRows(db: Database, sessionId: string, seen: Set<string>): Promise<OtlpSessionRows> {
  seen.add(sessionId);
  const session = await db.one(`SELECT * FROM sessions WHERE id = ?`, [sessionId]);
  if (!session) throw new Error(`export: no session ${sessionId}`);
  const calls = await db.all(`SELECT * FROM tool_calls WHERE session_id = ? ORDER BY ordinal`, [sessionId]);
  const ordinals = await db.all(`SELECT id, ordinal FROM messages WHERE session_id = ?`, [sessionId]);
  const children: OtlpSessionRows[] = [];
  for (const child of await db.all(`SELECT id FROM sessions WHERE parent_id = ? ORDER BY started_at NULLS LAST, id`, [sessionId])) {
    if (!seen.has(String(child['id']))) children.push(await readRows(db, String(child['id']), seen));
  }
  return {
    session,
    machine: session['machine'] === null || session['machine'] === undefined ? null : String(session['machine']),
    calls,
    ordinalOfMessage: new Map(ordinals.map((row) => [String(row['id']), Number(row['ordinal'])])),
    children,
  };
}
