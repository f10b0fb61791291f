/**
 * The contract between the replay runner and whoever watches it (the CLI's printer, the TUI's
 * live-run screen). The runner emits events and answers controls; it never draws anything.
 */
/** `planned`: a dry run's step, recorded but never executed. */
export type StepStatus = 'pending' | 'running' | 'ok' | 'failed' | 'timeout' | 'skipped' | 'guarded' | 'interrupted' | 'unknown' | 'planned';

/** How today's step compares with what the transcript recorded. */
export type Verdict = 'same' | 'diverged' | 'unknown';

export interface StepTarget {
  stepId: string;
  role: string;
  /** user@host:port as connected, never a recorded address. */
  host: string;
}

export interface StepResult extends StepTarget {
  status: StepStatus;
  exitCode: number | null;
  startedAt: number;
  endedAt: number;
  durationMs: number;
  verdict: Verdict | null;
  /** What differed, in one line, when the verdict is `diverged` (or why it is `unknown`). */
  detail: string | null;
}

export type RunEvent =
  /** `earlier`: targets a resumed run finished before (ok, guarded, skipped), shown finished and not run again. */
  | { type: 'run-started'; runId: string; mode: 'dry' | 'live'; steps: StepTarget[]; earlier?: { target: StepTarget; status: StepStatus }[] }
  | { type: 'step-started'; target: StepTarget; command: string; destructive: boolean }
  | { type: 'guard'; target: StepTarget; satisfied: boolean }
  | { type: 'output'; target: StepTarget; stream: 'stdout' | 'stderr'; chunk: string }
  | { type: 'confirm'; target: StepTarget; command: string }
  /** The confirmation of `target`'s step was answered (yes, no, skip or a stop): the run goes on. */
  | { type: 'confirmed'; target: StepTarget; approved: boolean }
  | { type: 'step-finished'; result: StepResult }
  /** `failed`: the run holds on these failed targets until a watcher retries, skips or stops. */
  | { type: 'paused'; failed?: StepTarget[] }
  | { type: 'resumed' }
  | { type: 'run-finished'; runId: string; status: 'ok' | 'failed' | 'aborted' | 'interrupted'; diverged: number };

/** One host of one role a step runs on, to act on that host alone. */
export type HostOfStep = Pick<StepTarget, 'role' | 'host'>;

/** Controls a watcher may use while a run goes on; each takes effect at the next safe point. */
export interface RunController {
  readonly runId: string;
  subscribe(listener: (event: RunEvent) => void): () => void;
  /** Hold before the next step starts (the running one finishes). */
  pause(): void;
  resume(): void;
  /**
   * Skip a step that has not started (or is waiting for confirmation), or a failed one the run
   * holds on (the run goes on without it); on one host of one role only when `on` is given.
   */
  skip(stepId: string, on?: HostOfStep): void;
  /** Run a failed step again (never automatic); on one host of one role only when `on` is given. */
  retry(stepId: string, on?: HostOfStep): void;
  /** Answer a destructive step's confirmation. */
  confirm(stepId: string, approved: boolean): void;
  /** Stop: the running step is interrupted and marked so; the run is recorded as aborted. */
  abort(): void;
  /** Ctrl-C, SIGTERM, SIGHUP: stop as abort does, but record the run as interrupted (`--resume` goes on). */
  interrupt(): void;
  readonly finished: Promise<{ runId: string; status: string; diverged: number }>;
}
