import type { Database } from './database.js';

/** Small reads the views (CLI tables, the TUI's services) need beside the query layer's. */

export async function tableExists(db: Database, table: string): Promise<boolean> {
  return Number(await db.scalar(`SELECT count(*) FROM information_schema.tables WHERE table_name = ? AND table_schema = 'main'`, [table])) > 0;
}

/** Candidates per session with a derived tree; sessions without one are absent. */
export async function candidateCounts(db: Database): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (!(await tableExists(db, 'trees'))) return counts;
  for (const row of await db.all(`SELECT session_id, candidates FROM trees`)) counts.set(String(row['session_id']), Number(row['candidates'] ?? 0));
  return counts;
}

export interface RecordedCall {
  call_id: string;
  exit_code: number | null;
  duration_ms: number | null;
  output_excerpt: string | null;
  /** The end of the recorded output (at most `outputChars`), to set beside a run's output tail; null unless asked for. */
  output: string | null;
  /** The whole recorded output's length, in characters. */
  output_chars: number;
}

/** What the transcript recorded for each of the given tool calls: exit, duration, the start of the output. */
export async function recordedCalls(db: Database, sessionId: string, callIds: readonly string[], excerptChars: number, outputChars = 0): Promise<Map<string, RecordedCall>> {
  const recorded = new Map<string, RecordedCall>();
  if (callIds.length === 0) return recorded;
  const rows = await db.all(
    `SELECT call_id, exit_code, duration_ms, left(rtrim(coalesce(output, ''), chr(10)), ${Math.trunc(excerptChars)}) AS excerpt,
       ${outputChars > 0 ? `right(output, ${Math.trunc(outputChars)})` : 'NULL'} AS tail, length(coalesce(output, '')) AS output_chars
     FROM tool_calls WHERE session_id = ? AND call_id IN (${callIds.map(() => '?').join(', ')})`,
    [sessionId, ...callIds],
  );
  for (const row of rows) {
    recorded.set(String(row['call_id']), {
      call_id: String(row['call_id']),
      exit_code: row['exit_code'] === null ? null : Number(row['exit_code']),
      duration_ms: row['duration_ms'] === null ? null : Number(row['duration_ms']),
      output_excerpt: row['excerpt'] === null ? null : String(row['excerpt']),
      output: row['tail'] === null || row['tail'] === undefined ? null : String(row['tail']),
      output_chars: Number(row['output_chars'] ?? 0),
    });
  }
  return recorded;
}
