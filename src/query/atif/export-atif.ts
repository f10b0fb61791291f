import type { AtifTrajectory } from '../../core/atif/schema.js';
import type { Database } from '../../store/database.js';
import { loadTree, treeJson } from '../tree/queries.js';
import { buildTrajectory, type SessionRows } from './build.js';

const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** Reads a session, its subagents (recursively) and their trees, and builds its ATIF trajectory. */
export async function exportAtif(db: Database, sessionId: string): Promise<AtifTrajectory> {
  return buildTrajectory(await readSessionRows(db, sessionId, new Set()));
}

async function readSessionRows(db: Database, sessionId: string, seen: Set<string>): Promise<SessionRows> {
  seen.add(sessionId);
  const session = await db.one(`SELECT * FROM sessions WHERE id = ?`, [sessionId]);
  if (!session) throw new Error(`export: no session ${sessionId}`);
  const source = await db.one(
    `SELECT machine, coalesce(original_path, path) AS source_path FROM sources WHERE key = ? AND machine IS NOT DISTINCT FROM ? LIMIT 1`,
    [textOrNull(session['source']), textOrNull(session['machine'])],
  );
  const messages = await db.all(`SELECT * FROM messages WHERE session_id = ? ORDER BY ordinal`, [sessionId]);
  const calls = await db.all(`SELECT * FROM tool_calls WHERE session_id = ? ORDER BY ordinal`, [sessionId]);
  const stored = await loadTree(db, sessionId);
  const candidateOfCall = new Map<string, string>();
  for (const row of await db.all(`SELECT call_id, candidate FROM actions WHERE session_id = ? AND candidate IS NOT NULL ORDER BY seq`, [sessionId])) {
    if (!candidateOfCall.has(String(row['call_id']))) candidateOfCall.set(String(row['call_id']), String(row['candidate']));
  }
  const children: SessionRows[] = [];
  for (const child of await db.all(`SELECT id FROM sessions WHERE parent_id = ? ORDER BY started_at NULLS LAST, id`, [sessionId])) {
    const childId = String(child['id']);
    if (!seen.has(childId)) children.push(await readSessionRows(db, childId, seen));
  }
  return {
    session,
    provenance: {
      machine: (source?.['machine'] as string | null | undefined) ?? (session['machine'] as string | null) ?? null,
      source_path: (source?.['source_path'] as string | null | undefined) ?? null,
    },
    messages,
    calls,
    tree: stored ? treeJson(stored) : null,
    candidateOfCall,
    children,
  };
}
