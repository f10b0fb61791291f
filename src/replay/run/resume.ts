import type { Plan } from '../../core/plan/schema.js';
import { stepTagOf, targetKey } from '../../core/run/record.js';
import { renderStep } from '../plan/render.js';
import type { LingeringProcess } from './remote-command.js';
import type { StepStatus } from '../../core/run/events.js';

/**
 * What a resumed run keeps from before. A target (a step on one host of a role) counts as done only when it finished (ok,
 * guarded, skipped) in the form the plan has now: a step the user fixed or changed in the plan
 * file (its rendered command or guard differs from the one recorded) runs again. A target whose
 * last attempt never reported its end (its connection was lost, retrace was killed) may still run
 * on the host: it is named in `lingering`, so the runner stops it before running the step again.
 */
export interface ResumeState {
  done: Set<string>;
  /** How each done target ended (ok, guarded, skipped). */
  doneStatus: Map<string, StepStatus>;
  attempts: Map<string, number>;
  /** Finished targets that run again because their step changed, for the user to see. */
  changed: string[];
  lingering: Map<string, LingeringProcess>;
}

export interface RecordedAttempt {
  step_id: string;
  role: string;
  /** `user@host:port` the attempt ran on: each host of a fleet resumes on its own. */
  host: string | null;
  attempt: number;
  status: string;
  command: string | null;
  guard: string | null;
  remote_pgid: number | null;
}

const FINISHED: readonly StepStatus[] = ['ok', 'guarded', 'skipped'];

function finishedStatus(status: string): StepStatus | null {
  return FINISHED.find((finished) => finished === status) ?? null;
}
const UNFINISHED = new Set(['running', 'unknown', 'interrupted']);

export function resumeStateOf(runId: string, steps: readonly RecordedAttempt[], plan: Plan, values: Readonly<Record<string, string>>): ResumeState {
  const done = new Set<string>();
  const doneStatus = new Map<string, StepStatus>();
  const attempts = new Map<string, number>();
  const changed: string[] = [];
  const lingering = new Map<string, LingeringProcess>();
  const rendered = new Map(plan.steps.map((step) => [step.id, { step, ...renderStep(step, values) }]));
  for (const row of steps) {
    const host = row.host ?? '';
    const key = targetKey(row.step_id, row.role, host);
    attempts.set(key, Math.max(attempts.get(key) ?? 0, row.attempt));
    if (UNFINISHED.has(row.status) && row.remote_pgid !== null) lingering.set(key, { pgid: row.remote_pgid, tag: stepTagOf(runId, row.step_id, row.role, host) });
    const finished = finishedStatus(row.status);
    if (finished === null) continue;
    const now = rendered.get(row.step_id);
    if (!now || !now.step.roles.includes(row.role)) continue;
    if (now.command === row.command && now.guard === row.guard) {
      done.add(key);
      doneStatus.set(key, finished);
    }
    else changed.push(`${row.step_id}@${row.role} (${host})`);
  }
  return { done, doneStatus, attempts, changed, lingering };
}
