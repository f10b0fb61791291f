import type { Database } from '../store/database.js';

/**
 * Long texts (a tool call's output, a message's full text) read a window of lines at a time:
 * DuckDB splits the text and hands back only the lines asked for, so a 50 MB log never becomes
 * one JavaScript string on the way to a pager.
 */
export interface TextWindow {
  title: string;
  lines: string[];
  total_lines: number;
  offset: number;
}

/** `command`: a tool call's command (or its input) exactly as recorded, line by line. */
export type TextSource = { kind: 'call'; callId: string } | { kind: 'message'; ordinal: number } | { kind: 'command'; callId: string };

/** Longer lines are cut: a pager shows at most a screen's width of them anyway. */
const MAX_LINE_CHARS = 2_000;
/** A command is shown (and copied) whole: only a pathological one is cut. */
const MAX_COMMAND_LINE_CHARS = 200_000;

const CALL_TEXT = `
  SELECT coalesce(command, title, tool) AS title, string_split(rtrim(coalesce(output, ''), chr(10)), chr(10)) AS l
  FROM tool_calls WHERE session_id = $session AND call_id = $ref`;

// The command as the agent ran it (\`ssh aurora@10.1.230.180 '…'\`), never the summary's rewrite.
const COMMAND_TEXT = `
  SELECT 'Command · ' || tool AS title, string_split(rtrim(coalesce(command, input, ''), chr(10)), chr(10)) AS l
  FROM tool_calls WHERE session_id = $session AND call_id = $ref`;

const MESSAGE_TEXT = `
  SELECT '#' || ordinal || ' ' || coalesce(role, '') AS title,
    string_split(rtrim(concat(
      CASE WHEN coalesce(reasoning, '') <> '' THEN 'thinking:' || chr(10) || reasoning || chr(10) || chr(10) ELSE '' END,
      coalesce(text, ''),
      CASE WHEN error IS NOT NULL THEN chr(10) || 'error: ' || error ELSE '' END), chr(10)), chr(10)) AS l
  FROM messages WHERE session_id = $session AND ordinal = $ref`;

function sourceQuery(source: TextSource): { sql: string; ref: string | number } {
  if (source.kind === 'command') return { sql: COMMAND_TEXT, ref: source.callId };
  return source.kind === 'call' ? { sql: CALL_TEXT, ref: source.callId } : { sql: MESSAGE_TEXT, ref: source.ordinal };
}

function describe(source: TextSource): string {
  return source.kind === 'message' ? `message #${source.ordinal}` : `tool call ${source.callId}`;
}

/** Lines [offset, offset + limit) of the text; an empty text has no lines. */
export async function textWindow(db: Database, sessionId: string, source: TextSource, offset: number, limit: number): Promise<TextWindow> {
  const { sql, ref } = sourceQuery(source);
  const from = Math.max(0, Math.floor(offset));
  const row = await db.one(
    `WITH t AS (${sql})
     SELECT title, CASE WHEN l = [''] THEN 0 ELSE len(l) END AS total, l[$first:$last] AS lines FROM t`,
    { session: sessionId, ref, first: from + 1, last: from + Math.max(0, Math.floor(limit)) },
  );
  if (!row) throw new Error(`no ${describe(source)} in session ${sessionId}`);
  const total = Number(row['total'] ?? 0);
  const lines = total === 0 ? [] : (Array.isArray(row['lines']) ? row['lines'] : []).map((line) => String(line ?? '').slice(0, source.kind === 'command' ? MAX_COMMAND_LINE_CHARS : MAX_LINE_CHARS));
  return { title: String(row['title'] ?? ''), lines, total_lines: total, offset: from };
}

/** 0-based numbers of the lines that contain `query`, any case. */
export async function searchTextLines(db: Database, sessionId: string, source: TextSource, query: string): Promise<number[]> {
  if (query.trim() === '') return [];
  const { sql, ref } = sourceQuery(source);
  const rows = await db.all(
    `WITH t AS (${sql}), numbered AS (SELECT unnest(l) AS line, generate_subscripts(l, 1) AS i FROM t)
     SELECT i - 1 AS line_number FROM numbered WHERE contains(lower(line), lower($query)) ORDER BY i`,
    { session: sessionId, ref, query },
  );
  return rows.map((row) => Number(row['line_number']));
}
