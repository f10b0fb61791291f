import type { RunController, RunEvent, StepTarget } from '../core/run/events.js';

/** Output kept per step for a watcher that arrives late: a tail, so a chatty step cannot fill memory. */
const OUTPUT_BUDGET_CHARS = 256 * 1024;

function keyOf(target: StepTarget): string {
  return `${target.stepId}\u0000${target.role}\u0000${target.host}`;
}

/**
 * A run starts before the TUI has drawn its first frame, and the live-run screen subscribes
 * later still. The buffer listens from the start (pass `listener` to the runner) and gives
 * every later subscriber the events it missed, in order, then the live ones.
 */
export class RunEventBuffer {
  private events: RunEvent[] = [];
  private readonly outputChars = new Map<string, number>();
  private readonly subscribers = new Set<(event: RunEvent) => void>();

  readonly listener = (event: RunEvent): void => {
    this.events.push(event);
    if (event.type === 'output') this.trimOutput(keyOf(event.target), event.chunk.length);
    for (const subscriber of this.subscribers) subscriber(event);
  };

  /** Events held now (for tests and for a watcher that reads once). */
  get held(): readonly RunEvent[] {
    return this.events;
  }

  private trimOutput(step: string, added: number): void {
    const total = (this.outputChars.get(step) ?? 0) + added;
    if (total <= OUTPUT_BUDGET_CHARS) {
      this.outputChars.set(step, total);
      return;
    }
    let excess = total - OUTPUT_BUDGET_CHARS;
    this.events = this.events.filter((event) => {
      if (excess <= 0 || event.type !== 'output' || keyOf(event.target) !== step) return true;
      excess -= event.chunk.length;
      return false;
    });
    this.outputChars.set(step, OUTPUT_BUDGET_CHARS - Math.max(0, -excess));
  }

  /** Steps started and not finished yet (`stepId on host`): what a stop waits for. */
  running(): string[] {
    const open = new Map<string, string>();
    for (const event of this.events) {
      if (event.type === 'step-started') open.set(keyOf(event.target), `${event.target.stepId} on ${event.target.host}`);
      else if (event.type === 'step-finished') open.delete(keyOf(event.result));
    }
    return [...open.values()];
  }

  /** The controller as a watcher should see it: subscribing replays what happened so far. */
  attach(controller: RunController): RunController {
    const subscribers = this.subscribers;
    const events = () => this.events;
    return {
      get runId() {
        return controller.runId;
      },
      get finished() {
        return controller.finished;
      },
      subscribe(listener) {
        for (const event of events()) listener(event);
        subscribers.add(listener);
        return () => subscribers.delete(listener);
      },
      pause: () => controller.pause(),
      resume: () => controller.resume(),
      skip: (stepId, on) => controller.skip(stepId, on),
      retry: (stepId, on) => controller.retry(stepId, on),
      confirm: (stepId, approved) => controller.confirm(stepId, approved),
      abort: () => controller.abort(),
      interrupt: () => controller.interrupt(),
    };
  }
}
