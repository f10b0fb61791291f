import { batchesOf, renderStep } from '../plan/render.js';
import type { Plan, PlanStep } from '../../core/plan/schema.js';
import type { ReplayController } from './controller.js';
import type { StepResult, StepStatus, StepTarget } from '../../core/run/events.js';
import type { HostExecutor } from './host-executor.js';
import { targetKey, type RunHeader, type RunRecorder, type StepFinish, type StepStart } from '../../core/run/record.js';
import { secretsReferenced } from './remote-command.js';
import { judge, meetsExpectation, runStatusOf, type ExecOutcome } from '../../core/run/verdict.js';

/**
 * The live run: steps in plan order, each on all of its roles' hosts at once; independent steps
 * together. For every host: record the start, evaluate the guard, run (polling when the step
 * says so), judge against the record, record the end. A failure stops the run (or, with
 * `holdOnFailure`, waits for a watcher to retry or go on); a lost connection is `unknown` and is
 * never retried by the runner itself.
 */

export interface RunnerInput {
  header: RunHeader;
  plan: Plan;
  controller: ReplayController;
  executors: ReadonlyMap<string, HostExecutor>;
  values: Readonly<Record<string, string>>;
  /** Secret values by name, read from the environment by the caller. */
  secrets: Readonly<Record<string, string>>;
  range: { first: number; last: number };
  /** Targets a resumed run already finished (ok, guarded, skipped): not run again. */
  done: ReadonlySet<string>;
  /** Attempts already recorded per target (a resume continues the count). */
  attempts: Map<string, number>;
  autoConfirm: boolean;
  holdOnFailure: boolean;
  recorder: RunRecorder;
  /** Set when continuing a recorded run rather than starting one. */
  resumed: boolean;
  guardTimeoutMs?: number;
  now?: () => number;
}

const FAILED: readonly StepStatus[] = ['failed', 'timeout', 'unknown', 'interrupted'];

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

export async function runPlan(input: RunnerInput): Promise<{ status: string; diverged: number }> {
  const { plan, controller, header } = input;
  const now = input.now ?? Date.now;
  const inRange = plan.steps.filter((_, index) => index >= input.range.first && index <= input.range.last);
  const targets: StepTarget[] = inRange.flatMap((step) =>
    step.roles.map((role) => ({ stepId: step.id, role, host: input.executors.get(role)?.display ?? '?' })),
  );
  if (input.resumed) await input.recorder.runResumed(header.id, header.hosts, now(), header.pid);
  else await input.recorder.runStarted(header);
  controller.emit({ type: 'run-started', runId: header.id, mode: 'live', steps: targets });

  const latest = new Map<string, StepStatus>();
  let diverged = 0;

  const runTarget = async (step: PlanStep, role: string): Promise<StepResult> => {
    const executor = input.executors.get(role);
    const key = targetKey(step.id, role);
    const attempt = (input.attempts.get(key) ?? 0) + 1;
    input.attempts.set(key, attempt);
    const rendered = renderStep(step, input.values);
    const target: StepTarget = { stepId: step.id, role, host: executor?.display ?? '?' };
    const start: StepStart = {
      runId: header.id,
      stepId: step.id,
      stepIndex: plan.steps.indexOf(step),
      description: step.description,
      role,
      host: target.host,
      attempt,
      command: rendered.command,
      guard: rendered.guard,
      destructive: step.destructive,
      startedAt: now(),
    };
    await input.recorder.stepStarted(start);
    controller.emit({ type: 'step-started', target, command: rendered.command, destructive: step.destructive });

    const secretsFor = (text: string): Record<string, string> =>
      Object.fromEntries(secretsReferenced(text, Object.keys(input.secrets)).map((name) => [name, input.secrets[name] ?? '']));
    let guardSatisfied: boolean | null = null;
    let outcome: ExecOutcome | null = null;
    let status: StepStatus;
    let verdict: StepResult['verdict'] = null;
    let detail: string | null = null;

    if (controller.stopped) {
      status = 'interrupted';
      verdict = 'unknown';
      detail = 'not run: the run was stopped';
    } else if (!executor || executor.lost !== null) {
      status = 'unknown';
      verdict = 'unknown';
      detail = `not run: the connection to ${role} was lost earlier (${executor?.lost ?? 'no host'})`;
    } else {
      if (rendered.guard !== null) {
        const guard = await executor.run(rendered.guard, {
          timeoutMs: input.guardTimeoutMs ?? 60_000,
          secrets: secretsFor(rendered.guard),
          signal: controller.signal,
        });
        if (guard.kind === 'exited') {
          guardSatisfied = guard.exitCode === 0;
          controller.emit({ type: 'guard', target, satisfied: guardSatisfied });
        } else {
          outcome = guard; // lost or interrupted while checking: the step's state is unknown
        }
      }
      if (guardSatisfied === true) {
        status = 'guarded';
        detail = 'already done: the guard succeeded, so the step was skipped';
      } else {
        const began = now();
        while (outcome === null || (outcome.kind === 'exited' && step.poll && !controller.stopped)) {
          outcome = await executor.run(rendered.command, {
            timeoutMs: step.timeout_s * 1000,
            secrets: secretsFor(rendered.command),
            signal: controller.signal,
            onOutput: (stream, chunk) => controller.emit({ type: 'output', target, stream, chunk }),
          });
          if (outcome.kind !== 'exited' || !step.poll || meetsExpectation(step.expect, outcome.exitCode, outcome.output)) break;
          if (now() - began + step.poll.interval_s * 1000 > step.poll.max_s * 1000) break;
          await sleep(step.poll.interval_s * 1000, controller.signal);
        }
        // Stopped while polling: the wait was cut short, not failed.
        if (controller.stopped && step.poll && outcome.kind === 'exited' && !meetsExpectation(step.expect, outcome.exitCode, outcome.output)) {
          outcome = { kind: 'interrupted', output: outcome.output };
        }
        const judged = judge(step, outcome);
        ({ status, verdict, detail } = judged);
      }
    }
    const endedAt = now();
    const finish: StepFinish = {
      ...start,
      status,
      exitCode: outcome?.kind === 'exited' && guardSatisfied !== true ? outcome.exitCode : null,
      timedOut: outcome?.kind === 'timeout',
      guardSatisfied,
      endedAt,
      output: guardSatisfied === true ? '' : (outcome?.output ?? ''),
      verdict,
      detail,
    };
    await input.recorder.stepFinished(finish);
    const result: StepResult = { ...target, status, exitCode: finish.exitCode, startedAt: start.startedAt, endedAt, durationMs: endedAt - start.startedAt, verdict, detail };
    controller.emit({ type: 'step-finished', result });
    return result;
  };

  const runStep = async (step: PlanStep, roles: readonly string[]): Promise<StepResult[]> => {
    if (step.destructive && !input.autoConfirm) {
      const approved = await controller.askConfirmation({ stepId: step.id, role: roles.join('+'), host: roles.map((r) => input.executors.get(r)?.display ?? '?').join(', ') }, renderStep(step, input.values).command);
      if (!approved) return Promise.all(roles.map((role) => recordSkip(step, role, controller.stopped ? 'not run: the run was stopped' : 'declined at the confirmation')));
    }
    return Promise.all(roles.map((role) => runTarget(step, role)));
  };

  const recordSkip = async (step: PlanStep, role: string, why: string): Promise<StepResult> => {
    const key = targetKey(step.id, role);
    const attempt = (input.attempts.get(key) ?? 0) + 1;
    input.attempts.set(key, attempt);
    const rendered = renderStep(step, input.values);
    const host = input.executors.get(role)?.display ?? '?';
    const at = now();
    const start: StepStart = { runId: header.id, stepId: step.id, stepIndex: plan.steps.indexOf(step), description: step.description, role, host, attempt, command: rendered.command, guard: rendered.guard, destructive: step.destructive, startedAt: at };
    await input.recorder.stepStarted(start);
    await input.recorder.stepFinished({ ...start, status: 'skipped', exitCode: null, timedOut: false, guardSatisfied: null, endedAt: at, output: '', verdict: null, detail: why });
    const result: StepResult = { stepId: step.id, role, host, status: 'skipped', exitCode: null, startedAt: at, endedAt: at, durationMs: 0, verdict: null, detail: why };
    controller.emit({ type: 'step-finished', result });
    return result;
  };

  outer: for (const batch of batchesOf(inRange)) {
    await controller.gate();
    if (controller.stopped) break;
    let pending = batch.map((step) => ({ step, roles: step.roles.filter((role) => !input.done.has(targetKey(step.id, role))) }));
    for (;;) {
      const results = (
        await Promise.all(
          pending.map(({ step, roles }) => {
            if (roles.length === 0) return Promise.resolve([]);
            if (controller.isSkipped(step.id)) return Promise.all(roles.map((role) => recordSkip(step, role, 'skipped by the operator')));
            return runStep(step, roles);
          }),
        )
      ).flat();
      for (const result of results) {
        latest.set(targetKey(result.stepId, result.role), result.status);
        if (result.verdict === 'diverged') diverged += 1;
      }
      const failed = results.filter((result) => FAILED.includes(result.status));
      if (failed.length === 0) break;
      const decision = await controller.awaitFailureDecision(input.holdOnFailure);
      if (decision.kind === 'stop') break outer;
      if (decision.kind === 'continue') break;
      pending = pending
        .filter(({ step }) => decision.stepIds.includes(step.id))
        .map(({ step }) => ({ step, roles: failed.filter((f) => f.stepId === step.id).map((f) => f.role) }));
      diverged -= failed.filter((f) => f.verdict === 'diverged' && decision.stepIds.includes(f.stepId)).length;
      if (pending.length === 0) break;
    }
  }

  const status = runStatusOf([...latest.values()], controller.stopped);
  await input.recorder.runFinished(header.id, status, now());
  controller.emit({ type: 'run-finished', runId: header.id, status, diverged });
  return { status, diverged };
}
