import { batchesOf, renderStep } from '../plan/render.js';
import type { Plan, PlanStep } from '../../core/plan/schema.js';
import { chosen, type ReplayController } from './controller.js';
import type { StepResult, StepStatus, StepTarget } from '../../core/run/events.js';
import type { HostExecutor } from './host-executor.js';
import { stepTagOf, targetKey, type RunHeader, type RunRecorder, type StepFinish, type StepStart } from '../../core/run/record.js';
import { Limiter } from '../../core/run/fleet.js';
import { FailureSpread } from './failure-spread.js';
import { awaitedBy, effectivePoll, joinReadiness } from '../plan/coordination.js';
import { waitForCluster } from './join-wait.js';
import { secretsReferenced, stopLingeringCommand, type LingeringProcess } from './remote-command.js';
import { pipefailNeed, SIGPIPE_EXIT } from '../plan/pipefail.js';
import { judge, meetsExpectation, runStatusOf, type ExecOutcome } from '../../core/run/verdict.js';

/**
 * The live run: steps in plan order, each on every host of its roles at once (at most `forks`
 * hosts at a time); independent steps together. For every host: record the start, evaluate the
 * guard, run (polling when the step says so), judge against the record, record the end. A failure
 * stops that host's later steps and the steps of the other roles that come after it (see
 * failure-spread.ts), never its siblings'; with `holdOnFailure` the run waits for a watcher to
 * retry, go on or stop; with `keepGoing` nothing is stopped. A lost connection is `unknown` and
 * is never retried by the runner itself.
 */

export interface RunnerInput {
  header: RunHeader;
  plan: Plan;
  controller: ReplayController;
  /** role → its hosts (one, or several for a fleet). */
  executors: ReadonlyMap<string, readonly HostExecutor[]>;
  /** Hosts that run at once (`--forks`, default 5). */
  forks?: number;
  values: Readonly<Record<string, string>>;
  /** Secret values by name, read from the environment by the caller. */
  secrets: Readonly<Record<string, string>>;
  range: { first: number; last: number };
  /** Targets (`targetKey`) a resumed run already finished (ok, guarded, skipped): not run again. */
  done: ReadonlySet<string>;
  /** How each of the `done` targets ended (ok, guarded, skipped), for a watcher to show them finished. */
  doneStatus?: ReadonlyMap<string, StepStatus>;
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

export const DEFAULT_FORKS = 5;

/** One step on one host of one of its roles. */
interface Target {
  step: PlanStep;
  index: number;
  role: string;
  executor: HostExecutor;
  key: string;
  target: StepTarget;
}

/** What happened to one target before its command ran: the guard's answer, or why it cannot run. */
type Prepared =
  | { kind: 'run'; guardSatisfied: boolean | null }
  | { kind: 'done'; status: StepStatus; verdict: StepResult['verdict']; detail: string | null; guardSatisfied: boolean | null; outcome: ExecOutcome | null };

export async function runPlan(input: RunnerInput): Promise<{ status: string; diverged: number }> {
  const { plan, controller, header } = input;
  const now = input.now ?? Date.now;
  const limiter = new Limiter(input.forks ?? DEFAULT_FORKS);
  const targetsOf = (step: PlanStep): Target[] =>
    step.roles.flatMap((role) =>
      (input.executors.get(role) ?? []).map((executor) => ({
        step,
        index: plan.steps.indexOf(step),
        role,
        executor,
        key: targetKey(step.id, role, executor.display),
        target: { stepId: step.id, role, host: executor.display },
      })),
    );
  const inRange = plan.steps.filter((_, index) => index >= input.range.first && index <= input.range.last);
  if (input.resumed) await input.recorder.runResumed(header.id, header.hosts, now(), header.pid, { planJson: header.planJson, vars: header.vars ?? {} });
  else await input.recorder.runStarted(header);
  const all = inRange.flatMap(targetsOf);
  const earlier = all.filter((t) => input.done.has(t.key)).map((t) => ({ target: t.target, status: input.doneStatus?.get(t.key) ?? 'ok' }));
  controller.emit({ type: 'run-started', runId: header.id, mode: 'live', steps: all.map((t) => t.target), ...(earlier.length > 0 ? { earlier } : {}) });

  const latest = new Map<string, StepStatus>();
  const spread = new FailureSpread(plan.steps);
  let diverged = 0;
  const secretsFor = (text: string): Record<string, string> =>
    Object.fromEntries(secretsReferenced(text, Object.keys(input.secrets)).map((name) => [name, input.secrets[name] ?? '']));

  const startTarget = async (t: Target): Promise<StepStart> => {
    const attempt = (input.attempts.get(t.key) ?? 0) + 1;
    input.attempts.set(t.key, attempt);
    const rendered = renderStep(t.step, input.values);
    const start: StepStart = {
      runId: header.id,
      stepId: t.step.id,
      stepIndex: t.index,
      description: t.step.description,
      role: t.role,
      host: t.target.host,
      attempt,
      command: rendered.command,
      guard: rendered.guard,
      destructive: t.step.destructive,
      startedAt: now(),
    };
    await input.recorder.stepStarted(start);
    controller.emit({ type: 'step-started', target: t.target, command: rendered.command, destructive: t.step.destructive });
    return start;
  };

  /** Guard first: a step whose work is done is skipped before anyone is asked to approve it. */
  const prepare = async ({ step, role, executor, key, target }: Target): Promise<Prepared> => {
    if (controller.stopped) return { kind: 'done', status: 'interrupted', verdict: 'unknown', detail: 'not run: the run was stopped', guardSatisfied: null, outcome: null };
    if (executor.lost !== null) {
      return { kind: 'done', status: 'unknown', verdict: 'unknown', detail: `not run: the connection to ${role} ${executor.display} was lost earlier (${executor.lost})`, guardSatisfied: null, outcome: null };
    }
    const lingering = input.lingering?.get(key);
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

  const execute = async ({ step, role, executor, key, target }: Target): Promise<{ outcome: ExecOutcome; judged: ReturnType<typeof judge> }> => {
    const rendered = renderStep(step, input.values);
    // A check that waits for other roles polls for what it expects (a cluster's N nodes).
    const poll = effectivePoll(plan, step);
    const expected = { ...step, poll, expect: { ...step.expect, output: rendered.expectOutput } };
    const join = awaitedBy(plan, step, role) ? joinReadiness(rendered.command) : null;
    if (join) {
      const notReady = await waitForCluster(executor, join.check, join.address, controller.signal, now);
      if (notReady) return { outcome: { kind: 'exited', exitCode: 1, output: `${notReady}\n` }, judged: { status: controller.stopped ? 'interrupted' : 'failed', verdict: controller.stopped ? 'unknown' : 'diverged', detail: notReady } };
    }
    const need = pipefailNeed(rendered.command);
    const began = now();
    let outcome: ExecOutcome | null = null;
    while (outcome === null || (outcome.kind === 'exited' && poll && !controller.stopped)) {
      outcome = await executor.run(rendered.command, {
        timeoutMs: step.timeout_s * 1000,
        secrets: secretsFor(rendered.command),
        signal: controller.signal,
        pipefail: need.pipefail,
        stepTag: stepTagOf(header.id, step.id, role, executor.display),
        onProcessGroup: (pgid) =>
          void input.recorder.stepRemoteProcess?.(header.id, { stepId: step.id, role, host: executor.display, attempt: input.attempts.get(key) ?? 1 }, pgid),
        onOutput: (stream, chunk) => controller.emit({ type: 'output', target, stream, chunk }),
      });
      // `head` stopped reading early and the command before it died of SIGPIPE: nothing failed.
      if (outcome.kind === 'exited' && outcome.exitCode === SIGPIPE_EXIT && need.sigpipeExpected) outcome = { ...outcome, exitCode: 0 };
      if (outcome.kind !== 'exited' || !poll || meetsExpectation(expected.expect, outcome.exitCode, outcome.output)) break;
      if (now() - began + poll.interval_s * 1000 > poll.max_s * 1000) break;
      await sleep(poll.interval_s * 1000, controller.signal);
    }
    // Stopped while polling: the wait was cut short, not failed.
    if (controller.stopped && poll && outcome.kind === 'exited' && !meetsExpectation(expected.expect, outcome.exitCode, outcome.output)) {
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

  /** One step on the given hosts: guards (at most `forks` at once), one confirmation, then the commands. */
  const runStep = async (step: PlanStep, targets: readonly Target[]): Promise<StepResult[]> => {
    const begun = await Promise.all(targets.map((t) => limiter.run(async () => {
      const start = await startTarget(t);
      return { t, start, prepared: await prepare(t) };
    })));
    const toRun = begun.filter((b) => b.prepared.kind === 'run');
    let approved = true;
    if (step.destructive && !input.autoConfirm && toRun.length > 0) {
      approved = await controller.askConfirmation(
        { stepId: step.id, role: [...new Set(toRun.map((b) => b.t.role))].join('+'), host: toRun.map((b) => b.t.target.host).join(', ') },
        renderStep(step, input.values).command,
      );
    }
    return Promise.all(begun.map(({ t, start, prepared }) => {
      if (prepared.kind === 'done') return finishTarget(start, t.target, prepared);
      if (!approved) {
        const why = controller.stopped ? 'not run: the run was stopped' : 'declined at the confirmation';
        return finishTarget(start, t.target, { status: 'skipped', verdict: null, detail: why, guardSatisfied: prepared.guardSatisfied, outcome: null });
      }
      return limiter.run(async () => {
        const { outcome, judged } = await execute(t);
        return finishTarget(start, t.target, { ...judged, guardSatisfied: prepared.guardSatisfied, outcome });
      });
    }));
  };

  const recordSkip = async (t: Target, why: string): Promise<StepResult> => {
    const start = await startTarget(t);
    return finishTarget(start, t.target, { status: 'skipped', verdict: null, detail: why, guardSatisfied: null, outcome: null });
  };

  /** The targets of a step still to run: not done by an earlier attempt, not stopped by a failure. */
  const runnable = (step: PlanStep): Target[] =>
    targetsOf(step).filter((t) => {
      if (input.done.has(t.key)) return false;
      if (input.keepGoing || spread.blocked(step, t.index, t.role, t.target.host) === null) return true;
      // Not run: what waits for this target waits in vain too.
      spread.failed({ index: t.index, stepId: step.id, role: t.role, host: t.target.host });
      return false;
    });

  /** Records and counts results; a target's earlier attempt stops counting once it is run again. */
  const settle = (results: readonly StepResult[]): void => {
    for (const result of results) {
      latest.set(targetKey(result.stepId, result.role, result.host), result.status);
      if (result.verdict === 'diverged') diverged += 1;
    }
  };
  const sameTarget = (a: StepTarget, b: StepTarget): boolean => a.stepId === b.stepId && a.role === b.role && a.host === b.host;

  outer: for (const batch of batchesOf(inRange)) {
    await controller.gate();
    if (controller.stopped) break;
    let pending = batch.map((step) => ({ step, targets: runnable(step) }));
    /** Failed targets of this batch nobody has decided about yet. */
    let unresolved: StepResult[] = [];
    for (;;) {
      const results = (
        await Promise.all(
          pending.map(({ step, targets }) => {
            if (targets.length === 0) return Promise.resolve([]);
            const skipped = targets.filter((t) => controller.isSkipped(t.target));
            const rest = targets.filter((t) => !skipped.includes(t));
            return Promise.all([
              Promise.all(skipped.map((t) => recordSkip(t, 'skipped by the operator'))),
              rest.length > 0 ? runStep(step, rest) : Promise.resolve([]),
            ]).then((parts) => parts.flat());
          }),
        )
      ).flat();
      settle(results);
      unresolved = [...unresolved.filter((u) => !results.some((r) => sameTarget(r, u))), ...results.filter((result) => FAILED.includes(result.status))];
      if (unresolved.length === 0) break;
      if (controller.stopped) break outer;
      // Without a watcher to decide, a failure stops what depends on it and the run goes on elsewhere.
      if (!input.holdOnFailure) {
        if (!input.keepGoing) for (const f of unresolved) spread.failed({ index: plan.steps.findIndex((s) => s.id === f.stepId), stepId: f.stepId, role: f.role, host: f.host });
        break;
      }
      const decision = await controller.awaitFailureDecision(unresolved);
      if (decision.kind === 'stop') break outer;
      const picked = unresolved.filter((f) => decision.targets.some((choice) => chosen(choice, f)));
      diverged -= picked.filter((f) => f.verdict === 'diverged').length;
      unresolved = unresolved.filter((f) => !picked.includes(f));
      const targetsOfPicked = (step: PlanStep): Target[] => targetsOf(step).filter((t) => picked.some((f) => sameTarget(f, t.target)));
      if (decision.kind === 'skip') {
        // The operator chose to go on without it: recorded as a new, skipped attempt (a resume keeps it skipped).
        const skips = batch.flatMap((step) => targetsOfPicked(step)).map((t) => recordSkip(t, 'skipped by the operator after it failed'));
        settle(await Promise.all(skips));
        pending = [];
        continue;
      }
      pending = batch.map((step) => ({ step, targets: targetsOfPicked(step) })).filter(({ targets }) => targets.length > 0);
    }
  }

  const status = runStatusOf([...latest.values()], controller.stopped);
  await input.recorder.runFinished(header.id, status, now());
  controller.emit({ type: 'run-finished', runId: header.id, status, diverged });
  return { status, diverged };
}
