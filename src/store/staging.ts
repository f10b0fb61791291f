/**
 * Staging for rows that must be merged rather than appended: rows of sessions the store already
 * holds (a source read again), and repeats within one source. The Appender cannot do ON CONFLICT,
 * so such rows go to per-connection temp tables shaped like the real ones (in `ordinal` they carry
 * their arrival order) and are merged at commit, in the source's transaction. A group of small
 * sources shares one set (unknown records and problems say which source they are of).
 */
export const STAGING_DDL: readonly string[] = [
  `CREATE OR REPLACE TEMP TABLE stg_sessions (id VARCHAR, agent VARCHAR, source VARCHAR, parent_id VARCHAR,
    title VARCHAR, directory VARCHAR, started_at TIMESTAMP, ended_at TIMESTAMP, model VARCHAR, extra VARCHAR, seq BIGINT)`,
  `CREATE OR REPLACE TEMP TABLE stg_messages AS SELECT * FROM main.messages LIMIT 0`,
  `CREATE OR REPLACE TEMP TABLE stg_tool_calls AS SELECT * FROM main.tool_calls LIMIT 0`,
  `CREATE OR REPLACE TEMP TABLE stg_unknown (source VARCHAR, session_id VARCHAR, what VARCHAR, file VARCHAR, line INTEGER, path VARCHAR, raw VARCHAR)`,
  `CREATE OR REPLACE TEMP TABLE stg_problems (source VARCHAR, file VARCHAR, line INTEGER, path VARCHAR, message VARCHAR)`,
  `CREATE OR REPLACE TEMP TABLE stg_touched (session_id VARCHAR)`,
];

export const STAGING_TABLES = ['stg_sessions', 'stg_messages', 'stg_tool_calls', 'stg_unknown', 'stg_problems', 'stg_touched'] as const;
export type StagingTable = (typeof STAGING_TABLES)[number];

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

function columns(list: readonly string[], prefix: string): string {
  return list.map((c) => `${prefix}${c}`).join(', ');
}

/** Staged rows, their last version per key (a source may repeat a record: the last one wins). */
const LAST_MESSAGES = `(SELECT * FROM stg_messages QUALIFY row_number() OVER (PARTITION BY session_id, id ORDER BY ordinal DESC) = 1)`;
const LAST_CALLS = `(SELECT * FROM stg_tool_calls QUALIFY row_number() OVER (PARTITION BY session_id, call_id ORDER BY ordinal DESC) = 1)`;
/** Each source's last version of each session it staged (in a group, several sources may stage one session). */
const SOURCE_SESSIONS = `(SELECT * FROM stg_sessions QUALIFY row_number() OVER (PARTITION BY id, source ORDER BY seq DESC) = 1)`;
/** A session new to the store is inserted as its first source wrote it (the sources after it update it). */
const FIRST_SESSIONS = `(SELECT * FROM ${SOURCE_SESSIONS} QUALIFY row_number() OVER (PARTITION BY id ORDER BY seq) = 1)`;
const lastKnown = (column: string): string => `arg_max(${column}, seq) FILTER (WHERE ${column} IS NOT NULL) AS ${column}`;
/**
 * The sessions' sources folded in order, as if each had been stored after the one before: the
 * last value known of each field, the latest end.
 */
const FOLDED_SESSIONS = `(SELECT id, ${['parent_id', 'title', 'directory', 'model', 'started_at', 'extra'].map(lastKnown).join(', ')},
    max(ended_at) AS ended_at FROM ${SOURCE_SESSIONS} GROUP BY id)`;

/** The statements that merge staged rows; each returns the rows it changed. */
export const MERGE = {
  updateMessages: `UPDATE messages t SET ${assign(MESSAGE_VOLATILE)} FROM ${LAST_MESSAGES} s
    WHERE t.session_id = s.session_id AND t.id = s.id AND (${changed(MESSAGE_VOLATILE)})`,
  /** New rows continue their session's ordinals, in arrival order. */
  insertMessages: `INSERT INTO messages
    SELECT s.session_id, s.id, coalesce(base.max_ordinal, 0) + row_number() OVER (PARTITION BY s.session_id ORDER BY s.ordinal),
      ${columns(MESSAGE_VOLATILE, 's.')}
    FROM ${LAST_MESSAGES} s
    LEFT JOIN (SELECT session_id, max(ordinal) AS max_ordinal FROM messages
               WHERE session_id IN (SELECT DISTINCT session_id FROM stg_messages) GROUP BY session_id) base
      ON base.session_id = s.session_id
    WHERE NOT EXISTS (SELECT 1 FROM messages t WHERE t.session_id = s.session_id AND t.id = s.id)`,
  updateToolCalls: `UPDATE tool_calls t SET ${assign(TOOL_CALL_VOLATILE)} FROM ${LAST_CALLS} s
    WHERE t.session_id = s.session_id AND t.call_id = s.call_id AND (${changed(TOOL_CALL_VOLATILE)})`,
  insertToolCalls: `INSERT INTO tool_calls
    SELECT s.session_id, s.message_id, s.call_id,
      coalesce(base.max_ordinal, 0) + row_number() OVER (PARTITION BY s.session_id ORDER BY s.ordinal),
      ${columns(TOOL_CALL_VOLATILE.filter((c) => c !== 'message_id'), 's.')}
    FROM ${LAST_CALLS} s
    LEFT JOIN (SELECT session_id, max(ordinal) AS max_ordinal FROM tool_calls
               WHERE session_id IN (SELECT DISTINCT session_id FROM stg_tool_calls) GROUP BY session_id) base
      ON base.session_id = s.session_id
    WHERE NOT EXISTS (SELECT 1 FROM tool_calls t WHERE t.session_id = s.session_id AND t.call_id = s.call_id)`,
  insertSessions: `INSERT INTO sessions (id, agent, source, parent_id, title, directory, started_at, ended_at, model, message_count, tool_call_count, extra)
    SELECT s.id, s.agent, s.source, s.parent_id, s.title, s.directory, s.started_at, s.ended_at, s.model, 0, 0, s.extra
    FROM ${FIRST_SESSIONS} s
    WHERE NOT EXISTS (SELECT 1 FROM sessions t WHERE t.id = s.id)`,
  /** Run after insertSessions: a session a group's first source inserted takes what the later ones know. */
  updateSessions: `UPDATE sessions t SET
      parent_id = coalesce(s.parent_id, t.parent_id), title = coalesce(s.title, t.title),
      directory = coalesce(s.directory, t.directory), model = coalesce(s.model, t.model),
      started_at = coalesce(s.started_at, t.started_at), ended_at = greatest(s.ended_at, t.ended_at),
      extra = coalesce(s.extra, t.extra)
    FROM ${FOLDED_SESSIONS} s
    WHERE t.id = s.id`,
  /** Counts and time span of every session this source touched, from the rows themselves. */
  refreshSessionAggregates: `UPDATE sessions t SET
      message_count = agg.messages, tool_call_count = coalesce(calls.n, 0),
      started_at = coalesce(least(t.started_at, agg.first_at), agg.first_at, t.started_at),
      ended_at = coalesce(greatest(t.ended_at, agg.last_at), agg.last_at, t.ended_at)
    FROM (
      SELECT session_id, count(*) AS messages, min(created_at) AS first_at, max(coalesce(completed_at, created_at)) AS last_at
      FROM messages WHERE session_id IN (SELECT session_id FROM stg_touched) GROUP BY session_id
    ) agg
    LEFT JOIN (
      SELECT session_id, count(*) AS n FROM tool_calls WHERE session_id IN (SELECT session_id FROM stg_touched) GROUP BY session_id
    ) calls ON calls.session_id = agg.session_id
    WHERE t.id = agg.session_id`,
} as const;
