import type { RunItem } from '../core/model.js';
import type { RunHeader, RunStatus, StepFinish, StepStart } from '../core/run/record.js';
import type { Database } from './database.js';

/**
 * Writes replay runs: into `runs`/`run_steps`, and a live run also as a session of agent `retrace`
 * (a message per step, a tool call per host execution) so the views of past sessions show what
 * really ran. A dry run ran nothing: it is a run only, never a session that `sessions`, `timings`,
 * `why` or a tree would count. Every call is one small transaction; calls are queued, so parallel
 * steps never interleave two transactions.
 */

const ts = (param: string): string => `epoch_ms(CAST(${param} AS BIGINT))`;

export function messageIdOf(runId: string, stepId: string): string {
  return `${runId}/${stepId}`;
}

/** A tool call per host execution: `run/step/role/attempt`, with `@host` when the role has several hosts. */
export function callIdOf(step: Pick<StepStart, 'runId' | 'stepId' | 'role' | 'host' | 'attempt'>, fleet = false): string {
  return `${step.runId}/${step.stepId}/${step.role}${fleet ? `@${step.host}` : ''}/${step.attempt}`;
}

/** The rows of one target's attempt: a step on one host of one role. */
const TARGET_WHERE = `run_id = ? AND step_id = ? AND role = ? AND host IS NOT DISTINCT FROM ? AND attempt = ?`;
const targetParams = (step: Pick<StepStart, 'runId' | 'stepId' | 'role' | 'host' | 'attempt'>): (string | number)[] => [step.runId, step.stepId, step.role, step.host, step.attempt];

/** Whether the run sends this role to several hosts (then its call ids name the host). */
async function roleIsFleet(db: Database, runId: string, role: string): Promise<boolean> {
  const hosts = await db.scalar(`SELECT hosts FROM runs WHERE id = ?`, [runId]);
  try {
    const list = (JSON.parse(String(hosts ?? '{}')) as Record<string, unknown>)[role];
    return Array.isArray(list) && list.length > 1;
  } catch {
    return false;
  }
}

function callStatus(status: string): string {
  if (status === 'running') return 'running';
  return status === 'ok' || status === 'guarded' || status === 'skipped' || status === 'planned' ? 'completed' : 'error';
}

export async function inTransaction(db: Database, work: () => Promise<void>): Promise<void> {
  await db.run('BEGIN TRANSACTION');
  try {
    await work();
    await db.run('COMMIT');
  } catch (error) {
    await db.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Session counts and end time, recomputed from the rows (cheap: one session). */
async function refreshSession(db: Database, runId: string): Promise<void> {
  await db.run(
    `UPDATE sessions SET
       message_count = (SELECT count(*) FROM messages WHERE session_id = ?),
       tool_call_count = (SELECT count(*) FROM tool_calls WHERE session_id = ?),
       ended_at = (SELECT max(coalesce(completed_at, created_at)) FROM messages WHERE session_id = ?)
     WHERE id = ?`,
    [runId, runId, runId, runId],
  );
}

/** The rows a run header stands for; used by the recorder and by the run-log import. */
export async function writeRunHeader(db: Database, header: RunHeader): Promise<void> {
  await db.run(
    `INSERT INTO runs (id, session_id, session_title, plan, plan_json, mode, status, hosts, host_specs, step_from, step_to, started_at, ended_at, diverged, pid, origin, resumed_at, vars)
     VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ${ts('?')}, NULL, 0, ?, ?, NULL, ?)`,
    [
      header.id,
      header.sessionId,
      header.sessionTitle,
      header.planLabel,
      header.planJson,
      header.mode,
      JSON.stringify(header.hosts),
      JSON.stringify(header.hostSpecs),
      header.stepFrom,
      header.stepTo,
      header.startedAt,
      header.pid,
      header.origin,
      JSON.stringify(header.vars ?? {}),
    ],
  );
  if (header.mode === 'dry') return;
  await db.run(
    `INSERT INTO sessions (id, agent, source, parent_id, title, directory, started_at, ended_at, model, message_count, tool_call_count, extra)
     VALUES (?, 'retrace', ?, NULL, ?, NULL, ${ts('?')}, NULL, NULL, 0, 0, ?)`,
    [
      header.id,
      header.origin,
      `replay of ${header.sessionTitle ?? header.sessionId}`,
      header.startedAt,
      JSON.stringify({ run_id: header.id, replay_of: header.sessionId, mode: header.mode, plan: header.planLabel, hosts: header.hosts }),
    ],
  );
}

/** Whether a run has a session beside it (live runs do, dry runs do not). */
async function hasSession(db: Database, runId: string): Promise<boolean> {
  return (await db.all(`SELECT 1 FROM sessions WHERE id = ?`, [runId])).length > 0;
}

export async function writeStepStart(db: Database, step: StepStart): Promise<void> {
  const messageId = messageIdOf(step.runId, step.stepId);
  const callId = callIdOf(step, await roleIsFleet(db, step.runId, step.role));
  await db.run(`DELETE FROM run_steps WHERE ${TARGET_WHERE}`, targetParams(step));
  await db.run(
    `INSERT INTO run_steps (run_id, step_id, step_index, role, host, attempt, description, command, guard, destructive, guard_satisfied, status, exit_code, timed_out, started_at, ended_at, duration_ms, output, verdict, detail, call_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 'running', NULL, false, ${ts('?')}, NULL, NULL, NULL, NULL, NULL, ?)`,
    [step.runId, step.stepId, step.stepIndex, step.role, step.host, step.attempt, step.description, step.command, step.guard, step.destructive, step.startedAt, callId],
  );
  if (!(await hasSession(db, step.runId))) return;
  await db.run(
    `INSERT INTO messages (session_id, id, ordinal, role, created_at, text, reasoning)
     SELECT ?, ?, ?, 'assistant', ${ts('?')}, ?, ''
     WHERE NOT EXISTS (SELECT 1 FROM messages WHERE session_id = ? AND id = ?)`,
    [step.runId, messageId, step.stepIndex + 1, step.startedAt, `${step.stepId}: ${step.description || step.command.split('\n')[0]}`, step.runId, messageId],
  );
  await db.run(`DELETE FROM tool_calls WHERE session_id = ? AND call_id = ?`, [step.runId, callId]);
  await db.run(
    `INSERT INTO tool_calls (session_id, message_id, call_id, ordinal, tool, status, input, command, title, started_at, timed_out, truncated)
     VALUES (?, ?, ?, (SELECT coalesce(max(ordinal), 0) + 1 FROM tool_calls WHERE session_id = ?), 'ssh', 'running', ?, ?, ?, ${ts('?')}, false, false)`,
    [
      step.runId,
      messageId,
      callId,
      step.runId,
      JSON.stringify({ role: step.role, host: step.host, command: step.command, guard: step.guard, destructive: step.destructive, attempt: step.attempt }),
      step.command,
      `${step.stepId} on ${step.role} (${step.host})`,
      step.startedAt,
    ],
  );
  await refreshSession(db, step.runId);
}

export async function writeStepFinish(db: Database, step: StepFinish): Promise<void> {
  const callId = callIdOf(step, await roleIsFleet(db, step.runId, step.role));
  await db.run(
    `UPDATE run_steps SET status = ?, exit_code = ?, timed_out = ?, guard_satisfied = ?, ended_at = ${ts('?')}, duration_ms = ?,
       output = ?, verdict = ?, detail = ?
     WHERE ${TARGET_WHERE}`,
    [step.status, step.exitCode, step.timedOut, step.guardSatisfied, step.endedAt, step.endedAt - step.startedAt, step.output, step.verdict, step.detail, ...targetParams(step)],
  );
  if (!(await hasSession(db, step.runId))) return;
  await db.run(
    `UPDATE tool_calls SET status = ?, output = ?, ended_at = ${ts('?')}, duration_ms = ?, exit_code = ?, timed_out = ?,
       extra = ?
     WHERE session_id = ? AND call_id = ?`,
    [callStatus(step.status), step.output, step.endedAt, step.endedAt - step.startedAt, step.exitCode, step.timedOut, JSON.stringify({ status: step.status, verdict: step.verdict, detail: step.detail, guard_satisfied: step.guardSatisfied }), step.runId, callId],
  );
  const summary = `${step.role} ${step.host}: ${step.status}${step.verdict ? ` (${step.verdict}${step.detail ? `: ${step.detail}` : ''})` : ''}`;
  await db.run(
    `UPDATE messages SET completed_at = greatest(coalesce(completed_at, ${ts('?')}), ${ts('?')}), text = text || chr(10) || ?
     WHERE session_id = ? AND id = ?`,
    [step.endedAt, step.endedAt, summary, step.runId, messageIdOf(step.runId, step.stepId)],
  );
  await refreshSession(db, step.runId);
}

/** Ends a run; `diverged` counts the latest attempt of every target, over all of the run's sessions. */
export async function writeRunEnd(db: Database, runId: string, status: RunStatus, endedAt: number): Promise<void> {
  await db.run(
    `UPDATE runs SET status = ?, ended_at = ${ts('?')}, waiting = NULL,
       diverged = (SELECT count(*) FROM run_steps s WHERE s.run_id = ? AND s.verdict = 'diverged'
         AND s.attempt = (SELECT max(t.attempt) FROM run_steps t WHERE t.run_id = s.run_id AND t.step_id = s.step_id AND t.role = s.role AND t.host IS NOT DISTINCT FROM s.host))
     WHERE id = ?`,
    [status, endedAt, runId, runId],
  );
  await db.run(`UPDATE sessions SET ended_at = greatest(coalesce(ended_at, ${ts('?')}), ${ts('?')}) WHERE id = ?`, [endedAt, endedAt, runId]);
}

export { StoreRunRecorder } from './run-recorder.js';

/** Two runs never share an id: an imported run log whose id the store holds from elsewhere is refused. */
export class RunIdTakenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunIdTakenError';
  }
}

/**
 * A run read from an exported script's log: its `runs` and `run_steps` rows. The same log read
 * again (it grew, or changed) replaces its earlier import; a run of that id from anywhere else (a
 * live replay, another log) is never merged with it: the source is refused, and says why.
 */
export async function writeImportedRun(db: Database, item: RunItem): Promise<void> {
  const { run, steps } = item;
  const [taken] = await db.all(`SELECT origin FROM runs WHERE id = ?`, [run.id]);
  if (taken && taken['origin'] !== run.origin) {
    const from = String(taken['origin'] ?? 'replay');
    throw new RunIdTakenError(
      `run ${run.id} is already in the store (from ${from === 'replay' ? 'a replay of this machine' : from.replace(/^runlog:/, 'the run log ')}); ` +
        'two runs are never merged, so this run log was not imported (a copy of the same log, or a run id written by hand? give its first line another run_id)',
    );
  }
  await db.run(`DELETE FROM run_steps WHERE run_id = ?`, [run.id]);
  await db.run(`DELETE FROM runs WHERE id = ?`, [run.id]);
  await db.run(
    `INSERT INTO runs (id, session_id, session_title, plan, plan_json, mode, status, hosts, host_specs, step_from, step_to, started_at, ended_at, diverged, pid, origin, resumed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ${ts('?')}, ${ts('?')}, 0, NULL, ?, NULL)`,
    [run.id, run.sessionId, run.sessionTitle, run.planLabel, run.planJson, run.mode, run.status, JSON.stringify(run.hosts), JSON.stringify(Object.fromEntries(Object.entries(run.hosts).map(([role, list]) => [role, list.map((spec) => ({ spec }))]))), run.startedAt, run.endedAt, run.origin],
  );
  for (const step of steps) {
    await db.run(
      `INSERT INTO run_steps (run_id, step_id, step_index, role, host, attempt, description, command, guard, destructive, guard_satisfied, status, exit_code, timed_out, started_at, ended_at, duration_ms, output, verdict, detail, call_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${ts('?')}, ${ts('?')}, ?, ?, ?, ?, ?)`,
      [
        run.id,
        step.stepId,
        step.stepIndex,
        step.role,
        step.host,
        step.attempt,
        step.description,
        step.command,
        step.guard,
        step.destructive,
        step.guardSatisfied,
        step.status,
        step.exitCode,
        step.timedOut,
        step.startedAt,
        step.endedAt,
        step.endedAt === null ? null : step.endedAt - step.startedAt,
        step.output,
        step.verdict,
        step.detail,
        step.callId,
      ],
    );
  }
  await db.run(
    `UPDATE runs SET diverged = (SELECT count(*) FROM run_steps WHERE run_id = ? AND verdict = 'diverged') WHERE id = ?`,
    [run.id, run.id],
  );
}
