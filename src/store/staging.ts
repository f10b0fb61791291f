/**
 * Per-connection staging tables: the Appender cannot do ON CONFLICT, so a source's rows are
 * appended here first, then merged into the real tables in the same transaction.
 */
export const STAGING_TABLES = {
  stg_sessions: `id VARCHAR, agent VARCHAR, source VARCHAR, parent_id VARCHAR, title VARCHAR, directory VARCHAR,
    started_at TIMESTAMP, ended_at TIMESTAMP, model VARCHAR, extra VARCHAR, seq BIGINT`,
  stg_messages: `session_id VARCHAR, id VARCHAR, role VARCHAR, parent_id VARCHAR, created_at TIMESTAMP,
    completed_at TIMESTAMP, model VARCHAR, provider VARCHAR, tokens_input BIGINT, tokens_output BIGINT,
    tokens_reasoning BIGINT, tokens_cache_read BIGINT, tokens_cache_write BIGINT, cost DOUBLE, text VARCHAR,
    reasoning VARCHAR, error VARCHAR, extra VARCHAR, seq BIGINT`,
  stg_tool_calls: `session_id VARCHAR, message_id VARCHAR, call_id VARCHAR, tool VARCHAR, status VARCHAR,
    input VARCHAR, command VARCHAR, output VARCHAR, title VARCHAR, started_at TIMESTAMP, ended_at TIMESTAMP,
    duration_ms BIGINT, exit_code INTEGER, timed_out BOOLEAN, truncated BOOLEAN, parallel_group VARCHAR,
    extra VARCHAR, seq BIGINT`,
  stg_unknown: `session_id VARCHAR, what VARCHAR, file VARCHAR, line INTEGER, path VARCHAR, raw VARCHAR`,
  stg_problems: `file VARCHAR, line INTEGER, path VARCHAR, message VARCHAR`,
} as const;

export type StagingTable = keyof typeof STAGING_TABLES;

export function stagingDdl(): string[] {
  return Object.entries(STAGING_TABLES).map(([name, columns]) => `CREATE OR REPLACE TEMP TABLE ${name} (${columns})`);
}

const MESSAGE_VOLATILE = [
  'role', 'parent_id', 'created_at', 'completed_at', 'model', 'provider', 'tokens_input', 'tokens_output',
  'tokens_reasoning', 'tokens_cache_read', 'tokens_cache_write', 'cost', 'text', 'reasoning', 'error', 'extra',
];
const TOOL_CALL_VOLATILE = [
  'message_id', 'tool', 'status', 'input', 'command', 'output', 'title', 'started_at', 'ended_at', 'duration_ms',
  'exit_code', 'timed_out', 'truncated', 'parallel_group', 'extra',
];

function changed(columns: readonly string[]): string {
  return columns.map((c) => `t.${c} IS DISTINCT FROM s.${c}`).join(' OR ');
}

function assign(columns: readonly string[]): string {
  return columns.map((c) => `${c} = s.${c}`).join(', ');
}

/** The statements that merge staged rows; each returns the rows it changed. */
export const MERGE = {
  dedupeMessages: `CREATE OR REPLACE TEMP TABLE stg_messages_dedup AS
    SELECT * FROM stg_messages QUALIFY row_number() OVER (PARTITION BY session_id, id ORDER BY seq DESC) = 1`,
  /** The rows to merge: staging itself, or its de-duplicated copy when the source repeated records. */
  lastMessages: (deduped: boolean) =>
    `CREATE OR REPLACE TEMP VIEW stg_messages_last AS SELECT * FROM ${deduped ? 'stg_messages_dedup' : 'stg_messages'}`,
  lastToolCalls: (deduped: boolean) =>
    `CREATE OR REPLACE TEMP VIEW stg_tool_calls_last AS SELECT * FROM ${deduped ? 'stg_tool_calls_dedup' : 'stg_tool_calls'}`,
  dedupeToolCalls: `CREATE OR REPLACE TEMP TABLE stg_tool_calls_dedup AS
    SELECT * FROM stg_tool_calls QUALIFY row_number() OVER (PARTITION BY session_id, call_id ORDER BY seq DESC) = 1`,
  updateMessages: `UPDATE messages t SET ${assign(MESSAGE_VOLATILE)} FROM stg_messages_last s
    WHERE t.session_id = s.session_id AND t.id = s.id AND (${changed(MESSAGE_VOLATILE)})`,
  insertMessages: (anyExisting: boolean) => `INSERT INTO messages
    SELECT s.session_id, s.id,
      coalesce(base.max_ordinal, 0) + row_number() OVER (PARTITION BY s.session_id ORDER BY s.seq),
      s.role, s.parent_id, s.created_at, s.completed_at, s.model, s.provider, s.tokens_input, s.tokens_output,
      s.tokens_reasoning, s.tokens_cache_read, s.tokens_cache_write, s.cost, s.text, s.reasoning, s.error, s.extra
    FROM stg_messages_last s
    LEFT JOIN (SELECT session_id, max(ordinal) AS max_ordinal FROM messages
               WHERE session_id IN (SELECT DISTINCT session_id FROM stg_messages_last) GROUP BY session_id) base
      ON base.session_id = s.session_id
    ${anyExisting ? `WHERE NOT EXISTS (SELECT 1 FROM messages t WHERE t.session_id = s.session_id AND t.id = s.id)` : ''}`,
  updateToolCalls: `UPDATE tool_calls t SET ${assign(TOOL_CALL_VOLATILE)} FROM stg_tool_calls_last s
    WHERE t.session_id = s.session_id AND t.call_id = s.call_id AND (${changed(TOOL_CALL_VOLATILE)})`,
  insertToolCalls: (anyExisting: boolean) => `INSERT INTO tool_calls
    SELECT s.session_id, s.message_id, s.call_id,
      coalesce(base.max_ordinal, 0) + row_number() OVER (PARTITION BY s.session_id ORDER BY s.seq),
      s.tool, s.status, s.input, s.command, s.output, s.title, s.started_at, s.ended_at, s.duration_ms,
      s.exit_code, s.timed_out, s.truncated, s.parallel_group, s.extra
    FROM stg_tool_calls_last s
    LEFT JOIN (SELECT session_id, max(ordinal) AS max_ordinal FROM tool_calls
               WHERE session_id IN (SELECT DISTINCT session_id FROM stg_tool_calls_last) GROUP BY session_id) base
      ON base.session_id = s.session_id
    ${anyExisting ? `WHERE NOT EXISTS (SELECT 1 FROM tool_calls t WHERE t.session_id = s.session_id AND t.call_id = s.call_id)` : ''}`,
  insertSessions: `INSERT INTO sessions
    SELECT s.id, s.agent, s.source, s.parent_id, s.title, s.directory, s.started_at, s.ended_at, s.model, 0, 0, s.extra
    FROM (SELECT * FROM stg_sessions QUALIFY row_number() OVER (PARTITION BY id ORDER BY seq DESC) = 1) s
    WHERE NOT EXISTS (SELECT 1 FROM sessions t WHERE t.id = s.id)`,
  updateSessions: `UPDATE sessions t SET
      parent_id = coalesce(s.parent_id, t.parent_id), title = coalesce(s.title, t.title),
      directory = coalesce(s.directory, t.directory), model = coalesce(s.model, t.model),
      started_at = coalesce(s.started_at, t.started_at), ended_at = greatest(s.ended_at, t.ended_at),
      extra = coalesce(s.extra, t.extra)
    FROM (SELECT * FROM stg_sessions QUALIFY row_number() OVER (PARTITION BY id ORDER BY seq DESC) = 1) s
    WHERE t.id = s.id`,
  /** Counts and time span of every session this source touched, from the rows themselves. */
  refreshSessionAggregates: `UPDATE sessions t SET
      message_count = agg.messages, tool_call_count = agg.calls,
      started_at = coalesce(least(t.started_at, agg.first_at), agg.first_at, t.started_at),
      ended_at = coalesce(greatest(t.ended_at, agg.last_at), agg.last_at, t.ended_at)
    FROM (
      SELECT m.session_id,
        count(*) AS messages,
        (SELECT count(*) FROM tool_calls c WHERE c.session_id = m.session_id) AS calls,
        min(m.created_at) AS first_at,
        max(coalesce(m.completed_at, m.created_at)) AS last_at
      FROM messages m
      WHERE m.session_id IN (SELECT session_id FROM stg_messages UNION SELECT id FROM stg_sessions)
      GROUP BY m.session_id
    ) agg
    WHERE t.id = agg.session_id`,
} as const;
