import { targetKey } from '../../core/run/record.js';

/** What a resumed run keeps from before: targets that are finished, and the attempts so far. */
export interface ResumeState {
  done: Set<string>;
  attempts: Map<string, number>;
}

/** Statuses a resume keeps; everything else (failed, timeout, unknown, interrupted, running) runs again, guard first. */
const FINISHED = new Set(['ok', 'guarded', 'skipped']);

export function resumeStateOf(steps: readonly { step_id: string; role: string; attempt: number; status: string }[]): ResumeState {
  const done = new Set<string>();
  const attempts = new Map<string, number>();
  for (const step of steps) {
    const key = targetKey(step.step_id, step.role);
    attempts.set(key, Math.max(attempts.get(key) ?? 0, step.attempt));
    if (FINISHED.has(step.status)) done.add(key);
  }
  return { done, attempts };
}
