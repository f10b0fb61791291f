import { closeSync } from 'node:fs';
import { isatty } from 'node:tty';

/** Errors of a write to a terminal that is gone (closed window, dropped ssh session). */
const LOST_TERMINAL_CODES = new Set(['EIO', 'EPIPE', 'ENXIO', 'EBADF']);

export function isLostTerminalError(error: unknown): boolean {
  return error instanceof Error && LOST_TERMINAL_CODES.has((error as NodeJS.ErrnoException).code ?? '');
}

let installed = false;

/**
 * After SIGHUP the terminal is gone and every write to it fails (EIO), some of them outside any
 * stream listener (Ink's cursor on unmount, the CLI's last lines). A live run must still stop its
 * remote steps and record itself, so from then on such failures are ignored; any other uncaught
 * error still ends the process as it would have.
 */
export function surviveLostTerminal(proc: NodeJS.Process = process): void {
  if (installed) return;
  installed = true;
  proc.on('uncaughtException', (error) => {
    if (isLostTerminalError(error)) return;
    proc.stderr.write(`retrace: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    proc.exit(1);
  });
}

let closingAtExit = false;
/** Which standard streams were a terminal when retrace started (after a hangup isatty says no). */
const STARTED_ON_TERMINAL = [0, 1, 2].filter((fd) => isatty(fd));

/**
 * After SIGHUP: at exit, close the standard streams that were the terminal. Node restores a
 * terminal's settings as it exits and aborts (a native assertion, exit 134) when the terminal is
 * gone (EIO) — nodejs/node#51519, fixed after Node 20. A closed descriptor is skipped.
 */
export function closeLostTerminalAtExit(proc: NodeJS.Process = process): void {
  if (closingAtExit) return;
  closingAtExit = true;
  proc.once('exit', () => {
    for (const fd of STARTED_ON_TERMINAL) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    }
  });
}

/** The signals that stop a live run: Ctrl-C, a `kill`, the terminal or the ssh session closing. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * What every stop handler does first: from now on a write to a terminal that is gone must not end
 * the process before the run is stopped and recorded; after SIGHUP it is gone, so it is also closed
 * at exit (see closeLostTerminalAtExit).
 */
export function expectLostTerminal(signal: NodeJS.Signals, proc: NodeJS.Process = process): void {
  surviveLostTerminal(proc);
  if (signal === 'SIGHUP') closeLostTerminalAtExit(proc);
}
