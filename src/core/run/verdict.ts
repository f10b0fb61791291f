import type { PlanStep } from '../plan/schema.js';
import type { StepStatus, Verdict } from './events.js';

/** How one execution of a step on one host ended, before it is judged. */
export type ExecOutcome =
  | { kind: 'exited'; exitCode: number; output: string }
  | { kind: 'timeout'; output: string }
  /** The connection died: whether the command ran, and how far, is not known. */
  | { kind: 'lost'; reason: string; output: string }
  | { kind: 'interrupted'; output: string };

export interface Judgement {
  status: StepStatus;
  verdict: Verdict;
  /** What differed (or why it is unknown), in one line; null when the step matched the record. */
  detail: string | null;
}

/** Does today's output match the recorded pattern? (multi-line: `^`/`$` are line anchors) */
export function outputMatches(pattern: string | null, output: string): boolean {
  if (pattern === null) return true;
  return new RegExp(pattern, 'm').test(output);
}

export function meetsExpectation(expect: PlanStep['expect'], exitCode: number, output: string): boolean {
  return (expect.exit === null || exitCode === expect.exit) && outputMatches(expect.output, output);
}

/**
 * The status of a step and its verdict against the record. A step fails when its exit code is
 * not the recorded one; an output that no longer matches the recorded pattern is a divergence
 * worth showing but not a failure (versions and digests move), unless the step polls for it.
 */
export function judge(step: Pick<PlanStep, 'expect' | 'timeout_s' | 'poll'>, outcome: ExecOutcome): Judgement {
  switch (outcome.kind) {
    case 'lost':
      return { status: 'unknown', verdict: 'unknown', detail: `connection lost: ${outcome.reason}` };
    case 'interrupted':
      return { status: 'interrupted', verdict: 'unknown', detail: 'interrupted before it finished' };
    case 'timeout':
      return { status: 'timeout', verdict: 'diverged', detail: `timed out after ${step.timeout_s}s (the remote process was stopped)` };
    case 'exited': {
      const { exit, output } = step.expect;
      if (exit !== null && outcome.exitCode !== exit) {
        return { status: 'failed', verdict: 'diverged', detail: `exit ${outcome.exitCode}, recorded ${exit}` };
      }
      if (!outputMatches(output, outcome.output)) {
        const detail = `output does not match the recorded /${output}/`;
        return step.poll ? { status: 'failed', verdict: 'diverged', detail } : { status: 'ok', verdict: 'diverged', detail };
      }
      return { status: 'ok', verdict: 'same', detail: null };
    }
  }
}

/** A run's end from its steps: the worst that happened, in this order. */
export function runStatusOf(statuses: readonly StepStatus[], stopped: 'aborted' | 'interrupted' | null): 'ok' | 'failed' | 'aborted' | 'interrupted' {
  if (stopped) return stopped;
  if (statuses.some((s) => s === 'failed' || s === 'timeout' || s === 'unknown')) return 'failed';
  if (statuses.some((s) => s === 'interrupted')) return 'interrupted';
  return 'ok';
}
