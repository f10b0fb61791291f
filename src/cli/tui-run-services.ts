import { planSchema, recordedCallOf } from '../core/plan/schema.js';
import { listRuns, loadRun } from '../store/run-queries.js';
import type { Database } from '../store/database.js';
import { recordedCalls, tableExists, type RecordedCall } from '../store/view-queries.js';
import type { RunRow, RunStepRow } from '../tui/services.js';

/** Runs for the TUI: the stored runs, and each step beside what the transcript recorded for it. */
export async function listRunRows(db: Database): Promise<RunRow[]> {
  if (!(await tableExists(db, 'run_steps'))) return [];
  return (await listRuns(db)).map((run) => ({ ...run }));
}

const EXCERPT_CHARS = 600;
/** How much of each output run vs record sets side by side: the end of both, as the run keeps a tail. */
export const COMPARED_OUTPUT_CHARS = 64 * 1024;

/** The last `chars` of a text of `total` characters, from a line start, saying how much came before. */
function outputEnd(text: string | null, chars: number, total = text?.length ?? 0): string | null {
  if (text === null || total <= chars) return text;
  const cut = text.slice(-chars);
  const from = cut.indexOf('\n') + 1;
  return `[… ${total - cut.length + from} characters before this …]\n${cut.slice(from)}`;
}

/** The recorded tool call of each plan step on each role (a role's own, see `recordedCallOf`), by `step\0role`. */
async function recordedByStep(db: Database, sessionId: string | null, planJson: string): Promise<Map<string, RecordedCall>> {
  const plan = planSchema.safeParse(JSON.parse(planJson || '{}'));
  if (!sessionId || !plan.success) return new Map();
  const callOf = new Map<string, string>();
  for (const step of plan.data.steps) {
    for (const role of step.roles) {
      const callId = recordedCallOf(step, role).call_id;
      if (callId) callOf.set(`${step.id}\u0000${role}`, callId);
    }
  }
  const calls = await recordedCalls(db, sessionId, [...new Set(callOf.values())], EXCERPT_CHARS, COMPARED_OUTPUT_CHARS);
  const byStep = new Map<string, RecordedCall>();
  for (const [key, callId] of callOf) {
    const call = calls.get(callId);
    if (call) byStep.set(key, call);
  }
  return byStep;
}

export async function runStepRows(db: Database, runId: string): Promise<RunStepRow[]> {
  const run = await loadRun(db, runId);
  const recorded = await recordedByStep(db, run.session_id, run.plan_json);
  const fleet = (role: string): boolean => (run.hosts[role]?.length ?? 0) > 1;
  return run.step_rows.map((step) => ({
    ...(fleet(step.role) && step.host ? { fleet_host: step.host.replace(/^[^@]*@/, '') } : {}),
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
    output: outputEnd(step.output, COMPARED_OUTPUT_CHARS),
    recorded: recordedOf(recorded.get(`${step.step_id}\u0000${step.role}`)),
  }));
}

function recordedOf(call: RecordedCall | undefined): RunStepRow['recorded'] {
  return call ? { ...call, output: outputEnd(call.output, COMPARED_OUTPUT_CHARS, call.output_chars) } : null;
}
