import { cleanText, withoutTerminalControls } from '../core/terminal-text.js';

/**
 * The CLI's output layer: the only place that writes to the terminal. Commands return data and
 * text; this writes them, so `--json` prints one document on stdout and nothing else. Text from
 * transcripts can hold terminal escape sequences (a recorded `ls --color`, a window title, a
 * clipboard write): none of it reaches the terminal as a control sequence.
 */
export interface Output {
  /** A line (or block) of human output on stdout, as the TUI shows text: escapes dropped, `\r` overwrites. */
  line(text?: string): void;
  /** A machine format (CSV, YAML, a script, a diagram) on stdout: byte for byte into a pipe or file, without control sequences on a terminal. */
  data(text: string): void;
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
  const toTerminal = Boolean(stdout.isTTY);
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
      stdout.write(`${cleanText(text)}\n`);
    },
    data(text) {
      stdout.write(`${toTerminal ? withoutTerminalControls(text) : text}\n`);
    },
    json(value) {
      stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    },
    warn(text) {
      if (statusShown) this.clearStatus();
      stderr.write(`${cleanText(text)}\n`);
    },
    status(text) {
      if (!interactive) return;
      stderr.write(`\r\x1b[2K${cleanText(text).replace(/\n/g, ' ')}`);
      statusShown = true;
    },
    clearStatus() {
      if (!statusShown) return;
      stderr.write('\r\x1b[2K');
      statusShown = false;
    },
  };
}
