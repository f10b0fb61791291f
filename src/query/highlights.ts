import type { Database } from '../store/database.js';

export interface SessionHighlights {
  id: string;
  agent: string;
  title: string;
  started_at: string | null;
  ended_at: string | null;
  messages: number;
  tool_calls: number;
  failed_calls: number;
  timed_out_calls: number;
  parallel_groups: number;
  timeouts: { message_ordinal: number; command: string; duration_ms: number | null }[];
}

/** The few facts worth a first look at each session: size, failures, timeouts, parallel work. */
export async function sessionHighlights(db: Database, sessionIds?: readonly string[]): Promise<SessionHighlights[]> {
  const rows = await db.all(
    `SELECT s.id, s.agent, coalesce(s.title, s.id) AS title, s.started_at, s.ended_at, s.message_count, s.tool_call_count,
       count(*) FILTER (WHERE c.exit_code <> 0 OR c.status = 'error') AS failed,
       count(*) FILTER (WHERE c.timed_out) AS timed_out,
       count(DISTINCT c.parallel_group) AS groups
     FROM sessions s LEFT JOIN tool_calls c ON c.session_id = s.id
     GROUP BY ALL ORDER BY s.started_at NULLS LAST, s.id`,
  );
  const wanted = sessionIds ? new Set(sessionIds) : null;
  const result: SessionHighlights[] = [];
  for (const row of rows) {
    const id = String(row['id']);
    if (wanted && !wanted.has(id)) continue;
    const timeouts = await db.all(
      `SELECT m.ordinal, coalesce(c.command, c.title, c.tool) AS what, c.duration_ms
       FROM tool_calls c JOIN messages m ON m.session_id = c.session_id AND m.id = c.message_id
       WHERE c.session_id = ? AND c.timed_out ORDER BY c.ordinal`,
      [id],
    );
    result.push({
      id,
      agent: String(row['agent']),
      title: String(row['title']),
      started_at: (row['started_at'] as string | null) ?? null,
      ended_at: (row['ended_at'] as string | null) ?? null,
      messages: Number(row['message_count'] ?? 0),
      tool_calls: Number(row['tool_call_count'] ?? 0),
      failed_calls: Number(row['failed'] ?? 0),
      timed_out_calls: Number(row['timed_out'] ?? 0),
      parallel_groups: Number(row['groups'] ?? 0),
      timeouts: timeouts.map((t) => ({
        message_ordinal: Number(t['ordinal']),
        command: String(t['what']),
        duration_ms: t['duration_ms'] === null ? null : Number(t['duration_ms']),
      })),
    });
  }
  return result;
}
