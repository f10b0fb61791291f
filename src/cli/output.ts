/**
 * The CLI's output layer: the only place that writes to the terminal. Commands return data and
 * text; this writes them, so `--json` prints one document on stdout and nothing else.
 */
export interface Output {
  /** A line (or block) of human output on stdout. */
  line(text?: string): void;
  /** One JSON document on stdout. */
  json(value: unknown): void;
  /** Diagnostics on stderr. */
  warn(text: string): void;
  /** A transient status line on stderr when it is a terminal (a progress bar); no-op otherwise. */
  status(text: string): void;
  clearStatus(): void;
  readonly interactive: boolean;
  readonly columns: number;
}

export function consoleOutput(stdout: NodeJS.WriteStream = process.stdout, stderr: NodeJS.WriteStream = process.stderr): Output {
  let statusShown = false;
  const interactive = Boolean(stderr.isTTY);
  // A reader that stops early (`retrace sql … | head`) closes the pipe: that is not an error.
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  return {
    interactive,
    get columns() {
      return stdout.columns ?? stderr.columns ?? 100;
    },
    line(text = '') {
      stdout.write(`${text}\n`);
    },
    json(value) {
      stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    },
    warn(text) {
      if (statusShown) this.clearStatus();
      stderr.write(`${text}\n`);
    },
    status(text) {
      if (!interactive) return;
      stderr.write(`\r\x1b[2K${text}`);
      statusShown = true;
    },
    clearStatus() {
      if (!statusShown) return;
      stderr.write('\r\x1b[2K');
      statusShown = false;
    },
  };
}
