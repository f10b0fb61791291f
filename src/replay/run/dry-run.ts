import { renderStep } from '../plan/render.js';
import type { Plan } from '../../core/plan/schema.js';
import type { RunHeader, RunRecorder } from '../../core/run/record.js';

/**
 * A dry run touches no host: it records what a live run would do (every step on every role, as
 * `planned`, on each host named for it), so `retrace runs` and the session views list it next to live runs.
 */
export async function recordDryRun(
  header: RunHeader,
  plan: Plan,
  values: Readonly<Record<string, string>>,
  range: { first: number; last: number },
  recorder: RunRecorder,
  now: () => number = Date.now,
): Promise<void> {
  await recorder.runStarted(header);
  for (const [index, step] of plan.steps.entries()) {
    if (index < range.first || index > range.last) continue;
    const rendered = renderStep(step, values);
    for (const [role, host] of step.roles.flatMap((role) => (header.hosts[role]?.length ? header.hosts[role] : ['(none given)']).map((host) => [role, host] as const))) {
      const at = now();
      const start = {
        runId: header.id,
        stepId: step.id,
        stepIndex: index,
        description: step.description,
        role,
        host,
        attempt: 1,
        command: rendered.command,
        guard: rendered.guard,
        destructive: step.destructive,
        startedAt: at,
      };
      await recorder.stepStarted(start);
      await recorder.stepFinished({ ...start, status: 'planned', exitCode: null, timedOut: false, guardSatisfied: null, endedAt: at, output: '', verdict: null, detail: 'dry run: not executed' });
    }
  }
  await recorder.runFinished(header.id, 'ok', now());
}
