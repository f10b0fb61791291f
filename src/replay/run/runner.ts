import { batchesOf, renderStep } from '../plan/render.js';
import type { Plan, PlanStep } from '../../core/plan/schema.js';
import type { ReplayController } from './controller.js';
import type { StepResult, StepStatus, StepTarget } from '../../core/run/events.js';
import type { HostExecutor } from './host-executor.js';
import { targetKey, type RunHeader, type RunRecorder, type StepFinish, type StepStart } from '../../core/run/record.js';
import { secretsReferenced, stopLingeringCommand, type LingeringProcess } from './remote-command.js';
import { pipefailNeed, SIGPIPE_EXIT } from '../plan/pipefail.js';
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
  /** After a failed step, go on with the next ones (`--keep-going`); the run still ends failed. */
  keepGoing?: boolean;
  /** A resume: targets whose last attempt may still be running on the host, and how to find it. */
  lingering?: ReadonlyMap<string, LingeringProcess>;
  guardTimeoutMs?: number;
  now?: () => number;
}

const FAILED: readonly StepStatus[] = ['failed', 'timeout', 'unknown', 'interrupted'];

function pipefailOf(command: string): { pipefail: boolean } {
  return { pipefail: pipefailNeed(command).pipefail };
}

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

/** What happened to one target before its command ran: the guard's answer, or why it cannot run. */
type Prepared =
  | { kind: 'run'; guardSatisfied: boolean | null }
  | { kind: 'done'; status: StepStatus; verdict: StepResult['verdict']; detail: string | null; guardSatisfied: boolean | null; outcome: ExecOutcome | null };

export async function runPlan(input: RunnerInput): Promise<{ status: string; diverged: number }> {
  const { plan, controller, header } = input;
  const now = input.now ?? Date.now;
  const inRange = plan.steps.filter((_, index) => index >= input.range.first && index <= input.range.last);
  const targets: StepTarget[] = inRange.flatMap((step) =>
    step.roles.map((role) => ({ stepId: step.id, role, host: input.executors.get(role)?.display ?? '?' })),
  );
  if (input.resumed) await input.recorder.runResumed(header.id, header.hosts, now(), header.pid, { planJson: header.planJson, vars: header.vars ?? {} });
  else await input.recorder.runStarted(header);
  controller.emit({ type: 'run-started', runId: header.id, mode: 'live', steps: targets });

  const latest = new Map<string, StepStatus>();
  let diverged = 0;
  const secretsFor = (text: string): Record<string, string> =>
    Object.fromEntries(secretsReferenced(text, Object.keys(input.secrets)).map((name) => [name, input.secrets[name] ?? '']));

  const startTarget = async (step: PlanStep, role: string): Promise<{ start: StepStart; target: StepTarget }> => {
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
    return { start, target };
  };

  /** Guard first: a step whose work is done is skipped before anyone is asked to approve it. */
  const prepare = async (step: PlanStep, role: string, target: StepTarget): Promise<Prepared> => {
    const executor = input.executors.get(role);
    if (controller.stopped) return { kind: 'done', status: 'interrupted', verdict: 'unknown', detail: 'not run: the run was stopped', guardSatisfied: null, outcome: null };
    if (!executor || executor.lost !== null) {
      return { kind: 'done', status: 'unknown', verdict: 'unknown', detail: `not run: the connection to ${role} was lost earlier (${executor?.lost ?? 'no host'})`, guardSatisfied: null, outcome: null };
    }
    const lingering = input.lingering?.get(targetKey(step.id, role));
    if (lingering) {
      // A resume: the previous attempt may still run on the host (its connection was lost, or
      // retrace was killed). Stop that process group before anything else: never two copies.
      const stopped = await executor.run(stopLingeringCommand(lingering), { timeoutMs: 30_000, secrets: {}, signal: controller.signal });
      if (stopped.kind === 'exited' && stopped.output.trim() !== '') controller.emit({ type: 'output', target, stream: 'stderr', chunk: stopped.output });
    }
    const rendered = renderStep(step, input.values);
    if (rendered.guard === null) return { kind: 'run', guardSatisfied: null };
    const guard = await executor.run(rendered.guard, { timeoutMs: input.guardTimeoutMs ?? 60_000, secrets: secretsFor(rendered.guard), signal: controller.signal, ...pipefailOf(rendered.guard) });
    if (guard.kind !== 'exited') {
      // lost or interrupted while checking: the step's state is unknown
      const judged = judge(step, guard);
      return { kind: 'done', status: judged.status, verdict: judged.verdict, detail: judged.detail, guardSatisfied: null, outcome: guard };
    }
    const satisfied = guard.exitCode === 0;
    controller.emit({ type: 'guard', target, satisfied });
    if (satisfied) return { kind: 'done', status: 'guarded', verdict: null, detail: 'already done: the guard succeeded, so the step was skipped', guardSatisfied: true, outcome: null };
    return { kind: 'run', guardSatisfied: false };
  };

  const execute = async (step: PlanStep, role: string, target: StepTarget): Promise<{ outcome: ExecOutcome; judged: ReturnType<typeof judge> }> => {
    const executor = input.executors.get(role) as HostExecutor;
    const rendered = renderStep(step, input.values);
    const expected = { ...step, expect: { ...step.expect, output: rendered.expectOutput } };
    const need = pipefailNeed(rendered.command);
    const began = now();
    let outcome: ExecOutcome | null = null;
    while (outcome === null || (outcome.kind === 'exited' && step.poll && !controller.stopped)) {
      outcome = await executor.run(rendered.command, {
        timeoutMs: step.timeout_s * 1000,
        secrets: secretsFor(rendered.command),
        signal: controller.signal,
        pipefail: need.pipefail,
        stepTag: `${header.id}/${step.id}/${role}`,
        onProcessGroup: (pgid) => void input.recorder.stepRemoteProcess?.(header.id, step.id, role, input.attempts.get(targetKey(step.id, role)) ?? 1, pgid),
        onOutput: (stream, chunk) => controller.emit({ type: 'output', target, stream, chunk }),
      });
      // `head` stopped reading early and the command before it died of SIGPIPE: nothing failed.
      if (outcome.kind === 'exited' && outcome.exitCode === SIGPIPE_EXIT && need.sigpipeExpected) outcome = { ...outcome, exitCode: 0 };
      if (outcome.kind !== 'exited' || !step.poll || meetsExpectation(expected.expect, outcome.exitCode, outcome.output)) break;
      if (now() - began + step.poll.interval_s * 1000 > step.poll.max_s * 1000) break;
      await sleep(step.poll.interval_s * 1000, controller.signal);
    }
    // Stopped while polling: the wait was cut short, not failed.
    if (controller.stopped && step.poll && outcome.kind === 'exited' && !meetsExpectation(expected.expect, outcome.exitCode, outcome.output)) {
      outcome = { kind: 'interrupted', output: outcome.output };
    }
    return { outcome, judged: judge(expected, outcome) };
  };

  const finishTarget = async (start: StepStart, target: StepTarget, end: { status: StepStatus; verdict: StepResult['verdict']; detail: string | null; guardSatisfied: boolean | null; outcome: ExecOutcome | null }): Promise<StepResult> => {
    const endedAt = now();
    const { outcome, guardSatisfied } = end;
    const finish: StepFinish = {
      ...start,
      status: end.status,
      exitCode: outcome?.kind === 'exited' && guardSatisfied !== true ? outcome.exitCode : null,
      timedOut: outcome?.kind === 'timeout',
      guardSatisfied,
      endedAt,
      output: guardSatisfied === true ? '' : (outcome?.output ?? ''),
      verdict: end.verdict,
      detail: end.detail,
    };
    await input.recorder.stepFinished(finish);
    const result: StepResult = { ...target, status: end.status, exitCode: finish.exitCode, startedAt: start.startedAt, endedAt, durationMs: endedAt - start.startedAt, verdict: end.verdict, detail: end.detail };
    controller.emit({ type: 'step-finished', result });
    return result;
  };

  const runStep = async (step: PlanStep, roles: readonly string[]): Promise<StepResult[]> => {
    const begun = await Promise.all(roles.map(async (role) => {
      const { start, target } = await startTarget(step, role);
      return { role, start, target, prepared: await prepare(step, role, target) };
    }));
    const toRun = begun.filter((b) => b.prepared.kind === 'run');
    let approved = true;
    if (step.destructive && !input.autoConfirm && toRun.length > 0) {
      approved = await controller.askConfirmation(
        { stepId: step.id, role: toRun.map((b) => b.role).join('+'), host: toRun.map((b) => b.target.host).join(', ') },
        renderStep(step, input.values).command,
      );
    }
    return Promise.all(begun.map(async ({ role, start, target, prepared }) => {
      if (prepared.kind === 'done') return finishTarget(start, target, prepared);
      if (!approved) {
        const why = controller.stopped ? 'not run: the run was stopped' : 'declined at the confirmation';
        return finishTarget(start, target, { status: 'skipped', verdict: null, detail: why, guardSatisfied: prepared.guardSatisfied, outcome: null });
      }
      const { outcome, judged } = await execute(step, role, target);
      return finishTarget(start, target, { ...judged, guardSatisfied: prepared.guardSatisfied, outcome });
    }));
  };

  const recordSkip = async (step: PlanStep, role: string, why: string): Promise<StepResult> => {
    const { start, target } = await startTarget(step, role);
    return finishTarget(start, target, { status: 'skipped', verdict: null, detail: why, guardSatisfied: null, outcome: null });
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
      const decision = input.keepGoing && !input.holdOnFailure ? { kind: 'continue' as const } : await controller.awaitFailureDecision(input.holdOnFailure);
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
