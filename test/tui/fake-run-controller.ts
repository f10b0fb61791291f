import type { HostOfStep, RunController, RunEvent, StepTarget } from '../../src/core/run/events.js';

/**
 * A RunController a test drives by hand: it emits the events the test gives it and records the
 * controls the TUI used. No runner, no SSH: the live-run screen is tested against the contract.
 */
export class FakeRunController implements RunController {
  readonly controls: string[] = [];
  private readonly listeners = new Set<(event: RunEvent) => void>();
  private settle: (value: { runId: string; status: string; diverged: number }) => void = () => undefined;
  readonly finished = new Promise<{ runId: string; status: string; diverged: number }>((resolve) => (this.settle = resolve));

  constructor(readonly runId = 'run_live_test') {}

  subscribe(listener: (event: RunEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(...events: RunEvent[]): void {
    for (const event of events) {
      for (const listener of this.listeners) listener(event);
      if (event.type === 'run-finished') this.settle({ runId: event.runId, status: event.status, diverged: event.diverged });
    }
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  pause(): void {
    this.controls.push('pause');
  }
  resume(): void {
    this.controls.push('resume');
  }
  skip(stepId: string, on?: HostOfStep): void {
    this.controls.push(`skip ${stepId}${on ? ` on ${on.role} ${on.host}` : ''}`);
  }
  retry(stepId: string, on?: HostOfStep): void {
    this.controls.push(`retry ${stepId}${on ? ` on ${on.role} ${on.host}` : ''}`);
  }
  confirm(stepId: string, approved: boolean): void {
    this.controls.push(`confirm ${stepId} ${approved ? 'yes' : 'no'}`);
  }
  abort(): void {
    this.controls.push('abort');
  }
  interrupt(): void {
    this.controls.push('interrupt');
  }
}

export const HEAD: StepTarget = { stepId: 'stop-glm', role: 'head', host: 'aurora@127.0.0.2:2222' };

export function target(stepId: string, role = 'head'): StepTarget {
  return { stepId, role, host: role === 'head' ? 'aurora@127.0.0.2:2222' : 'aurora@127.0.0.3:2222' };
}

/** The start of a four-step run, as the runner announces it. */
export function runStarted(runId = 'run_live_test'): RunEvent {
  return { type: 'run-started', runId, mode: 'live', steps: ['stop-glm', 'pull-image', 'probe-image', 'health'].map((id) => target(id)) };
}
