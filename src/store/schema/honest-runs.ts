import type { Migration } from '../migrations.js';

/**
 * Records that stay honest. A dry run is a run only: older stores also wrote it as a session (with
 * its messages, tool calls and derived rows), where it hid the real sessions from `why`, `timings`
 * and `sessions`; those rows go. A run keeps the `--var` values it was started with (a resume
 * runs with them again), and each step attempt the remote process group it ran in (a resume stops
 * one that outlived retrace before running the step again).
 */
const DRY_RUNS = `(SELECT id FROM runs WHERE mode = 'dry')`;
const SESSION_TABLES = ['tool_calls', 'messages', 'commands', 'actions', 'candidates', 'pivots', 'trees', 'derive_failures'];

export const HONEST_RUNS_SCHEMA: Migration = {
  version: 5,
  description: 'dry runs are runs only; runs.vars; run_steps.remote_pgid',
  statements: [
    `ALTER TABLE runs ADD COLUMN vars VARCHAR`,
    `ALTER TABLE run_steps ADD COLUMN remote_pgid INTEGER`,
    ...SESSION_TABLES.map((table) => `DELETE FROM ${table} WHERE session_id IN ${DRY_RUNS}`),
    `DELETE FROM sessions WHERE id IN ${DRY_RUNS}`,
  ],
};
