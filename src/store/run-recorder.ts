import type { RunEvent, StepTarget } from '../core/run/events.js';
import type { RunHeader, RunRecorder, RunStatus, StepFinish, StepStart } from '../core/run/record.js';
import { Database } from './database.js';
import { inTransaction, writeRunEnd, writeRunHeader, writeStepFinish, writeStepStart } from './runs.js';
import { heldStore, isStoreLocked, type StoreAccess } from './store-lease.js';
import { runningOutputOf, type RunWaiting } from '../core/run/running-output.js';

const ts = (param: string): string => `epoch_ms(CAST(${param} AS BIGINT))`;
const TARGET_WHERE = `run_id = ? AND step_id = ? AND role = ? AND host IS NOT DISTINCT FROM ? AND attempt = ?`;

/** Output of a running step kept for the record meanwhile: its end, as a watcher shows a tail. */
export const RUNNING_OUTPUT_CHARS = 64 * 1024;

export interface RecorderOptions {
  /** How long output may wait before it is written (its step's start and end are written at once). */
  outputFlushMs?: number;
  /** Said once when a write has to wait for another process's hold on the store, and again when it got in. */
  onWait?: (message: string | null) => void;
  /** Between tries while another process holds the store. */
  retryMs?: number;
}

interface Pending {
  write: (db: Database) => Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A running target's output so far: its last characters, and how many came before them. */
interface OutputSoFar {
  runId: string;
  target: StepTarget;
  text: string;
  before: number;
  dirty: boolean;
}

const keyOf = (runId: string, target: StepTarget): string => `${runId}\u0000${target.stepId}\u0000${target.role}\u0000${target.host}`;

/**
 * Writes a replay into the store (runs.ts says what rows), through a store it may open only for
 * each write: a live run lasts minutes to hours, and held all that time the store would shut out
 * `retrace tui --run ID` in another terminal, `ingest` and every other command. What arrives
 * while a write is under way is written by the next one, in one open; output is written at most
 * every `outputFlushMs` (an open costs 150–380 ms here). A write that finds the store held waits
 * and tries again, as long as it takes: nothing is lost, and every call resolves once its rows
 * are in the store (the runner awaits a step's start and end before it goes on). A write that
 * fails for another reason rejects its own call only.
 */
export class StoreRunRecorder implements RunRecorder {
  private readonly store: StoreAccess;
  private pending: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private readonly output = new Map<string, OutputSoFar>();
  private outputTimer: NodeJS.Timeout | null = null;

  constructor(store: Database | StoreAccess, private readonly options: RecorderOptions = {}) {
    this.store = store instanceof Database ? heldStore(store) : store;
  }

  private enqueue(write: (db: Database) => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ write, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    let waited = false;
    while (this.pending.length > 0) {
      const batch = this.pending;
      try {
        await this.store.use(async (db) => {
          this.pending = [];
          for (const item of batch) {
            try {
              await inTransaction(db, () => item.write(db));
              item.resolve();
            } catch (error) {
              item.reject(error);
            }
          }
        });
        if (waited) this.options.onWait?.(null);
        waited = false;
      } catch (error) {
        // Not opened: nothing of the batch was written, so all of it is tried again (with what came since).
        if (!isStoreLocked(error)) {
          this.pending = [];
          for (const item of batch) item.reject(error);
          continue;
        }
        if (!waited) this.options.onWait?.(error instanceof Error ? error.message : String(error));
        waited = true;
        await new Promise((resolve) => setTimeout(resolve, this.options.retryMs ?? 200));
      }
    }
    this.flushing = null;
  }

  /** Waits for every write asked for so far (output included). */
  async settled(): Promise<void> {
    this.writeOutput();
    while (this.flushing) await this.flushing;
  }

  runStarted(header: RunHeader): Promise<void> {
    return this.enqueue((db) => writeRunHeader(db, header));
  }

  runResumed(runId: string, hosts: Record<string, string[]>, at: number, pid: number | null, now?: { planJson: string; vars: Record<string, string> }): Promise<void> {
    return this.enqueue(async (db) => {
      await db.run(`UPDATE runs SET status = 'running', ended_at = NULL, waiting = NULL, hosts = ?, pid = ?, resumed_at = ${ts('?')} WHERE id = ?`, [JSON.stringify(hosts), pid, at, runId]);
      if (now) await db.run(`UPDATE runs SET plan_json = ?, vars = ? WHERE id = ?`, [now.planJson, JSON.stringify(now.vars), runId]);
    });
  }

  stepStarted(step: StepStart): Promise<void> {
    this.output.set(keyOf(step.runId, step), { runId: step.runId, target: { stepId: step.stepId, role: step.role, host: step.host }, text: '', before: 0, dirty: false });
    return this.enqueue((db) => writeStepStart(db, step));
  }

  stepFinished(step: StepFinish): Promise<void> {
    // The whole output goes with the end: what was buffered for the running step is superseded.
    this.output.delete(keyOf(step.runId, step));
    return this.enqueue((db) => writeStepFinish(db, step));
  }

  stepRemoteProcess(runId: string, target: { stepId: string; role: string; host: string; attempt: number }, pgid: number): Promise<void> {
    return this.enqueue(async (db) => {
      await db.run(`UPDATE run_steps SET remote_pgid = ? WHERE ${TARGET_WHERE}`, [pgid, runId, target.stepId, target.role, target.host, target.attempt]);
    });
  }

  runFinished(runId: string, status: RunStatus, endedAt: number): Promise<void> {
    this.output.clear();
    return this.enqueue((db) => writeRunEnd(db, runId, status, endedAt));
  }

  /**
   * What only the run's events say, for a watcher in another terminal: a running step's output
   * (its end), and what the run waits for from its operator. Written in the background, in order
   * with the rest; never awaited by the run.
   */
  readonly noteEvent = (runId: string, event: RunEvent): void => {
    switch (event.type) {
      case 'output': {
        const known = this.output.get(keyOf(runId, event.target));
        if (!known) return;
        const text = known.text + event.chunk;
        const cut = Math.max(0, text.length - RUNNING_OUTPUT_CHARS);
        this.output.set(keyOf(runId, event.target), { ...known, text: text.slice(cut), before: known.before + cut, dirty: true });
        this.outputTimer ??= setTimeout(() => this.writeOutput(), this.options.outputFlushMs ?? 1000);
        return;
      }
      case 'confirm':
        return this.noteWaiting(runId, { kind: 'confirm', target: event.target, command: event.command });
      case 'paused':
        return this.noteWaiting(runId, event.failed && event.failed.length > 0 ? { kind: 'failure', targets: event.failed } : { kind: 'paused' });
      case 'resumed':
        return this.noteWaiting(runId, null);
      case 'confirmed':
        return this.noteWaiting(runId, null);
      default:
        return;
    }
  };

  private noteWaiting(runId: string, waiting: RunWaiting | null): void {
    void this.enqueue(async (db) => {
      await db.run(`UPDATE runs SET waiting = ? WHERE id = ? AND status = 'running'`, [waiting === null ? null : JSON.stringify(waiting), runId]);
    }).catch(() => undefined);
  }

  private writeOutput(): void {
    if (this.outputTimer) clearTimeout(this.outputTimer);
    this.outputTimer = null;
    const dirty = [...this.output.values()].filter((item) => item.dirty);
    if (dirty.length === 0) return;
    for (const item of dirty) item.dirty = false;
    const rows = dirty.map((item) => ({ ...item }));
    void this.enqueue(async (db) => {
      for (const { runId, target, text, before } of rows) {
        // Only the attempt still running: an end written meanwhile holds the whole output already.
        await db.run(
          `UPDATE run_steps SET output = ? WHERE run_id = ? AND step_id = ? AND role = ? AND host IS NOT DISTINCT FROM ? AND status = 'running'`,
          [runningOutputOf(text, before), runId, target.stepId, target.role, target.host],
        );
      }
    }).catch(() => undefined);
  }
}
