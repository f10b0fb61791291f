import { planSchema } from '../replay/plan/schema.js';
import { listRuns, loadRun } from '../store/run-queries.js';
import type { Database } from '../store/database.js';
import type { RunRow, RunStepRow } from '../tui/services.js';

/** Runs for the TUI: the stored runs, and each step beside what the transcript recorded for it. */
export async function listRunRows(db: Database): Promise<RunRow[]> {
  if (!(await hasRunTables(db))) return [];
  return (await listRuns(db)).map((run) => ({ ...run }));
}

async function hasRunTables(db: Database): Promise<boolean> {
  return Number(await db.scalar(`SELECT count(*) FROM information_schema.tables WHERE table_name = 'run_steps'`)) > 0;
}

const EXCERPT_CHARS = 600;

interface Recorded {
  exit_code: number | null;
  duration_ms: number | null;
  output_excerpt: string | null;
}

/** The recorded tool call of each plan step (the plan names it as `source.call_id`). */
async function recordedCalls(db: Database, sessionId: string | null, planJson: string): Promise<Map<string, Recorded>> {
  const recorded = new Map<string, Recorded>();
  const plan = planSchema.safeParse(JSON.parse(planJson || '{}'));
  if (!sessionId || !plan.success) return recorded;
  for (const step of plan.data.steps) {
    const callId = step.source.call_id;
    if (!callId) continue;
    const row = await db.one(
      `SELECT exit_code, duration_ms, left(rtrim(coalesce(output, ''), chr(10)), ${EXCERPT_CHARS}) AS excerpt FROM tool_calls WHERE session_id = ? AND call_id = ?`,
      [sessionId, callId],
    );
    if (!row) continue;
    recorded.set(step.id, {
      exit_code: row['exit_code'] === null ? null : Number(row['exit_code']),
      duration_ms: row['duration_ms'] === null ? null : Number(row['duration_ms']),
      output_excerpt: row['excerpt'] === null ? null : String(row['excerpt']),
    });
  }
  return recorded;
}

export async function runStepRows(db: Database, runId: string): Promise<RunStepRow[]> {
  const run = await loadRun(db, runId);
  const recorded = await recordedCalls(db, run.session_id, run.plan_json);
  return run.step_rows.map((step) => ({
    step_id: step.step_id,
    ordinal: step.step_index,
    role: step.role,
    host: step.host,
    command: step.command ?? '',
    status: step.status,
    exit_code: step.exit_code,
    duration_ms: step.duration_ms,
    verdict: step.verdict,
    detail: step.detail,
    recorded: recorded.get(step.step_id) ?? null,
  }));
}
