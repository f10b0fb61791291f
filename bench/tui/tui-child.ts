import { appendFileSync, writeFileSync } from 'node:fs';
import { createTuiServices } from '../../src/cli/tui-services.js';
import { Database } from '../../src/store/database.js';
import { emitResult } from '../lib/child.js';
import { percentile } from '../lib/stats.js';
import { cpuMs, FakeStdin, FakeStdout, type Write } from './fake-terminal.js';
import { keyScript } from './key-script.js';

/**
 * `node tui-child.js DB SESSION KEYS`: the real App (real services over the store) rendered by
 * Ink into a fake 120×40 terminal, opened on the session's timeline as `retrace tui SESSION`
 * does. Times the first frame, the first frame with rows, and each scripted key to the next
 * frame and to the frame where the screen settles (its data loaded).
 */
export interface KeyTimings {
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  count: number;
}

export interface TuiChildResult {
  openMs: number;
  firstFrameMs: number;
  firstRowsMs: number;
  timelineRows: string;
  keyToFrame: KeyTimings;
  /** CPU time the process spent from the key to its first frame (DuckDB's threads included). */
  keyToFrameCpu: KeyTimings;
  keyToSettled: KeyTimings;
  inkRender: KeyTimings;
  noFrame: number;
  byKind: Record<string, { p95Ms: number; count: number }>;
}

const [dbPath, sessionId, keysText = '500'] = process.argv.slice(2);
if (!dbPath || !sessionId) throw new Error('usage: tui-child.js DB SESSION [KEYS]');

// Ink draws nothing until exit when it believes it runs in CI; this is an interactive session.
delete process.env['CI'];
delete process.env['CONTINUOUS_INTEGRATION'];
// What `retrace tui` runs (loadTui): React's production build. Unset, React runs its development
// checks, which users never pay and which were half of this figure's render time.
// React is imported only after this line (a static import would load its development build first).
process.env['NODE_ENV'] ??= 'production';
const { createElement } = await import('react');
const { render } = await import('ink');
const { App } = await import('../../src/tui/App.js');

/**
 * When set, the settled frame of every key goes there (JSON lines), to compare two builds' screens.
 * A capture waits a second of quiet: a detail still loading after 40 ms would make two captures differ.
 */
const CAPTURE = process.env['BENCH_TUI_CAPTURE'];
if (CAPTURE) writeFileSync(CAPTURE, '');
const QUIET_MS = CAPTURE ? 1000 : 40;
/** A status line still waiting for a service: not settled yet. */
const BUSY = /loading…|searching for/;
/** The cursor on a row whose page is still being read (drawn `…`): Enter there would open nothing. */
const ROW_PENDING = /^\s*›\s*…\s*$/m;
const NO_FRAME_MS = 1000;
const COLUMNS = 120;
const ROWS = 40;

const opened = performance.now();
const db = await Database.open(dbPath, { readOnly: true });
const title = String((await db.one('SELECT title FROM sessions WHERE id = ?', [sessionId]))?.['title'] ?? sessionId);
const openMs = performance.now() - opened;
const services = createTuiServices(db);
const stdout = new FakeStdout(COLUMNS, ROWS);
const stdin = new FakeStdin();
const stderr = new FakeStdout(COLUMNS, ROWS);

let frames: Write[] = [];
stdout.onFrame = (write) => frames.push(write);
const renderTimes: number[] = [];

/** The frame's last line: the screen's status ("row 3/87", "loading…", "searching for …"). */
function statusLine(): string {
  return stdout.lastFrame().split('\n').filter((line) => line.trim() !== '').pop() ?? '';
}

/**
 * Resolves when no frame has been written for QUIET_MS since the last one and the screen waits for
 * nothing. Before a key's first frame the wait is NO_FRAME_MS: a loaded machine can take more than
 * QUIET_MS to draw it, and a key typed before it lands on the wrong screen (the script desyncs).
 */
function settled(since: number, timeoutMs: number): Promise<Write | null> {
  return new Promise((resolve) => {
    const deadline = since + timeoutMs;
    const check = (): void => {
      const last = frames.at(-1) ?? null;
      const now = performance.now();
      const quiet = last ? now - last.at >= QUIET_MS : now - since >= NO_FRAME_MS;
      if ((quiet && !BUSY.test(statusLine()) && !ROW_PENDING.test(stdout.lastFrame())) || now > deadline) {
        resolve(last);
        return;
      }
      setTimeout(check, 5);
    };
    setTimeout(check, 5);
  });
}

const started = performance.now();
const instance = render(createElement(App, {
  services,
  theme: { colour: false },
  start: [{ screen: 'sessions' }, { screen: 'timeline', sessionId, title }],
  size: { columns: COLUMNS, rows: ROWS },
}), {
  stdout: stdout as unknown as NodeJS.WriteStream,
  stdin: stdin as unknown as NodeJS.ReadStream,
  stderr: stderr as unknown as NodeJS.WriteStream,
  exitOnCtrlC: false,
  patchConsole: false,
  onRender: ({ renderTime }: { renderTime: number }) => renderTimes.push(renderTime),
});

// First frame, then the first frame that shows rows (the status line turns from "loading…" to "row N/M").
while (frames.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
const firstFrameMs = (frames[0]?.at ?? started) - started;
let firstRowsAt: number | null = null;
const rowsDeadline = performance.now() + 30_000;
while (firstRowsAt === null && performance.now() < rowsDeadline) {
  const found = frames.find((frame) => /row \d+\/\d+/.test(frame.text));
  if (found) firstRowsAt = found.at;
  else await new Promise((resolve) => setTimeout(resolve, 2));
}
const timelineRows = /row \d+\/(\d+)/.exec(stdout.lastFrame())?.[1] ?? '?';
await settled(performance.now(), 5000);
renderTimes.length = 0;

const toFrame: number[] = [];
const toFrameCpu: number[] = [];
const toSettled: number[] = [];
const byKind = new Map<string, number[]>();
let noFrame = 0;
for (const { key, kind } of keyScript(Number(keysText))) {
  frames = [];
  const pressed = performance.now();
  const pressedCpu = cpuMs();
  stdin.type(key);
  const last = await settled(pressed, NO_FRAME_MS + 2000);
  const first = frames[0];
  if (process.env['BENCH_TUI_DEBUG']) {
    const status = stdout.lastFrame().split('\n').filter((line) => line.trim()).slice(-2).join(' / ');
    process.stderr.write(`${JSON.stringify(key)} frames=${frames.length} ${Math.round(performance.now() - pressed)}ms ${status.slice(0, 150)}\n`);
  }
  if (CAPTURE) appendFileSync(CAPTURE, `${JSON.stringify({ key, frame: last?.text ?? null })}\n`);
  if (!first || !last) {
    noFrame += 1;
    continue;
  }
  toFrame.push(first.at - pressed);
  toFrameCpu.push(first.cpuMs - pressedCpu);
  toSettled.push(last.at - pressed);
  const list = byKind.get(kind) ?? [];
  list.push(first.at - pressed);
  byKind.set(kind, list);
}
instance.unmount();
db.close();

const summary = (values: number[]): KeyTimings => ({ p50Ms: percentile(values, 50), p95Ms: percentile(values, 95), maxMs: Math.max(...values), count: values.length });
emitResult({
  openMs,
  firstFrameMs,
  firstRowsMs: (firstRowsAt ?? Number.NaN) - started,
  timelineRows,
  keyToFrame: summary(toFrame),
  keyToFrameCpu: summary(toFrameCpu),
  keyToSettled: summary(toSettled),
  inkRender: summary(renderTimes),
  noFrame,
  byKind: Object.fromEntries([...byKind].map(([kind, values]) => [kind, { p95Ms: percentile(values, 95), count: values.length }])),
} satisfies TuiChildResult);
process.exit(0);
