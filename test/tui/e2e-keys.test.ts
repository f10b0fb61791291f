import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runRetrace } from '../helpers/cli.js';
import { sampleExportPath } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { TmuxTerminal } from './tmux.js';

/**
 * Keys go where they were typed (issue 17.2), in a real terminal against the built binary: a
 * pasted search, a burst typed faster than a frame, and keys typed before the first frame.
 */
const BIN = `${REPO_ROOT}bin/retrace.js`;
const SAMPLE = 'ses_365d176c7ffeX5TaQTV86dNCf0';
const dir = tempDir('retrace-tui-keys-');
const db = tempDbPath(dir);
let terminal: TmuxTerminal | null = null;

beforeAll(async () => {
  const ingest = await runRetrace(['ingest', sampleExportPath(), '--db', db]);
  expect(ingest.code, ingest.stderr).toBe(0);
}, 120_000);

afterEach(() => {
  terminal?.stop();
  terminal = null;
});

async function openTerminal(name: string): Promise<TmuxTerminal> {
  terminal = new TmuxTerminal(name);
  await terminal.start(100, 30);
  return terminal;
}

/** The title line (first) and the status line (last non-empty) of the screen. */
function frame(screen: string): { title: string; status: string } {
  const lines = screen.split('\n').filter((line) => line.trim() !== '');
  return { title: lines[0] ?? '', status: lines.at(-1) ?? '' };
}

describe('keys in a real terminal go where they were typed', () => {
  it('a search pasted after / searches for the pasted string and never opens Timings or the tree', async () => {
    const tty = await openTerminal('paste');
    tty.run(`node ${BIN} tui ${SAMPLE} --db ${db}`);
    await tty.waitForText('Timeline · Deploy Qwen3.5');
    await tty.waitFor((screen) => frame(screen).status.includes('row 1/'), 'the first row');
    await tty.press('/');
    tty.paste('scitrera/dgx-spark-sglang');
    const typed = await tty.waitForText('/scitrera/dgx-spark-sglang');
    expect(frame(typed).title).toContain('Timeline ·');
    await tty.press('Enter');
    const found = await tty.waitFor((screen) => /match(es)? .*for "scitrera\/dgx-spark-sglang"/.test(frame(screen).status), 'the search result');
    expect(frame(found).title).toContain('Timeline · Deploy Qwen3.5');
    expect(found).toContain('scitrera/dgx-spark-sglang');
  }, 120_000);

  it('a burst of keys typed in one go (j j j j, /, a query, Enter) is routed key by key, in order', async () => {
    const tty = await openTerminal('burst');
    tty.run(`node ${BIN} tui ${SAMPLE} --db ${db}`);
    await tty.waitFor((screen) => frame(screen).status.includes('row 1/'), 'the first row');
    tty.type('jjjj/dgx-spark-sglang\r');
    const found = await tty.waitFor((screen) => /match 1\/\d+ for "dgx-spark-sglang"/.test(frame(screen).status), 'the first match');
    expect(frame(found).title).toContain('Timeline · Deploy Qwen3.5');
  }, 120_000);

  it('keys typed while the TUI starts (before its first frame) are kept and reach the screen in order', async () => {
    const tty = await openTerminal('early');
    tty.run(`node ${BIN} tui ${SAMPLE} --db ${db}`);
    // Typed at once, while node is still starting: the search opens, takes the query, and runs.
    tty.type('/scitrera/dgx-spark-sglang\r');
    const found = await tty.waitFor((screen) => /match(es)? .*for "scitrera\/dgx-spark-sglang"/.test(frame(screen).status), 'the search typed before the first frame');
    expect(frame(found).title).toContain('Timeline · Deploy Qwen3.5');
  }, 120_000);

  it('a q typed right after the first frame quits at once', async () => {
    const tty = await openTerminal('early-q');
    tty.run(`node ${BIN} tui ${SAMPLE} --db ${db}; echo "EXIT=$?"`);
    await tty.waitForText('Timeline · Deploy Qwen3.5');
    tty.type('q');
    await tty.waitFor((screen) => /EXIT=\d/.test(screen), 'the TUI to quit on one q', 5_000);
    expect(tty.screen()).toContain('EXIT=0');
    expect(tty.display('#{alternate_on}')).toBe('0');
  }, 120_000);
});
