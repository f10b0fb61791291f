import type { RunController, RunEvent } from '../core/run/events.js';
import type { Database } from '../store/database.js';
import { RunEventBuffer } from '../tui/run-event-buffer.js';
import { loadTui } from './commands/tui.js';
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
  db: Database,
  start: (listener: (event: RunEvent) => void) => Promise<StartedRun>,
  print: (line: string) => void,
): Promise<{ status: string; diverged: number }> {
  const tui = loadTui();
  const buffer = new RunEventBuffer();
  const run = await start(buffer.listener);
  const { runTui } = await tui;
  await runTui(createTuiServices(db, { liveRun: buffer.attach(run.controller) }), [{ screen: 'runs' }, { screen: 'live-run' }], {
    runningSteps: () => buffer.running(),
  });
  const result = await run.done;
  // The alternate screen is gone with the TUI: the scrollback keeps what plain mode would print.
  print(`Run ${run.controller.runId}: ${result.status}${result.diverged > 0 ? ` (${result.diverged} diverged)` : ''}`);
  if (result.status !== 'ok') print(`Resume with: ${resumeCommandOf(run.controller.runId)}`);
  return result;
}

export function resumeCommandOf(runId: string): string {
  return `retrace replay --resume ${runId}`;
}
