import { render } from 'ink';
import { App } from './App.js';
import type { Route } from './routes.js';
import type { TuiServices } from './services.js';
import { catchCrashes, crashReport, enterFullScreen, type TerminalSession, type TerminalStreams } from './terminal.js';
import { themeFromEnv } from './theme.js';
import { expectLostTerminal, isLostTerminalError, STOP_SIGNALS } from './lost-terminal.js';
import { plainModeWanted, renderPlain } from './plain-mode.js';

export interface RunTuiOptions extends Partial<TerminalStreams> {
  env?: NodeJS.ProcessEnv;
  /** Called once the first frame is on screen, with milliseconds since runTui started. */
  onFirstFrame?(milliseconds: number): void;
  /** A live run's steps still running (`check-cluster on aurora@…`): what a stop waits for. */
  runningSteps?(): string[];
}

/** How long a stop may take before the user is told what it waits for. */
const STOP_NOTICE_MS = 1_000;

/**
 * Runs the TUI until the user quits: `start` is the stack of screens to open with (bottom first).
 * A live run still going when the TUI ends — Ctrl-C, SIGTERM, SIGHUP (the terminal or the ssh
 * session closed) — is interrupted: its remote process groups are stopped and the run recorded
 * as interrupted (so `--resume` goes on), never left running unwatched.
 */
export async function runTui(services: TuiServices, start: readonly Route[], options: RunTuiOptions = {}): Promise<void> {
  const began = performance.now();
  const streams: TerminalStreams = {
    stdout: options.stdout ?? process.stdout,
    stdin: options.stdin ?? process.stdin,
    stderr: options.stderr ?? process.stderr,
  };
  // A run this process steers: stopping the TUI stops it. One watched from another terminal
  // (`tui --run ID`, liveRunWatch) goes on when the watcher leaves, by a key or a signal.
  const liveRun = services.liveRunWatch ? undefined : services.liveRun;
  let runFinished = false;
  void liveRun?.finished.then(
    () => (runFinished = true),
    () => (runFinished = true),
  );
  let unmount: (() => void) | null = null;
  const onStopSignal = (signal: NodeJS.Signals) => {
    expectLostTerminal(signal);
    liveRun?.interrupt();
    try {
      unmount?.();
    } catch {
      // Ink's last frame to a hung-up terminal: the run is stopping all the same.
    }
  };
  // An uncaught error while a live run goes on. A write to a terminal that is gone can fail before
  // the hangup's SIGHUP is handled (a frame drawn in between): that is the hangup, and stops the run
  // as SIGHUP does. Anything else is reported, and the run is stopped and recorded before the exit
  // (either way the stop handler takes over errors from here: see expectLostTerminal).
  const onLiveCrash = (error: unknown) => {
    if (isLostTerminalError(error)) return onStopSignal('SIGHUP');
    say(streams.stderr, crashReport(error));
    onStopSignal('SIGINT');
  };
  if (liveRun) {
    // Registered before the terminal's own handlers, so the last frame is drawn on the alternate
    // screen before it is left. A hung-up terminal fails every write (EIO): that must not crash the
    // process before the run is stopped and recorded (see expectLostTerminal).
    for (const signal of STOP_SIGNALS) process.on(signal, onStopSignal);
    for (const stream of [streams.stdout, streams.stderr, streams.stdin]) stream.on('error', ignore);
  }
  // TERM=dumb: the same screens, printed line by line, keys read a line at a time (plain-mode.ts).
  const plain = plainModeWanted(options.env);
  // Raw before the first frame: a key typed while the screens load is neither echoed nor held in
  // the terminal's line buffer; it waits, unread, until Ink reads stdin, and is routed then.
  if (streams.stdin.isTTY && !plain) streams.stdin.setRawMode(true);
  const terminal: TerminalSession = plain
    ? (liveRun ? catchCrashes(onLiveCrash) : { restore: () => undefined })
    : enterFullScreen(streams, process, liveRun ? { onCrash: onLiveCrash } : {});
  let firstFrame = true;
  try {
    const theme = plain ? { colour: false } : themeFromEnv(options.env);
    const app = <App services={services} theme={theme} start={start} />;
    const instance = plain
      ? renderPlain(app, streams)
      : render(app, {
        ...streams,
        exitOnCtrlC: true,
        patchConsole: false,
        onRender: () => {
          if (!firstFrame) return;
          firstFrame = false;
          options.onFirstFrame?.(performance.now() - began);
        },
      });
    unmount = () => instance.unmount();
    await instance.waitUntilExit();
  } finally {
    terminal.restore();
    try {
      if (liveRun && !runFinished) await stopLiveRun(liveRun, streams.stderr, options.runningSteps);
    } finally {
      for (const signal of STOP_SIGNALS) process.off(signal, onStopSignal);
    }
  }
}

/** A line for the user, if a terminal is still there to read it (after SIGHUP it is not). */
function say(stream: NodeJS.WriteStream, text: string): void {
  try {
    stream.write(text);
  } catch {
    // the terminal is gone
  }
}

function ignore(): void {
  // A closed terminal: nothing to tell it.
}

/** Interrupts the run and waits until it is recorded, saying what it waits for when that takes a while. */
async function stopLiveRun(liveRun: NonNullable<TuiServices['liveRun']>, stderr: NodeJS.WriteStream, runningSteps?: () => string[]): Promise<void> {
  liveRun.interrupt();
  say(stderr, 'Interrupted: stopping the running step and recording the run …\n');
  const notice = setTimeout(() => {
    const waiting = runningSteps?.() ?? [];
    say(stderr, waiting.length > 0 ? `Still stopping: waiting for ${waiting.join(', ')} (its remote process group)…\n` : 'Still stopping: recording the run …\n');
  }, STOP_NOTICE_MS);
  try {
    await liveRun.finished;
  } finally {
    clearTimeout(notice);
  }
}
