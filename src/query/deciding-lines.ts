import type { Database } from '../store/database.js';

/**
 * The output lines that decided each call of a message range: the classified actions' evidence
 * (version facts, health readings) and the lines their signatures matched (a timeout notice, an
 * error). A view that shortens an output keeps these, so a cut never hides why a call counted.
 */
export async function decidingLines(db: Database, sessionId: string, range: { from?: number; to?: number } = {}): Promise<Map<string, Set<string>>> {
  const rows = await db.all(
    `SELECT call_id, evidence, signatures FROM actions
     WHERE session_id = ? AND message_ordinal BETWEEN ? AND ?
       AND (coalesce(evidence, '') <> '' OR signatures IS NOT NULL)`,
    [sessionId, range.from ?? 1, range.to ?? 2 ** 31 - 1],
  );
  const byCall = new Map<string, Set<string>>();
  for (const row of rows) {
    const callId = String(row['call_id']);
    const lines = byCall.get(callId) ?? new Set<string>();
    for (const line of String(row['evidence'] ?? '').split('\n')) if (line.trim()) lines.add(line.trim());
    for (const line of signatureLines(row['signatures'])) lines.add(line);
    byCall.set(callId, lines);
  }
  return byCall;
}

function signatureLines(value: unknown): string[] {
  if (typeof value !== 'string' || value === '') return [];
  try {
    const parsed: unknown = JSON.parse(value);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((hit: unknown) => {
      const line = typeof hit === 'object' && hit !== null ? (hit as { line?: unknown }).line : undefined;
      return typeof line === 'string' && line.trim() ? [line.trim()] : [];
    });
  } catch {
    return [];
  }
}

/** The last message ordinal of a session (0 when it has none), to tell "past the end" from "empty". */
export async function lastOrdinal(db: Database, sessionId: string): Promise<number> {
  const rows = await db.all('SELECT coalesce(max(ordinal), 0) AS last FROM messages WHERE session_id = ?', [sessionId]);
  return Number(rows[0]?.['last'] ?? 0);
}
