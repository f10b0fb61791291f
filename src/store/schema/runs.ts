import type { Migration } from '../migrations.js';

/**
 * Replays (dry and live). A run is also written as a session (agent `retrace`, id = run id) whose
 * messages are its steps and whose tool calls are the per-host executions, so every view and
 * query of past sessions works on runs; these two tables hold what only a replay has: the plan,
 * the hosts, the guard, the verdict against the record. Rows are written as each step starts
 * and again as it finishes, each in its own transaction: a killed run is a readable partial run.
 */
export const RUNS_SCHEMA: Migration = {
  version: 3,
  description: 'replay runs and their steps',
  statements: [
    `CREATE TABLE runs (
      id VARCHAR NOT NULL,
      session_id VARCHAR,
      session_title VARCHAR,
      plan VARCHAR,
      plan_json VARCHAR,
      mode VARCHAR NOT NULL,
      status VARCHAR NOT NULL,
      hosts VARCHAR,
      host_specs VARCHAR,
      step_from VARCHAR,
      step_to VARCHAR,
      started_at TIMESTAMP,
      ended_at TIMESTAMP,
      diverged INTEGER,
      pid INTEGER,
      origin VARCHAR,
      resumed_at TIMESTAMP
    )`,
    `CREATE TABLE run_steps (
      run_id VARCHAR NOT NULL,
      step_id VARCHAR NOT NULL,
      step_index INTEGER NOT NULL,
      role VARCHAR NOT NULL,
      host VARCHAR,
      attempt INTEGER NOT NULL,
      description VARCHAR,
      command VARCHAR,
      guard VARCHAR,
      destructive BOOLEAN,
      guard_satisfied BOOLEAN,
      status VARCHAR NOT NULL,
      exit_code INTEGER,
      timed_out BOOLEAN,
      started_at TIMESTAMP,
      ended_at TIMESTAMP,
      duration_ms BIGINT,
      output VARCHAR,
      verdict VARCHAR,
      detail VARCHAR,
      call_id VARCHAR
    )`,
  ],
};
