import type { RunController, RunEvent } from '../core/run/events.js';
import type { Database } from '../store/database.js';
import type { StoreAccess } from '../store/store-lease.js';
import { expectLostTerminal, STOP_SIGNALS } from '../tui/lost-terminal.js';
import { RunEventBuffer } from '../tui/run-event-buffer.js';
import { loadTui, type TuiModule } from './commands/tui.js';
import { createTuiServices } from './tui-services.js';

export interface StartedRun {
  controller: RunController;
  done: Promise<{ status: string; diverged: number }>;
}

/**
 * Watches a live replay in the TUI (`retrace replay … --live --tui`): `start` launches the run
 * with the listener it is given (subscribed before the first event), then the TUI opens on the
 * live-run screen. Quitting the TUI before the run ends aborts it (the runner records that).
 */
export async function watchLiveRunInTui(
  store: Database | StoreAccess,
  start: (listener: (event: RunEvent) => void) => Promise<StartedRun>,
  print: (line: string) => void,
  load: () => Promise<Pick<TuiModule, 'runTui'>> = loadTui,
): Promise<{ status: string; diverged: number }> {
  const tui = load();
  const buffer = new RunEventBuffer();
  // The run starts before the TUI has loaded (seconds on a busy machine). A Ctrl-C, SIGTERM or
  // hangup in that window must stop the run and record it, as the TUI does later: without a
  // handler, the signal would end the process and leave the remote step running, unrecorded.
  const early = new EarlyStop();
  let run: StartedRun;
  try {
    run = await start(buffer.listener);
  } catch (error) {
    early.release();
    throw error;
  }
  early.attach(run.controller);
  const { runTui } = await tui;
  if (early.signalled) {
    // Stopping already: the handlers stay until the run is recorded (a hangup often comes twice:
    // the terminal closing, then its shell exiting), and the TUI is never drawn.
    await run.done.finally(() => early.release());
  } else {
    // Released and replaced by the TUI's own handlers in one synchronous step: no signal falls between.
    early.release();
    await runTui(createTuiServices(store, { liveRun: buffer.attach(run.controller) }), [{ screen: 'runs' }, { screen: 'live-run' }], {
      runningSteps: () => buffer.running(),
    });
  }
  const result = await run.done;
  // The alternate screen is gone with the TUI: the scrollback keeps what plain mode would print.
  print(`Run ${run.controller.runId}: ${result.status}${result.diverged > 0 ? ` (${result.diverged} diverged)` : ''}`);
  if (result.status !== 'ok') print(`Resume with: ${resumeCommandOf(run.controller.runId)}`);
  return result;
}

export function resumeCommandOf(runId: string): string {
  return `retrace replay --resume ${runId}`;
}

/** Stop signals that arrive before the TUI is up: they interrupt the run (once it exists). */
class EarlyStop {
  private controller: RunController | null = null;
  /** A stop signal came. */
  signalled = false;
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    this.signalled = true;
    expectLostTerminal(signal);
    this.controller?.interrupt();
  };

  constructor() {
    for (const signal of STOP_SIGNALS) process.on(signal, this.onSignal);
  }

  attach(controller: RunController): void {
    this.controller = controller;
    if (this.signalled) controller.interrupt();
  }

  release(): void {
    for (const signal of STOP_SIGNALS) process.off(signal, this.onSignal);
  }
}
