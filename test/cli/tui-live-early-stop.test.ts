import { afterEach, describe, expect, it } from 'vitest';
import type { RunController, RunEvent } from '../../src/core/run/events.js';
import { watchLiveRunInTui } from '../../src/cli/tui-live.js';
import type { Database } from '../../src/store/database.js';

/** A run that is asked to stop, and ends as interrupted when the test says (the remote step stopped, the run recorded). */
function interruptibleRun(): { controller: RunController; done: Promise<{ status: string; diverged: number }>; interrupts: () => number; finish: () => void } {
  let interrupts = 0;
  let finish: (value: { status: string; diverged: number }) => void = () => undefined;
  const done = new Promise<{ status: string; diverged: number }>((resolve) => (finish = resolve));
  const stop = () => {
    interrupts += 1;
  };
  const controller: RunController = {
    runId: 'run_early_stop',
    finished: done.then((result) => ({ runId: 'run_early_stop', ...result })),
    subscribe: (listener: (event: RunEvent) => void) => {
      void listener;
      return () => undefined;
    },
    pause: () => undefined,
    resume: () => undefined,
    skip: () => undefined,
    retry: () => undefined,
    confirm: () => undefined,
    abort: stop,
    interrupt: stop,
  };
  return { controller, done, interrupts: () => interrupts, finish: () => finish({ status: 'interrupted', diverged: 0 }) };
}

const listenersBefore = process.listenerCount('SIGTERM');
afterEach(() => expect(process.listenerCount('SIGTERM')).toBe(listenersBefore));

describe('a live run watched in the TUI, stopped before the TUI is up', () => {
  it('interrupts the run on SIGTERM, never draws the TUI, and prints the run id and the Resume line', async () => {
    const run = interruptibleRun();
    let releaseLoad: () => void = () => undefined;
    let drawn = false;
    const load = () =>
      new Promise<{ runTui: () => Promise<void> }>((resolve) => {
        releaseLoad = () => resolve({ runTui: async () => void (drawn = true) });
      });
    const printed: string[] = [];
    const watching = watchLiveRunInTui({} as Database, async () => ({ controller: run.controller, done: run.done }), (line) => printed.push(line), load);
    await new Promise((resolve) => setImmediate(resolve));
    // The signal arrives while the TUI's code is still loading (a busy machine, a slow disk).
    process.emit('SIGTERM', 'SIGTERM');
    releaseLoad();
    await new Promise((resolve) => setImmediate(resolve));
    // A second signal while the run is being stopped (a hangup often comes twice) is still handled.
    expect(process.listenerCount('SIGTERM')).toBe(listenersBefore + 1);
    process.emit('SIGTERM', 'SIGTERM');
    run.finish();
    const result = await watching;
    expect(run.interrupts()).toBe(2);
    expect(drawn).toBe(false);
    expect(result.status).toBe('interrupted');
    expect(printed).toEqual(['Run run_early_stop: interrupted', 'Resume with: retrace replay --resume run_early_stop']);
  });
});
