import type { Database } from '../store/database.js';
import type { Row } from '../store/values.js';
import type { TimelineEntry } from '../core/views/timeline-entry.js';

/**
 * A session as one ordered list of rows: each message, then its tool calls. Rows are numbered
 * in SQL and read a page at a time, so a 10,000-message session never crosses into JavaScript
 * whole. The row shapes match the TUI's `TimelineRow` (src/tui/services.ts).
 */
export type { TimelineEntry };

const PREVIEW_CHARS = 300;

/** Every row of one session with its 0-based position; `$session` names the session. */
const NUMBERED_ROWS = `
  WITH m AS (SELECT id, ordinal FROM messages WHERE session_id = $session),
  c AS (
    SELECT tc.call_id, tc.ordinal AS call_ordinal, m.ordinal AS message_ordinal,
      lag(tc.parallel_group) OVER (ORDER BY m.ordinal, tc.ordinal) AS prev_group,
      lead(tc.parallel_group) OVER (ORDER BY m.ordinal, tc.ordinal) AS next_group
    FROM tool_calls tc JOIN m ON m.id = tc.message_id WHERE tc.session_id = $session
  ),
  all_rows AS (
    SELECT 'message' AS kind, ordinal AS message_ordinal, -1 AS call_ordinal, id AS ref, NULL AS prev_group, NULL AS next_group FROM m
    UNION ALL
    SELECT 'call', message_ordinal, call_ordinal, call_id, prev_group, next_group FROM c
  ),
  numbered AS (
    SELECT *, (row_number() OVER (ORDER BY message_ordinal, call_ordinal) - 1)::INTEGER AS idx, count(*) OVER () AS total FROM all_rows
  )`;

function oneLine(column: string): string {
  return `left(trim(regexp_replace(coalesce(${column}, ''), '\\s+', ' ', 'g')), ${PREVIEW_CHARS})`;
}

const PAGE_QUERY = `${NUMBERED_ROWS}
  SELECT n.kind, n.idx, n.total, n.message_ordinal, n.prev_group, n.next_group,
    msg.role, msg.created_at, ${oneLine('msg.text')} AS preview, ${oneLine('msg.reasoning')} AS reasoning_preview, msg.error,
    (SELECT count(*) FROM tool_calls x WHERE x.session_id = $session AND x.message_id = msg.id) AS calls,
    tc.call_id, tc.tool, tc.status, tc.started_at, tc.duration_ms, tc.exit_code, tc.timed_out, tc.truncated, tc.parallel_group,
    ${oneLine("coalesce(tc.command, nullif(tc.title, ''), tc.input)")} AS summary,
    CASE WHEN tc.output IS NULL OR tc.output = '' THEN 0
         ELSE length(rtrim(tc.output, chr(10))) - length(replace(rtrim(tc.output, chr(10)), chr(10), '')) + 1 END AS output_lines
  FROM numbered n
  LEFT JOIN messages msg ON n.kind = 'message' AND msg.session_id = $session AND msg.id = n.ref
  LEFT JOIN tool_calls tc ON n.kind = 'call' AND tc.session_id = $session AND tc.call_id = n.ref
  WHERE n.idx >= $from AND n.idx < $to
  ORDER BY n.idx`;

function text(row: Row, key: string): string | null {
  const value = row[key];
  return value === null || value === undefined ? null : String(value);
}

function num(row: Row, key: string): number | null {
  const value = row[key];
  return value === null || value === undefined ? null : Number(value);
}

function position(row: Row): 'first' | 'middle' | 'last' | null {
  const group = text(row, 'parallel_group');
  if (group === null) return null;
  const joinsPrevious = text(row, 'prev_group') === group;
  const joinsNext = text(row, 'next_group') === group;
  if (joinsPrevious && joinsNext) return 'middle';
  if (joinsPrevious) return 'last';
  if (joinsNext) return 'first';
  return null;
}

/**
 * `ssh user@host 'cmd'` reads as `host: cmd`: the host matters, the wrapping does not. Works on
 * a command already cut short (the closing quote may be gone).
 */
export function summariseCommand(command: string): string {
  const match = /^ssh\s+(?:-\S+\s+(?:\S+\s+)?)*(?:[\w.-]+@)?([\w.:-]+)\s+(['"])([\s\S]*)$/.exec(command);
  if (!match) return command;
  const [, host, quote, rest = ''] = match;
  const closing = rest.lastIndexOf(quote ?? "'");
  const inner = closing >= 0 && /^\s*(2>&1)?\s*$/.test(rest.slice(closing + 1)) ? rest.slice(0, closing) : rest;
  return `${host}: ${inner}`;
}

function toEntry(row: Row): TimelineEntry {
  const index = Number(row['idx']);
  const ordinal = Number(row['message_ordinal']);
  if (row['kind'] === 'message') {
    return {
      kind: 'message',
      index,
      ordinal,
      role: text(row, 'role') ?? '?',
      created_at: text(row, 'created_at'),
      preview: text(row, 'preview') ?? '',
      reasoning_preview: text(row, 'reasoning_preview') ?? '',
      calls: num(row, 'calls') ?? 0,
      error: text(row, 'error'),
    };
  }
  const exitCode = num(row, 'exit_code');
  const timedOut = row['timed_out'] === true;
  return {
    kind: 'call',
    index,
    ordinal,
    call_id: text(row, 'call_id') ?? '',
    tool: text(row, 'tool') ?? '?',
    summary: summariseCommand(text(row, 'summary') ?? ''),
    started_at: text(row, 'started_at'),
    duration_ms: num(row, 'duration_ms'),
    exit_code: exitCode,
    timed_out: timedOut,
    failed: !timedOut && ((exitCode !== null && exitCode !== 0) || text(row, 'status') === 'error'),
    truncated: row['truncated'] === true,
    parallel_group: text(row, 'parallel_group'),
    parallel_position: position(row),
    output_lines: num(row, 'output_lines') ?? 0,
  };
}

/** Rows [offset, offset + limit) of a session's timeline and the number of rows in all. */
export async function timelinePage(db: Database, sessionId: string, offset: number, limit: number): Promise<{ rows: TimelineEntry[]; total: number }> {
  const from = Math.max(0, Math.floor(offset));
  const rows = await db.all(PAGE_QUERY, { session: sessionId, from, to: from + Math.max(0, Math.floor(limit)) });
  const total = rows.length > 0 ? Number(rows[0]?.['total']) : await timelineLength(db, sessionId);
  return { rows: rows.map(toEntry), total };
}

export async function timelineLength(db: Database, sessionId: string): Promise<number> {
  const total = await db.scalar(`${NUMBERED_ROWS} SELECT count(*) FROM numbered`, { session: sessionId });
  return Number(total ?? 0);
}

/**
 * Positions of rows whose text, reasoning, command, title or output contains `query`, any case.
 * The matching messages and calls are found in their own tables first and only then numbered: a
 * filter over the joined rows took seconds on a 10,000-message session (the bench's), this ~0.3 s.
 */
export async function searchTimeline(db: Database, sessionId: string, query: string): Promise<number[]> {
  if (query.trim() === '') return [];
  const rows = await db.all(
    `${NUMBERED_ROWS},
     hits AS (
       SELECT 'message' AS kind, id AS ref FROM messages
       WHERE session_id = $session AND contains(lower(concat_ws(chr(10), text, reasoning, error)), lower($query))
       UNION ALL
       SELECT 'call', call_id FROM tool_calls
       WHERE session_id = $session AND contains(lower(concat_ws(chr(10), tool, command, title, input, output)), lower($query))
     )
     SELECT n.idx FROM numbered n JOIN hits h ON h.kind = n.kind AND h.ref = n.ref
     ORDER BY n.idx`,
    { session: sessionId, query },
  );
  return rows.map((row) => Number(row['idx']));
}

/** The row of message `ordinal`, or null when the session has no such message. */
export async function timelineIndexOfMessage(db: Database, sessionId: string, ordinal: number): Promise<number | null> {
  const value = await db.scalar(`${NUMBERED_ROWS} SELECT idx FROM numbered WHERE kind = 'message' AND message_ordinal = $ordinal`, {
    session: sessionId,
    ordinal,
  });
  return value === undefined || value === null ? null : Number(value);
}
