import type { Database } from './database.js';
import type { Row } from './values.js';
import type { RunSummary } from '../core/run/summary.js';
import { fleetFromStored, hostListsFromStored, type Fleet } from '../core/run/fleet.js';

export type { RunSummary };

/** Reading runs back: the `retrace runs` list, one run's steps, what a resume needs. */


export interface RunStepRow {
  step_id: string;
  step_index: number;
  role: string;
  host: string | null;
  attempt: number;
  command: string | null;
  guard: string | null;
  destructive: boolean;
  guard_satisfied: boolean | null;
  status: string;
  exit_code: number | null;
  timed_out: boolean;
  started_at: string | null;
  ended_at: string | null;
  duration_ms: number | null;
  output: string | null;
  verdict: string | null;
  detail: string | null;
  /** The remote process group the attempt ran in, once the host reported it. */
  remote_pgid: number | null;
}

export interface StoredRun extends RunSummary {
  session_title: string | null;
  plan_json: string;
  /** role → the hosts it ran on, `user@host:port` (several for a fleet). */
  hosts: Record<string, string[]>;
  /** role → the hosts as named (--host, an inventory): what a resume reconnects to. */
  host_specs: Fleet;
  step_from: string | null;
  step_to: string | null;
  origin: string | null;
  pid: number | null;
  /** The `--var` values the run was started with. */
  vars: Record<string, string>;
  /** The latest attempt of every step on every host of every role. */
  step_rows: RunStepRow[];
}

const text = (value: Row[string] | undefined): string | null => (value === null || value === undefined ? null : String(value));
const num = (value: Row[string] | undefined): number | null => (value === null || value === undefined ? null : Number(value));

function processAlive(pid: number | null): boolean {
  if (pid === null) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function summaryOf(row: Row): RunSummary {
  const status = String(row['status']);
  const pid = num(row['pid']);
  return {
    id: String(row['id']),
    session_id: text(row['session_id']),
    plan: text(row['plan']),
    mode: row['mode'] === 'live' ? 'live' : 'dry',
    // A run still marked running whose process is gone was killed: say so rather than pretend.
    status: status === 'running' && row['origin'] === 'replay' && !processAlive(pid) ? 'abandoned' : status,
    started_at: text(row['started_at']),
    ended_at: text(row['ended_at']),
    steps: Number(row['step_count'] ?? 0),
    diverged: Number(row['diverged_count'] ?? 0),
  };
}

/** The latest attempt of the target (step, role, host) of the row `s`. */
const LATEST_ATTEMPT = `SELECT max(t.attempt) FROM run_steps t WHERE t.run_id = s.run_id AND t.step_id = s.step_id AND t.role = s.role AND t.host IS NOT DISTINCT FROM s.host`;

const RUN_COLUMNS = `r.*,
  (SELECT count(DISTINCT (s.step_id, s.role, coalesce(s.host, ''))) FROM run_steps s WHERE s.run_id = r.id) AS step_count,
  (SELECT count(*) FROM run_steps s WHERE s.run_id = r.id AND s.verdict = 'diverged'
     AND s.attempt = (${LATEST_ATTEMPT})) AS diverged_count`;

export async function listRuns(db: Database): Promise<RunSummary[]> {
  const rows = await db.all(`SELECT ${RUN_COLUMNS} FROM runs r ORDER BY r.started_at, r.id`);
  return rows.map(summaryOf);
}

export class RunLookupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunLookupError';
  }
}

export async function loadRun(db: Database, reference: string): Promise<StoredRun> {
  const rows = await db.all(`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.id = ? OR starts_with(r.id, ?) ORDER BY r.id LIMIT 5`, [reference, reference]);
  const exact = rows.find((row) => row['id'] === reference);
  const row = exact ?? (rows.length === 1 ? rows[0] : undefined);
  if (!row) {
    throw new RunLookupError(rows.length === 0 ? `no run matches "${reference}"; see \`retrace runs\`` : `"${reference}" matches ${rows.length} runs; name one`);
  }
  const id = String(row['id']);
  const steps = await db.all(
    `SELECT * FROM run_steps s WHERE s.run_id = ?
       AND s.attempt = (${LATEST_ATTEMPT})
     ORDER BY s.step_index, s.role, s.host`,
    [id],
  );
  return {
    ...summaryOf(row),
    session_title: text(row['session_title']),
    plan_json: String(row['plan_json'] ?? '{}'),
    hosts: hostListsFromStored(JSON.parse(String(row['hosts'] ?? '{}'))),
    host_specs: fleetFromStored(JSON.parse(String(row['host_specs'] ?? '{}'))),
    step_from: text(row['step_from']),
    step_to: text(row['step_to']),
    origin: text(row['origin']),
    pid: num(row['pid']),
    vars: JSON.parse(String(row['vars'] ?? '{}')) as Record<string, string>,
    step_rows: steps.map((step) => ({
      step_id: String(step['step_id']),
      step_index: Number(step['step_index']),
      role: String(step['role']),
      host: text(step['host']),
      attempt: Number(step['attempt']),
      command: text(step['command']),
      guard: text(step['guard']),
      destructive: step['destructive'] === true,
      guard_satisfied: step['guard_satisfied'] === null ? null : step['guard_satisfied'] === true,
      status: String(step['status']),
      exit_code: num(step['exit_code']),
      timed_out: step['timed_out'] === true,
      started_at: text(step['started_at']),
      ended_at: text(step['ended_at']),
      duration_ms: num(step['duration_ms']),
      output: text(step['output']),
      verdict: text(step['verdict']),
      detail: text(step['detail']),
      remote_pgid: num(step['remote_pgid']),
    })),
  };
}

/** What a live run waits for from its operator (`runs.waiting`, JSON), or null (also where no run records it: a lake). */
export async function runWaiting(db: Database, runId: string): Promise<string | null> {
  if (db.lake) return null;
  return text((await db.one(`SELECT waiting FROM runs WHERE id = ?`, [runId]))?.['waiting']);
}
