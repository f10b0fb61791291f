import { render } from 'ink';
import { App } from './App.js';
import type { Route } from './routes.js';
import type { TuiServices } from './services.js';
import { enterFullScreen, type TerminalStreams } from './terminal.js';
import { themeFromEnv } from './theme.js';

export interface RunTuiOptions extends Partial<TerminalStreams> {
  env?: NodeJS.ProcessEnv;
  /** Called once the first frame is on screen, with milliseconds since runTui started. */
  onFirstFrame?(milliseconds: number): void;
}

/**
 * Runs the TUI until the user quits: `start` is the stack of screens to open with (bottom first).
 * A live run still going when the user leaves (Ctrl-C) is aborted, never left running unwatched.
 */
export async function runTui(services: TuiServices, start: readonly Route[], options: RunTuiOptions = {}): Promise<void> {
  const began = performance.now();
  const streams: TerminalStreams = {
    stdout: options.stdout ?? process.stdout,
    stdin: options.stdin ?? process.stdin,
    stderr: options.stderr ?? process.stderr,
  };
  let runFinished = false;
  void services.liveRun?.finished.then(
    () => (runFinished = true),
    () => (runFinished = true),
  );
  const terminal = enterFullScreen(streams);
  let firstFrame = true;
  try {
    const instance = render(<App services={services} theme={themeFromEnv(options.env)} start={start} />, {
      ...streams,
      exitOnCtrlC: true,
      patchConsole: false,
      onRender: () => {
        if (!firstFrame) return;
        firstFrame = false;
        options.onFirstFrame?.(performance.now() - began);
      },
    });
    await instance.waitUntilExit();
  } finally {
    if (services.liveRun && !runFinished) services.liveRun.abort();
    terminal.restore();
  }
}
