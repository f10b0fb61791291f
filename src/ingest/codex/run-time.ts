import { isJsonObject } from '../jsonl/parse-line.js';
import { elapsed, extraOf } from '../jsonl/values.js';
import type { ToolCallRecord } from '../../core/model.js';
import { durationMs, type ExecCommandEnd } from './schema.js';

/**
 * How long a Codex command ran. The rollout stamps each line when it is written, so the time from
 * a call's line to its output's line also holds what is not the command: the model streaming
 * the call, a wait for the user's approval (`sandbox_permissions: require_escalated`), or nothing
 * at all (0.40/0.42 wrote a call and its output with one stamp). The tool's own measure
 * (`exec_command_end.duration`, `Wall time:`, `metadata.duration_seconds`) is the command's
 * run time whenever the tool gave one; the stamps are the fallback.
 */

/** What an `exec_command_end` event says of its command, in the store's units. */
export interface ExecEndFacts {
  exitCode: number | null;
  durationMs: number | null;
  /** What the command printed (`aggregated_output`, else stdout and stderr), null when empty. */
  output: string | null;
  status: string | null;
  source: string | null;
  at: number | null;
}

export function execEndFacts(end: ExecCommandEnd, at: number | null): ExecEndFacts {
  const streams = [end.stdout ?? '', end.stderr ?? ''].filter((part) => part !== '').join('\n');
  const output = end.aggregated_output ? end.aggregated_output : streams;
  return {
    exitCode: end.exit_code ?? null,
    durationMs: durationMs(end.duration),
    output: output === '' ? null : output,
    status: end.status ?? null,
    source: end.source ?? null,
    at,
  };
}

/** The call asked to run outside the sandbox, which waits for the user's approval first. */
export function askedForApproval(call: ToolCallRecord): boolean {
  let input: unknown;
  try {
    input = JSON.parse(call.input);
  } catch {
    return false;
  }
  if (!isJsonObject(input)) return false;
  return input['sandbox_permissions'] === 'require_escalated' || input['with_escalated_permissions'] === true;
}

export interface RunTime {
  durationMs: number | null;
  /** Time between the call and its output the command did not run (the approval wait, when it asked). */
  approvalWaitMs: number | null;
}

/** The run time of a call answered once: the tool's measure, else the span of the two lines. */
export function runTime(call: ToolCallRecord, endedAt: number | null, reportedMs: number | null): RunTime {
  const span = elapsed(call.startedAt, endedAt);
  const waited = askedForApproval(call) && span !== null && reportedMs !== null && span > reportedMs ? span - reportedMs : null;
  return { durationMs: reportedMs ?? span, approvalWaitMs: waited };
}

function numberIn(call: ToolCallRecord, key: string): number | null {
  const value = extraOf(call)[key];
  return typeof value === 'number' ? value : null;
}

/**
 * When a unified-exec process started: its first output's stamp less that output's wall time
 * (later than the call's stamp when the call waited for approval), else the call's stamp.
 */
export function processStart(command: ToolCallRecord): number | null {
  const measured = numberIn(command, 'processStartedAt');
  if (measured === null) return command.startedAt;
  return command.startedAt === null ? measured : Math.max(command.startedAt, measured);
}

/** The process start a still-running command's first output implies, for `processStart`. */
export function impliedProcessStart(outputAt: number | null, wallTimeMs: number | null): number | null {
  return outputAt !== null && wallTimeMs !== null ? outputAt - wallTimeMs : null;
}

/** The run time of a process that outlived its first output, finished at `endedAt`. */
export function processRunTime(command: ToolCallRecord, endedAt: number | null, polls: readonly ToolCallRecord[], reportedMs: number | null): number | null {
  if (reportedMs !== null) return reportedMs;
  const span = elapsed(processStart(command), endedAt);
  if (span !== null) return span;
  // No stamps at all: the wall times of the outputs add up to the run.
  const walls = [command, ...polls].map((call) => numberIn(call, 'wallTimeMs'));
  return walls.every((wall) => wall !== null) ? walls.reduce<number>((sum, wall) => sum + (wall ?? 0), 0) : null;
}
