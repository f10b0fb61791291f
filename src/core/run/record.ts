import type { StepStatus, Verdict } from './events.js';
import type { Fleet } from './fleet.js';

/**
 * What the runner tells the store, as plain records (the store implements it; tests may record
 * in memory). Every call is awaited before the runner goes on, so what the user saw happen is
 * what the store holds if the process dies the next instant.
 */

export type RunMode = 'dry' | 'live';
export type RunStatus = 'running' | 'ok' | 'failed' | 'aborted' | 'interrupted';

export interface RunHeader {
  id: string;
  sessionId: string;
  sessionTitle: string | null;
  /** Where the plan came from: a file path, or `session:<id>` when built from a session. */
  planLabel: string;
  /** The plan as JSON: variables and secret references, never secret values. */
  planJson: string;
  mode: RunMode;
  /** role → its hosts as `user@host:port` (one, or several for a fleet; a note that none was given, for a dry run). */
  hosts: Record<string, string[]>;
  /** role → what the user named (--host, an inventory; an ssh_config alias stays an alias): a resume reconnects with it. */
  hostSpecs: Fleet;
  /** The --from/--to step ids the run was started with, so a resume keeps to the same range. */
  stepFrom: string | null;
  stepTo: string | null;
  startedAt: number;
  pid: number | null;
  /** The `--var` values the run was started with (a resume keeps them). */
  vars?: Record<string, string>;
  /** `replay` for runs of this process, `runlog:<file>` for runs imported from an exported script's log. */
  origin: string;
}

export interface StepStart {
  runId: string;
  stepId: string;
  stepIndex: number;
  description: string;
  role: string;
  host: string;
  attempt: number;
  /** Rendered command: values substituted, secrets still `${NAME}` references. */
  command: string;
  guard: string | null;
  destructive: boolean;
  startedAt: number;
}

export interface StepFinish extends StepStart {
  status: StepStatus;
  exitCode: number | null;
  timedOut: boolean;
  guardSatisfied: boolean | null;
  endedAt: number;
  output: string;
  verdict: Verdict | null;
  detail: string | null;
}

export interface RunRecorder {
  runStarted(header: RunHeader): Promise<void>;
  /** A resumed run goes on under its own id: status back to running, new hosts, the plan and values it now runs noted. */
  runResumed(runId: string, hosts: Record<string, string[]>, at: number, pid: number | null, now?: { planJson: string; vars: Record<string, string> }): Promise<void>;
  stepStarted(step: StepStart): Promise<void>;
  stepFinished(step: StepFinish): Promise<void>;
  /** The remote process group of a running attempt, as soon as the host reports it: a resume stops it if it outlived retrace. */
  stepRemoteProcess?(runId: string, target: { stepId: string; role: string; host: string; attempt: number }, pgid: number): Promise<void>;
  runFinished(runId: string, status: RunStatus, endedAt: number): Promise<void>;
}

/** A target's key inside a run: a step on one host of one role (a role may have several hosts). */
export function targetKey(stepId: string, role: string, host: string): string {
  return `${stepId}\u0000${role}\u0000${host}`;
}

/**
 * The tag a step's remote processes carry (RETRACE_STEP): the run, the step, the role and the
 * host, so a resume recognises its own earlier attempt on that host and nothing else.
 */
export function stepTagOf(runId: string, stepId: string, role: string, host: string): string {
  return `${runId}/${stepId}/${role}@${host}`;
}

/** `run_20260226-134100_3f9a`: sorts by start time, readable, unique enough per store. */
export function newRunId(now = new Date(), random = Math.random): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const suffix = Math.floor(random() * 0x10000).toString(16).padStart(4, '0');
  return `run_${stamp}_${suffix}`;
}
