import { EventEmitter } from 'node:events';
import { createInterface } from 'node:readline';
import { render } from 'ink';
import type { ReactElement } from 'react';
import { PLAIN_HELP, plainKeys } from './state/plain-keys.js';
import type { TerminalStreams } from './terminal.js';

/**
 * `TERM=dumb` (an editor's shell buffer, a serial console, a screen reader's pipe) cannot move
 * the cursor, switch screens or read single keys. The same screens run there line by line: Ink
 * draws into a frame kept here, never to the terminal; once a frame has settled it is printed as
 * plain lines, then a prompt reads a line of keys in the terminal's own cooked mode.
 */
export function plainModeWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['TERM'] === 'dumb';
}

/** Frames that are still changing are not printed: a screen that loads draws several. */
const SETTLE_MS = 250;
/** …but a screen still loading after this long is printed as it is. */
const SETTLE_MAX_MS = 5_000;

/** Between the keys of a typed line, as between keys typed quickly. */
const KEY_GAP_MS = 15;

/** What a screen says while a service has not answered yet (see the screens' status lines). */
const PENDING = /loading…|searching for ".*"…/;

/** Ink's stdout: keeps the last frame (debug mode writes each one whole, with no escape codes). */
class FrameSink extends EventEmitter {
  frame = '';
  changed = 0;
  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    super();
  }
  write = (frame: string): boolean => {
    this.frame = frame;
    this.changed = Date.now();
    return true;
  };
}

/** Ink's stdin: the keys of each typed line, read as a terminal in raw mode would hand them over. */
class KeySource extends EventEmitter {
  readonly isTTY = true;
  private readonly queue: string[] = [];
  /** One key per read, a moment apart: two Esc in one read would be taken for Alt-Esc. */
  async send(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      this.queue.push(key);
      this.emit('readable');
      await new Promise((resolve) => setTimeout(resolve, KEY_GAP_MS));
    }
  }
  read = (): string | null => this.queue.shift() ?? null;
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

/**
 * A frame as lines for a terminal that only prints: trailing blanks cut, and a run of empty lines
 * (a short list in a tall screen) kept as one, so a screen costs its content, not its height.
 */
export function frameLines(frame: string): string[] {
  const lines: string[] = [];
  for (const line of frame.split('\n').map((text) => text.trimEnd())) {
    if (line === '' && (lines.length === 0 || lines[lines.length - 1] === '')) continue;
    lines.push(line);
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

async function settled(sink: FrameSink): Promise<string> {
  const began = Date.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const quiet = Date.now() - sink.changed >= SETTLE_MS;
    if ((quiet && !PENDING.test(sink.frame)) || Date.now() - began >= SETTLE_MAX_MS) return sink.frame;
  }
}

export interface PlainInstance {
  unmount(): void;
  waitUntilExit(): Promise<void>;
}

/** Renders `app` line by line on `streams` until it exits (q) or the input ends. */
export function renderPlain(app: ReactElement, streams: TerminalStreams): PlainInstance {
  const sink = new FrameSink(streams.stdout.columns || 80, streams.stdout.rows || 24);
  const keys = new KeySource();
  const instance = render(app, {
    stdout: sink as unknown as NodeJS.WriteStream,
    stdin: keys as unknown as NodeJS.ReadStream,
    stderr: streams.stderr,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const lines = createInterface({ input: streams.stdin, terminal: false });
  let printed: string | null = null;
  let open = true;
  const show = async () => {
    const frame = await settled(sink);
    if (!open) return;
    streams.stdout.write(frame === printed ? '(the screen did not change)\n' : `${frameLines(frame).join('\n')}\n`);
    printed = frame;
    streams.stdout.write('> ');
  };
  const reading = (async () => {
    streams.stdout.write(`${PLAIN_HELP}\n`);
    await show();
    for await (const line of lines) {
      if (!open) break;
      await keys.send(plainKeys(line));
      await show();
    }
  })();
  const closed = () => {
    open = false;
    lines.close();
  };
  const exited: Promise<void> = instance.waitUntilExit().then(closed, (error: unknown) => {
    closed();
    throw error;
  });
  // The input ended (Ctrl-D, a closed pipe): the screens end with it.
  void reading.then(() => open && instance.unmount(), () => open && instance.unmount());
  return { unmount: () => instance.unmount(), waitUntilExit: () => exited };
}
