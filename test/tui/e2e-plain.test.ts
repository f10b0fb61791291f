import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runRetrace } from '../helpers/cli.js';
import { sampleExportPath } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { TmuxTerminal } from './tmux.js';

/**
 * Issue 17.8 in a real terminal against the built binary: TERM=dumb gets the screens line by line
 * (no alternate screen, no cursor moves, no colour; a line of keys per prompt), and the screens
 * widen with the terminal (200 columns).
 */
const BIN = `${REPO_ROOT}bin/retrace.js`;
const dir = tempDir('retrace-tui-plain-');
const db = tempDbPath(dir);
let terminal: TmuxTerminal | null = null;

beforeAll(async () => {
  const ingest = await runRetrace(['ingest', sampleExportPath(), '--db', db]);
  expect(ingest.code, ingest.stderr).toBe(0);
  const replay = await runRetrace(['replay', 'qwen', '--db', db]);
  expect(replay.code, replay.stderr).toBe(0);
}, 120_000);

afterEach(() => {
  terminal?.stop();
  terminal = null;
});
afterAll(() => terminal?.stop());

/** Lines typed at the plain-mode prompt, each answered by a screen and a new prompt (counted in the scrollback). */
async function answer(tty: TmuxTerminal, line: string, expected: string): Promise<string> {
  const prompts = () => (tty.screen({ history: true }).match(/^>/gm) ?? []).length;
  const before = prompts();
  tty.run(line);
  await tty.waitFor(() => prompts() > before, `a new prompt after ${JSON.stringify(line)}`, 20_000);
  const all = tty.screen({ history: true });
  const answered = all.slice(all.lastIndexOf(`> ${line}`));
  expect(answered, `the answer to ${JSON.stringify(line)}`).toContain(expected);
  return answered;
}

describe('retrace tui in a real terminal, beyond 80×24', () => {
  it('TERM=dumb: screens printed line by line, keys read a line at a time, no escape codes, no alternate screen', async () => {
    terminal = new TmuxTerminal('plain');
    const tty = terminal;
    await tty.start(100, 60, { TERM: 'dumb' });
    const raw = join(dir, 'plain-bytes.txt');
    tty.record(raw);
    tty.run(`node ${BIN} tui --db ${db}; echo "EXIT=$?"`);
    const first = await tty.waitFor((screen) => screen.includes('Deploy Qwen3.5') && /^>$/m.test(screen), 'the sessions screen and a prompt', 30_000);
    expect(first).toContain('plain mode (TERM=dumb)');
    expect(tty.display('#{alternate_on}')).toBe('0');
    // An empty line is Enter: the session's timeline.
    await answer(tty, '', 'Timeline · Deploy Qwen3.5');
    // A typed search with a named key; then the decision tree, why, and the decisive line.
    const found = await answer(tty, '/docker run --rm scitrera<enter>', 'match 1/');
    expect(found).toMatch(/› .*docker run --rm scitrera/);
    await answer(tty, 'd', 'Decision tree ·');
    await answer(tty, '/scitrera<enter>', 'match 1/');
    const why = await answer(tty, 'n<enter>', 'Why · scitrera/dgx-spark-sglang:0.5.10rc0');
    expect(why).toContain('◆ decisive');
    await answer(tty, '<esc><esc>', 'Timeline · Deploy Qwen3.5');
    tty.run('q');
    await tty.waitForText('EXIT=0');
    expect(tty.display('#{alternate_on}')).toBe('0');
    const bytes = readFileSync(raw, 'utf8');
    expect(bytes).toContain('Decision tree ·');
    // No escape code at all: no colour, no cursor moves, no screen switch.
    expect(bytes.includes(String.fromCharCode(27))).toBe(false);
  }, 120_000);

  it('widens its columns with a 200-column terminal; the sessions list shows the last run, timings a rejecting probe as rejected', async () => {
    terminal = new TmuxTerminal('wide');
    const tty = terminal;
    await tty.start(200, 50);
    tty.run(`node ${BIN} tui --db ${db}`);
    const sessions = await tty.waitForText('last run');
    expect(sessions).toMatch(/ses_365d176c7ffeX5TaQTV86dNCf0 · last run run_\S+ dry ✓ ok/);
    await tty.press('Enter');
    const timeline = await tty.waitForText('Timeline · Deploy Qwen3.5');
    const rows = timeline.split('\n');
    expect(rows.every((row) => [...row].length <= 200)).toBe(true);
    // Previews use the width: a message preview runs well past the 80-column cut.
    const longest = Math.max(...rows.map((row) => row.trimEnd().length));
    expect(longest).toBeGreaterThan(180);
    await tty.press('d');
    const tree = await tty.waitForText('hellohal2064');
    // A candidate's reason fits on its row at 200 columns (it is cut with … at 80).
    const scitrera = tree.split('\n').find((row) => /✗ rejected +image +scitrera/.test(row)) ?? '';
    expect(scitrera).toContain('transformers 4.57.6; imports fail: sglang.srt.models.qwen3_5_moe');
    expect(scitrera.trimEnd().length).toBeGreaterThan(180);
    await tty.press('t');
    const timings = await tty.waitForText('bars on one scale, longest 32m35s');
    expect(Math.max(...timings.split('\n').map((row) => row.trimEnd().length))).toBeGreaterThan(150);
    expect(timings).toContain('probe    scitrera/dgx-spark-sglang:0.5.10rc0 @10.1.230.180 · 13s ✗ rejected');
    expect(timings).toContain('probe    hellohal2064/vllm-qwen3.5-gb10 @10.1.230.180 · 15s ✓ confirmed');
    // Filtered to probes, the scale is the longest probe's, not the session's longest download.
    await tty.press('f', 'f');
    const probes = await tty.waitForText('showing: probe');
    expect(probes).toContain('longest 15s');
    await tty.press('q');
  }, 60_000);
});
