import type { Migration } from '../migrations.js';

/**
 * The tables users query with plain SQL (documented in the README). Times are UTC TIMESTAMPs;
 * JSON travels as VARCHAR so every DuckDB JSON function applies (`input->>'command'`).
 */
export const CORE_SCHEMA: Migration = {
  version: 1,
  description: 'sources, sessions, messages, tool calls, unknown records, ingest problems',
  statements: [
    `CREATE TABLE sources (
      key VARCHAR NOT NULL,
      path VARCHAR NOT NULL,
      format VARCHAR NOT NULL,
      size BIGINT,
      content_hash VARCHAR,
      bytes_consumed BIGINT,
      lines_consumed BIGINT,
      prefix_hash VARCHAR,
      ingested_at TIMESTAMP NOT NULL,
      messages INTEGER,
      tool_calls INTEGER,
      unknown_records INTEGER,
      problems INTEGER,
      redactions INTEGER
    )`,
    `CREATE TABLE sessions (
      id VARCHAR NOT NULL,
      agent VARCHAR NOT NULL,
      source VARCHAR,
      parent_id VARCHAR,
      title VARCHAR,
      directory VARCHAR,
      started_at TIMESTAMP,
      ended_at TIMESTAMP,
      model VARCHAR,
      message_count INTEGER,
      tool_call_count INTEGER,
      extra VARCHAR
    )`,
    `CREATE TABLE messages (
      session_id VARCHAR NOT NULL,
      id VARCHAR NOT NULL,
      ordinal INTEGER NOT NULL,
      role VARCHAR,
      parent_id VARCHAR,
      created_at TIMESTAMP,
      completed_at TIMESTAMP,
      model VARCHAR,
      provider VARCHAR,
      tokens_input BIGINT,
      tokens_output BIGINT,
      tokens_reasoning BIGINT,
      tokens_cache_read BIGINT,
      tokens_cache_write BIGINT,
      cost DOUBLE,
      text VARCHAR,
      reasoning VARCHAR,
      error VARCHAR,
      extra VARCHAR
    )`,
    `CREATE TABLE tool_calls (
      session_id VARCHAR NOT NULL,
      message_id VARCHAR NOT NULL,
      call_id VARCHAR NOT NULL,
      ordinal INTEGER NOT NULL,
      tool VARCHAR,
      status VARCHAR,
      input VARCHAR,
      command VARCHAR,
      output VARCHAR,
      title VARCHAR,
      started_at TIMESTAMP,
      ended_at TIMESTAMP,
      duration_ms BIGINT,
      exit_code INTEGER,
      timed_out BOOLEAN,
      truncated BOOLEAN,
      parallel_group VARCHAR,
      extra VARCHAR
    )`,
    `CREATE TABLE unknown_records (
      source VARCHAR NOT NULL,
      session_id VARCHAR,
      what VARCHAR NOT NULL,
      file VARCHAR,
      line INTEGER,
      path VARCHAR,
      raw VARCHAR
    )`,
    `CREATE TABLE ingest_problems (
      source VARCHAR NOT NULL,
      file VARCHAR,
      line INTEGER,
      path VARCHAR,
      message VARCHAR NOT NULL,
      recorded_at TIMESTAMP NOT NULL
    )`,
  ],
};
