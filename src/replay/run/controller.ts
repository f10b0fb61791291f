import type { HostOfStep, RunController, RunEvent, StepTarget } from '../../core/run/events.js';
import { targetKey } from '../../core/run/record.js';

/** A step on every host it runs on, or (with `on`) on one host of one role. */
export interface TargetChoice {
  stepId: string;
  on?: HostOfStep;
}

export function chosen(choice: TargetChoice, target: StepTarget): boolean {
  return choice.stepId === target.stepId && (!choice.on || (choice.on.role === target.role && choice.on.host === target.host));
}

/**
 * What the runner does after steps failed, once whoever watches has decided: run the chosen
 * failed targets again, record them as skipped and go on without them, or stop the run. Nothing
 * continues past a failure without one of these.
 */
export type FailureDecision = { kind: 'retry'; targets: TargetChoice[] } | { kind: 'skip'; targets: TargetChoice[] } | { kind: 'stop' };

/**
 * The RunController a watcher holds (the CLI's printer, the TUI's live screen) and the runner's
 * side of it: a pause gate, the skip set, pending confirmations, retries, and the abort signal
 * that stops the running step's remote process. Nothing here touches a host or the store.
 */
export class ReplayController implements RunController {
  readonly finished: Promise<{ runId: string; status: string; diverged: number }>;
  private resolveFinished!: (value: { runId: string; status: string; diverged: number }) => void;
  private readonly listeners = new Set<(event: RunEvent) => void>();
  /** Step ids skipped on every host, and `targetKey`s skipped on one. */
  private readonly skipped = new Set<string>();
  private readonly confirmations = new Map<string, (approved: boolean) => void>();
  private readonly abortController = new AbortController();
  private paused = false;
  private gateOpen: (() => void) | null = null;
  private failureWaiter: ((decision: FailureDecision) => void) | null = null;
  /** The failed targets the run holds on, while it does. */
  private held: StepTarget[] = [];
  private retries: TargetChoice[] = [];
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

  /** Ends a pause; a hold on a failure is ended only by retry, skip or a stop, never by resume. */
  resume(): void {
    if (!this.paused || this.failureWaiter) return;
    this.paused = false;
    this.gateOpen?.();
    this.gateOpen = null;
    this.emit({ type: 'resumed' });
  }

  skip(stepId: string, on?: HostOfStep): void {
    const choice: TargetChoice = { stepId, ...(on ? { on } : {}) };
    if (this.failureWaiter && this.held.some((target) => chosen(choice, target))) {
      this.settleFailure({ kind: 'skip', targets: [choice] });
      return;
    }
    this.skipped.add(on ? targetKey(stepId, on.role, on.host) : stepId);
    // A confirmation covers every host of the step: skipping one host does not answer it.
    if (!on) this.confirmations.get(stepId)?.(false);
  }

  retry(stepId: string, on?: HostOfStep): void {
    const choice: TargetChoice = { stepId, ...(on ? { on } : {}) };
    if (this.failureWaiter) this.settleFailure({ kind: 'retry', targets: [choice] });
    else this.retries.push(choice);
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
    this.held = [];
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

  isSkipped(target: StepTarget): boolean {
    return this.skipped.has(target.stepId) || this.skipped.has(targetKey(target.stepId, target.role, target.host));
  }

  /** Waits while paused; returns at once when running (or stopped). */
  async gate(): Promise<void> {
    while (this.paused && !this.stopped) {
      await new Promise<void>((resolve) => (this.gateOpen = resolve));
    }
  }

  /** Asks whoever watches to approve a destructive step; false when declined, skipped or stopped. */
  askConfirmation(target: StepTarget, command: string): Promise<boolean> {
    if (this.stopped || this.isSkipped(target)) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.confirmations.set(target.stepId, (approved) => {
        this.confirmations.delete(target.stepId);
        resolve(approved && !this.stopped);
        this.emit({ type: 'confirmed', target, approved: approved && !this.stopped });
      });
      this.emit({ type: 'confirm', target, command });
    });
  }

  /** After a failure: hold (paused) until a watcher retries or skips failed targets, or stops. */
  awaitFailureDecision(failed: readonly StepTarget[]): Promise<FailureDecision> {
    if (this.stopped) return Promise.resolve({ kind: 'stop' });
    const queued = this.retries.splice(0).filter((choice) => failed.some((target) => chosen(choice, target)));
    if (queued.length > 0) return Promise.resolve({ kind: 'retry', targets: queued });
    return new Promise((resolve) => {
      this.failureWaiter = resolve;
      this.held = [...failed];
      this.paused = true;
      this.emit({ type: 'paused', failed: [...failed] });
    });
  }
}
