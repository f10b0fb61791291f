import { z } from 'zod';
import { planSchema } from '../core/plan/schema.js';
import type { RunController, RunEvent, StepStatus, StepTarget } from '../core/run/events.js';
import { unseenOutput } from '../core/run/running-output.js';
import { loadRun, runWaiting, type StoredRun } from '../store/run-queries.js';
import type { StoreAccess } from '../store/store-lease.js';
import { RunEventBuffer } from '../tui/run-event-buffer.js';

/**
 * `retrace tui --run ID` of a run that is still going: the run is steered by the process that
 * started it (another terminal), and this one follows it from the store alone, reading it again
 * every moment and turning what changed into the events the live-run screen shows (steps
 * appearing, status changing, output). It never steers: its controls do nothing.
 */

const targetSchema = z.object({ stepId: z.string(), role: z.string(), host: z.string() });
const waitingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('confirm'), target: targetSchema, command: z.string() }),
  z.object({ kind: z.literal('failure'), targets: z.array(targetSchema) }),
  z.object({ kind: z.literal('paused') }),
]);
type Waiting = z.infer<typeof waitingSchema>;

/** One read of the run. */
export interface RunSnapshot {
  run: Pick<StoredRun, 'id' | 'mode' | 'status' | 'plan_json' | 'hosts' | 'step_from' | 'step_to' | 'diverged'> & { step_rows: Pick<StoredRun['step_rows'][number], 'step_id' | 'role' | 'host' | 'attempt' | 'command' | 'destructive' | 'status' | 'exit_code' | 'started_at' | 'ended_at' | 'duration_ms' | 'output' | 'verdict' | 'detail'>[] };
  waiting: string | null;
}

/** What the follower has shown so far. */
export interface FollowState {
  started: boolean;
  /** Per target: the attempt shown, whether its end was shown, how much of its output. */
  targets: Map<string, { attempt: number; finished: boolean; seen: number }>;
  waiting: string | null;
  finished: boolean;
}

export function initialFollowState(): FollowState {
  return { started: false, targets: new Map(), waiting: null, finished: false };
}

const keyOf = (target: StepTarget): string => `${target.stepId}\u0000${target.role}\u0000${target.host}`;
const ENDED = new Set(['ok', 'failed', 'aborted', 'interrupted', 'abandoned']);

/** Every host of every step in the run's range, in plan order: the rows the screen starts with. */
function plannedTargets(run: RunSnapshot['run']): StepTarget[] {
  const plan = planSchema.safeParse(JSON.parse(run.plan_json || '{}'));
  if (!plan.success) return [];
  const ids = plan.data.steps.map((step) => step.id);
  const first = run.step_from ? Math.max(0, ids.indexOf(run.step_from)) : 0;
  const last = run.step_to && ids.includes(run.step_to) ? ids.indexOf(run.step_to) : ids.length - 1;
  return plan.data.steps.slice(first, last + 1).flatMap((step) => step.roles.flatMap((role) => (run.hosts[role] ?? []).map((host) => ({ stepId: step.id, role, host }))));
}

function parseWaiting(text: string | null): Waiting | null {
  if (text === null) return null;
  try {
    const parsed = waitingSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const time = (value: string | null): number => (value === null ? Date.now() : Date.parse(value));

/** The events that take a watcher from what it has shown (`state`, updated in place) to `snapshot`. */
export function followEvents(state: FollowState, snapshot: RunSnapshot): RunEvent[] {
  const { run } = snapshot;
  const events: RunEvent[] = [];
  if (!state.started) {
    state.started = true;
    events.push({ type: 'run-started', runId: run.id, mode: run.mode === 'live' ? 'live' : 'dry', steps: plannedTargets(run) });
  }
  for (const row of run.step_rows) {
    const target: StepTarget = { stepId: row.step_id, role: row.role, host: row.host ?? '' };
    let shown = state.targets.get(keyOf(target));
    if (!shown || shown.attempt !== row.attempt) {
      shown = { attempt: row.attempt, finished: false, seen: 0 };
      state.targets.set(keyOf(target), shown);
      events.push({ type: 'step-started', target, command: row.command ?? '', destructive: row.destructive });
    }
    if (shown.finished) continue;
    const unseen = unseenOutput(row.output ?? '', shown.seen);
    if (unseen.skipped > 0) events.push({ type: 'output', target, stream: 'stdout', chunk: `\n[… ${unseen.skipped} characters not shown …]\n` });
    if (unseen.text !== '') events.push({ type: 'output', target, stream: 'stdout', chunk: unseen.text });
    shown.seen = Math.max(shown.seen, unseen.total);
    if (row.status !== 'running') {
      shown.finished = true;
      const startedAt = time(row.started_at);
      const endedAt = row.ended_at === null ? startedAt + (row.duration_ms ?? 0) : time(row.ended_at);
      events.push({
        type: 'step-finished',
        result: { ...target, status: row.status as StepStatus, exitCode: row.exit_code, startedAt, endedAt, durationMs: row.duration_ms ?? endedAt - startedAt, verdict: row.verdict === 'same' || row.verdict === 'diverged' || row.verdict === 'unknown' ? row.verdict : null, detail: row.detail },
      });
    }
  }
  if (snapshot.waiting !== state.waiting && !state.finished) {
    const before = parseWaiting(state.waiting);
    const now = parseWaiting(snapshot.waiting);
    state.waiting = snapshot.waiting;
    if (before?.kind === 'confirm') events.push({ type: 'confirmed', target: before.target, approved: true });
    if (before && before.kind !== 'confirm' && now?.kind !== 'failure' && now?.kind !== 'paused') events.push({ type: 'resumed' });
    if (now?.kind === 'confirm') events.push({ type: 'confirm', target: now.target, command: now.command });
    if (now?.kind === 'failure') events.push({ type: 'paused', failed: now.targets });
    if (now?.kind === 'paused') events.push({ type: 'paused' });
  }
  if (ENDED.has(run.status) && !state.finished) {
    state.finished = true;
    // A run whose process is gone without recording its end (killed) is shown as interrupted.
    const status = run.status === 'abandoned' ? 'interrupted' : (run.status as 'ok' | 'failed' | 'aborted' | 'interrupted');
    events.push({ type: 'run-finished', runId: run.id, status, diverged: run.diverged });
  }
  return events;
}

export interface FollowedRun {
  controller: RunController;
  /** The process that steers the run (the terminal it was started from). */
  pid: number | null;
  close(): void;
}

/** Follows run `runId` through `store`, reading it every `pollMs` until it ends or `close()`. */
export async function followRun(store: StoreAccess, runId: string, pollMs = 1000): Promise<FollowedRun> {
  const read = (): Promise<RunSnapshot & { pid: number | null }> =>
    store.use(async (db) => {
      const run = await loadRun(db, runId);
      return { run, waiting: await runWaiting(db, runId), pid: run.pid };
    });
  const first = await read();
  const buffer = new RunEventBuffer();
  const state = initialFollowState();
  let resolveFinished: (value: { runId: string; status: string; diverged: number }) => void = () => undefined;
  const finished = new Promise<{ runId: string; status: string; diverged: number }>((resolve) => (resolveFinished = resolve));
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const apply = (snapshot: RunSnapshot): void => {
    for (const event of followEvents(state, snapshot)) {
      buffer.listener(event);
      if (event.type === 'run-finished') resolveFinished({ runId, status: event.status, diverged: event.diverged });
    }
  };
  const poll = (): void => {
    timer = setTimeout(() => {
      void read().then(apply, () => undefined).finally(() => {
        if (!closed && !state.finished) poll();
      });
    }, pollMs);
  };
  apply(first);
  if (!state.finished) poll();
  const nothing = (): void => undefined;
  const controls: RunController = {
    runId: first.run.id,
    finished,
    subscribe: () => nothing,
    pause: nothing,
    resume: nothing,
    skip: nothing,
    retry: nothing,
    confirm: nothing,
    abort: nothing,
    interrupt: nothing,
  };
  return {
    controller: buffer.attach(controls),
    pid: first.pid,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
    },
  };
}
