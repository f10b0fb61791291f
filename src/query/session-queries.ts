import type { Database } from '../store/database.js';
import type { Row } from '../store/values.js';

export interface SessionSummary {
  id: string;
  agent: string;
  title: string | null;
  directory: string | null;
  started_at: string | null;
  ended_at: string | null;
  model: string | null;
  parent_id: string | null;
  messages: number;
  tool_calls: number;
  /** Provenance: the machine the session's source was ingested on, and where its transcript was first written. */
  machine: string | null;
  source_path: string | null;
}

function toSummary(row: Row): SessionSummary {
  return {
    id: String(row['id']),
    agent: String(row['agent']),
    title: (row['title'] as string | null) ?? null,
    directory: (row['directory'] as string | null) ?? null,
    started_at: (row['started_at'] as string | null) ?? null,
    ended_at: (row['ended_at'] as string | null) ?? null,
    model: (row['model'] as string | null) ?? null,
    parent_id: (row['parent_id'] as string | null) ?? null,
    messages: Number(row['message_count'] ?? 0),
    tool_calls: Number(row['tool_call_count'] ?? 0),
    machine: (row['machine'] as string | null) ?? null,
    source_path: (row['source_path'] as string | null) ?? null,
  };
}

/**
 * A session's columns and its source's original path. A source key is unique per machine only
 * (two machines may both have read `~/.claude/projects/x.jsonl`), so the join names the machine.
 */
const SESSION_COLUMNS = `s.id, s.agent, s.title, s.directory, s.started_at, s.ended_at, s.model, s.parent_id, s.message_count,
  s.tool_call_count, s.machine, (SELECT coalesce(src.original_path, src.path) FROM sources src
    WHERE src.key = s.source AND src.machine IS NOT DISTINCT FROM s.machine LIMIT 1) AS source_path`;

/** Every session, in order (start, then id). */
export async function listSessions(db: Database): Promise<SessionSummary[]> {
  const listed = await listedAsJson(db);
  if (listed) return listed;
  const rows = await db.all(`SELECT ${SESSION_COLUMNS} FROM sessions s ORDER BY s.started_at NULLS LAST, s.id`);
  return rows.map(toSummary);
}

/** The span of a JavaScript Date, in milliseconds either side of 1970. */
const DATE_LIMIT_MS = 8.64e15;

/** A TIMESTAMP's microseconds as the client makes it a Date (milliseconds truncated), as an ISO string; undefined when no Date holds it. */
function isoFromMicros(micros: unknown): string | null | undefined {
  if (micros === null) return null;
  const ms = Math.trunc(Number(micros) / 1000);
  return Math.abs(ms) <= DATE_LIMIT_MS ? new Date(ms).toISOString() : undefined;
}

/**
 * The listing read as one JSON document DuckDB writes: read as rows, the client decodes each of a
 * big store's ~180,000 values apart (15,000 sessions: ~220 ms of conversion for a 30 ms query).
 * Times come as microseconds and are made the strings `Database.all` gives; null (read as rows
 * then) when a time is outside what a Date holds, so that case fails or not exactly as before.
 */
async function listedAsJson(db: Database): Promise<SessionSummary[] | null> {
  const json = await db.scalar(
    `SELECT to_json(coalesce(list(listed ORDER BY listed.sort_at NULLS LAST, listed.id), []))
     FROM (SELECT ${SESSION_COLUMNS.replace('s.started_at, s.ended_at', 'epoch_us(s.started_at) AS started_at, epoch_us(s.ended_at) AS ended_at')},
                  s.started_at AS sort_at FROM sessions s) listed`,
  );
  const rows = JSON.parse(String(json)) as Row[];
  for (const row of rows) {
    const started = isoFromMicros(row['started_at']);
    const ended = isoFromMicros(row['ended_at']);
    if (started === undefined || ended === undefined) return null;
    row['started_at'] = started;
    row['ended_at'] = ended;
  }
  return rows.map(toSummary);
}

export class SessionLookupError extends Error {
  constructor(message: string, readonly candidates: SessionSummary[] = []) {
    super(message);
    this.name = 'SessionLookupError';
  }
}

/** SESSION is an id, an id prefix, or a title substring (case-insensitive); it must name one session. */
export async function resolveSession(db: Database, reference: string): Promise<SessionSummary> {
  const exact = await db.all(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = ?`, [reference]);
  if (exact.length === 1) return toSummary(exact[0] as Row);
  const rows = await db.all(
    `SELECT ${SESSION_COLUMNS} FROM sessions s
     WHERE starts_with(s.id, ?) OR contains(lower(coalesce(s.title, '')), lower(?))
     ORDER BY s.started_at NULLS LAST, s.id LIMIT 20`,
    [reference, reference],
  );
  if (rows.length === 1) return toSummary(rows[0] as Row);
  // A replay is stored as a session titled "replay of <title>": a reference that names both the
  // recorded session and its replays means the recorded one.
  const recorded = rows.filter((row) => row['agent'] !== 'retrace');
  if (recorded.length === 1 && rows.length > 1) return toSummary(recorded[0] as Row);
  if (rows.length === 0) {
    throw new SessionLookupError(`no session matches "${reference}" (an id, an id prefix or a title substring); see \`retrace sessions\``);
  }
  const candidates = rows.map(toSummary);
  const list = candidates.slice(0, 8).map((s) => `  ${s.id}  ${s.title ?? ''}`).join('\n');
  throw new SessionLookupError(`"${reference}" matches ${rows.length} sessions; name one:\n${list}`, candidates);
}

export interface ToolCallView {
  call_id: string;
  ordinal: number;
  tool: string;
  status: string;
  command: string | null;
  input: string;
  output: string | null;
  title: string | null;
  started_at: string | null;
  ended_at: string | null;
  duration_ms: number | null;
  exit_code: number | null;
  timed_out: boolean;
  truncated: boolean;
  parallel_group: string | null;
}

export interface MessageView {
  id: string;
  ordinal: number;
  role: string;
  created_at: string | null;
  completed_at: string | null;
  model: string | null;
  text: string;
  reasoning: string;
  error: string | null;
  tokens_input: number | null;
  tokens_output: number | null;
  cost: number | null;
  tool_calls: ToolCallView[];
}

export interface MessageRange {
  from?: number;
  to?: number;
}

/** Messages of a session in order, each with its tool calls, within an ordinal range. */
export async function sessionMessages(db: Database, sessionId: string, range: MessageRange = {}): Promise<MessageView[]> {
  const from = range.from ?? 1;
  const to = range.to ?? 2 ** 31 - 1;
  const messages = await db.all(
    `SELECT id, ordinal, role, created_at, completed_at, model, text, reasoning, error, tokens_input, tokens_output, cost
     FROM messages WHERE session_id = ? AND ordinal BETWEEN ? AND ? ORDER BY ordinal`,
    [sessionId, from, to],
  );
  const calls = await db.all(
    `SELECT c.message_id, c.call_id, c.ordinal, c.tool, c.status, c.command, c.input, c.output, c.title, c.started_at,
            c.ended_at, c.duration_ms, c.exit_code, c.timed_out, c.truncated, c.parallel_group
     FROM tool_calls c JOIN messages m ON m.session_id = c.session_id AND m.id = c.message_id
     WHERE c.session_id = ? AND m.ordinal BETWEEN ? AND ? ORDER BY c.ordinal`,
    [sessionId, from, to],
  );
  const byMessage = new Map<string, ToolCallView[]>();
  for (const row of calls) {
    const list = byMessage.get(String(row['message_id'])) ?? [];
    list.push({
      call_id: String(row['call_id']),
      ordinal: Number(row['ordinal']),
      tool: String(row['tool']),
      status: String(row['status']),
      command: (row['command'] as string | null) ?? null,
      input: String(row['input'] ?? '{}'),
      output: (row['output'] as string | null) ?? null,
      title: (row['title'] as string | null) ?? null,
      started_at: (row['started_at'] as string | null) ?? null,
      ended_at: (row['ended_at'] as string | null) ?? null,
      duration_ms: row['duration_ms'] === null ? null : Number(row['duration_ms']),
      exit_code: row['exit_code'] === null ? null : Number(row['exit_code']),
      timed_out: row['timed_out'] === true,
      truncated: row['truncated'] === true,
      parallel_group: (row['parallel_group'] as string | null) ?? null,
    });
    byMessage.set(String(row['message_id']), list);
  }
  return messages.map((row) => ({
    id: String(row['id']),
    ordinal: Number(row['ordinal']),
    role: String(row['role']),
    created_at: (row['created_at'] as string | null) ?? null,
    completed_at: (row['completed_at'] as string | null) ?? null,
    model: (row['model'] as string | null) ?? null,
    text: String(row['text'] ?? ''),
    reasoning: String(row['reasoning'] ?? ''),
    error: (row['error'] as string | null) ?? null,
    tokens_input: row['tokens_input'] === null ? null : Number(row['tokens_input']),
    tokens_output: row['tokens_output'] === null ? null : Number(row['tokens_output']),
    cost: row['cost'] === null ? null : Number(row['cost']),
    tool_calls: byMessage.get(String(row['id'])) ?? [],
  }));
}
