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
