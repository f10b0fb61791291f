/**
 * The TUI draws on the terminal's alternate screen and gives the user's screen back as it was,
 * however it ends: quit, Ctrl-C, SIGTERM/SIGHUP, or a crash. Ink 6.8 has no option for this,
 * so the escape codes are written here, around `render()`.
 */
const ALTERNATE_SCREEN_ON = '\x1b[?1049h';
const ALTERNATE_SCREEN_OFF = '\x1b[?1049l';
const CLEAR_HOME = '\x1b[2J\x1b[H';
const CURSOR_HIDE = '\x1b[?25l';
const CURSOR_SHOW = '\x1b[?25h';
const ATTRIBUTES_RESET = '\x1b[0m';

export interface TerminalSession {
  /** Leaves the alternate screen, shows the cursor, ends raw mode. Safe to call more than once. */
  restore(): void;
}

export interface TerminalStreams {
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WriteStream;
}

const SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;

export interface FullScreenOptions {
  /**
   * An uncaught error or rejection, after the terminal is restored. Without it the error is printed
   * and the process exits 1; a live run passes its own, which stops and records the run first.
   */
  onCrash?(error: unknown): void;
}

/** Switches to the alternate screen and arranges for the terminal to be restored on every way out. */
export function enterFullScreen(streams: TerminalStreams, proc: NodeJS.Process = process, options: FullScreenOptions = {}): TerminalSession {
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    proc.off('exit', restore);
    for (const signal of SIGNALS) proc.off(signal, onSignal);
    crashes.restore();
    // A terminal that hung up (SIGHUP) fails both: there is nothing left to restore.
    try {
      if (streams.stdin.isTTY && streams.stdin.isRaw) streams.stdin.setRawMode(false);
      streams.stdout.write(ATTRIBUTES_RESET + CURSOR_SHOW + ALTERNATE_SCREEN_OFF);
    } catch {
      // gone
    }
  };
  const onSignal = (signal: NodeJS.Signals) => {
    restore();
    // Our handler is gone: raised again, the signal does what it would have done without us
    // (unless someone else, e.g. a replay runner, handles it).
    if (proc.listenerCount(signal) === 0) proc.kill(proc.pid, signal);
  };
  const onCrash = (error: unknown) => {
    restore();
    if (options.onCrash) {
      options.onCrash(error);
      return;
    }
    streams.stderr.write(crashReport(error));
    proc.exit(1);
  };
  proc.on('exit', restore);
  for (const signal of SIGNALS) proc.on(signal, onSignal);
  const crashes = catchCrashes(onCrash, proc);
  streams.stdout.write(ALTERNATE_SCREEN_ON + CLEAR_HOME + CURSOR_HIDE);
  return { restore };
}

/** The line a crash of the TUI prints. */
export function crashReport(error: unknown): string {
  return `retrace tui: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`;
}

/**
 * An uncaught error or rejection goes to `onCrash` (once), until `restore`: under the full screen,
 * and in plain mode (TERM=dumb), which has no screen to give back but whose live run needs its crashes.
 */
export function catchCrashes(onCrash: (error: unknown) => void, proc: NodeJS.Process = process): TerminalSession {
  const restore = () => {
    proc.off('uncaughtException', crashed);
    proc.off('unhandledRejection', crashed);
  };
  const crashed = (error: unknown) => {
    restore();
    onCrash(error);
  };
  proc.on('uncaughtException', crashed);
  proc.on('unhandledRejection', crashed);
  return { restore };
}
