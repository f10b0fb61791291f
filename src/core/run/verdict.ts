import type { PlanStep } from '../plan/schema.js';
import { linearTest } from '../regex/linear-regex.js';
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

/**
 * Does today's output match the recorded pattern? (multi-line: `^`/`$` are line anchors.) In
 * linear time whatever the pattern: a plan's pattern must never hang a step, its timeout or Ctrl-C.
 */
export function outputMatches(pattern: string | null, output: string): boolean {
  if (pattern === null) return true;
  return linearTest(pattern, output);
}

/** Lines that say why a command failed, most telling first: a missing program before anything else. */
const CAUSES: readonly RegExp[] = [
  /(?:^|[\s:])([\w./+-]+): (?:command )?not found\s*$/m,
  /^(?:.*?: )?((?:Error response from daemon|Error|ERROR|error|fatal|FATAL|E): .{1,200})$/m,
  /^(.{0,200}(?:No such file or directory|Permission denied|Connection refused|Could not resolve host|No space left on device).{0,80})$/m,
];

/** What the output says went wrong, in one short line (`docker: command not found`), or null. */
export function failureCause(output: string): string | null {
  const [missing, ...rest] = CAUSES;
  const program = missing?.exec(output);
  if (program?.[1]) return `${program[1].split('/').pop()}: command not found`;
  for (const pattern of rest) {
    const line = pattern.exec(output)?.[1]?.trim();
    if (line) return line.length > 160 ? `${line.slice(0, 157)}…` : line;
  }
  return null;
}

function withCause(detail: string, output: string): string {
  const cause = failureCause(output);
  return cause ? `${detail}: ${cause}` : detail;
}

export function meetsExpectation(expect: PlanStep['expect'], exitCode: number, output: string): boolean {
  return (expect.exit === null || exitCode === expect.exit) && outputMatches(expect.output, output);
}

/**
 * The status of a step and its verdict against the record. A step fails when its exit code is
 * not the recorded one, and also when the exit matches but the output does not have the recorded
 * shape (a digest line, an HTTP status, the GPU count): a `docker pull … | tail -3` without docker
 * exits 0 on a shell without pipefail, and the steps after it must not believe it worked. The
 * patterns are shapes, not copies, so versions and digests may move without failing. The detail
 * names the cause the output gives (`docker: command not found`).
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
        return { status: 'failed', verdict: 'diverged', detail: withCause(`exit ${outcome.exitCode}, recorded ${exit}`, outcome.output) };
      }
      if (!outputMatches(output, outcome.output)) {
        return { status: 'failed', verdict: 'diverged', detail: withCause(`output does not match the recorded /${output}/`, outcome.output) };
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
