import type { RunController, RunEvent, StepTarget } from '../../core/run/events.js';

/** What the runner does after a step failed, once whoever watches has decided. */
export type FailureDecision = { kind: 'retry'; stepIds: string[] } | { kind: 'continue' } | { kind: 'stop' };

/**
 * The RunController a watcher holds (the CLI's printer, the TUI's live screen) and the runner's
 * side of it: a pause gate, the skip set, pending confirmations, retries, and the abort signal
 * that stops the running step's remote process. Nothing here touches a host or the store.
 */
export class ReplayController implements RunController {
  readonly finished: Promise<{ runId: string; status: string; diverged: number }>;
  private resolveFinished!: (value: { runId: string; status: string; diverged: number }) => void;
  private readonly listeners = new Set<(event: RunEvent) => void>();
  private readonly skipped = new Set<string>();
  private readonly confirmations = new Map<string, (approved: boolean) => void>();
  private readonly abortController = new AbortController();
  private paused = false;
  private gateOpen: (() => void) | null = null;
  private failureWaiter: ((decision: FailureDecision) => void) | null = null;
  private retries: string[] = [];
  /** Why the run stopped early: `aborted` by a watcher, `interrupted` by Ctrl-C. */
  stopped: 'aborted' | 'interrupted' | null = null;

  constructor(readonly runId: string) {
    this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
  }

  subscribe(listener: (event: RunEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: RunEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A watcher's bug must not stop a run that is changing real machines.
      }
    }
    if (event.type === 'run-finished') this.resolveFinished({ runId: event.runId, status: event.status, diverged: event.diverged });
  }

  pause(): void {
    if (this.paused || this.stopped) return;
    this.paused = true;
    this.emit({ type: 'paused' });
  }

  resume(): void {
    if (this.failureWaiter) {
      this.settleFailure({ kind: 'continue' });
      return;
    }
    if (!this.paused) return;
    this.paused = false;
    this.gateOpen?.();
    this.gateOpen = null;
    this.emit({ type: 'resumed' });
  }

  skip(stepId: string): void {
    this.skipped.add(stepId);
    this.confirmations.get(stepId)?.(false);
  }

  retry(stepId: string): void {
    if (this.failureWaiter) this.settleFailure({ kind: 'retry', stepIds: [stepId] });
    else this.retries.push(stepId);
  }

  confirm(stepId: string, approved: boolean): void {
    this.confirmations.get(stepId)?.(approved);
  }

  abort(): void {
    this.stop('aborted');
  }

  /** Ctrl-C: like abort, but the run is recorded as interrupted. */
  interrupt(): void {
    this.stop('interrupted');
  }

  private stop(why: 'aborted' | 'interrupted'): void {
    if (this.stopped) return;
    this.stopped = why;
    this.abortController.abort();
    for (const answer of this.confirmations.values()) answer(false);
    this.gateOpen?.();
    this.settleFailure({ kind: 'stop' });
  }

  private settleFailure(decision: FailureDecision): void {
    const waiter = this.failureWaiter;
    this.failureWaiter = null;
    if (waiter && this.paused) {
      this.paused = false;
      this.emit({ type: 'resumed' });
    }
    waiter?.(decision);
  }

  // ---- the runner's side

  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  isSkipped(stepId: string): boolean {
    return this.skipped.has(stepId);
  }

  /** Waits while paused; returns at once when running (or stopped). */
  async gate(): Promise<void> {
    while (this.paused && !this.stopped) {
      await new Promise<void>((resolve) => (this.gateOpen = resolve));
    }
  }

  /** Asks whoever watches to approve a destructive step; false when declined, skipped or stopped. */
  askConfirmation(target: StepTarget, command: string): Promise<boolean> {
    if (this.stopped || this.skipped.has(target.stepId)) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.confirmations.set(target.stepId, (approved) => {
        this.confirmations.delete(target.stepId);
        resolve(approved && !this.stopped);
      });
      this.emit({ type: 'confirm', target, command });
    });
  }

  /** After a failure, with `hold`: pause until a watcher retries, resumes or aborts. */
  awaitFailureDecision(hold: boolean): Promise<FailureDecision> {
    if (this.stopped) return Promise.resolve({ kind: 'stop' });
    const queued = this.retries.splice(0);
    if (queued.length > 0) return Promise.resolve({ kind: 'retry', stepIds: queued });
    if (!hold) return Promise.resolve({ kind: 'stop' });
    return new Promise((resolve) => {
      this.failureWaiter = resolve;
      this.paused = true;
      this.emit({ type: 'paused' });
    });
  }
}
