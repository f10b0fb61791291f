import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runRetrace } from '../helpers/cli.js';
import { sampleExportPath } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { TmuxTerminal } from './tmux.js';

/**
 * The TUI and the writers share the store (issue 17.7): with `retrace tui` open in tmux, an
 * `ingest` into the same file succeeds, and the open sessions list shows the new sessions
 * without a restart (the TUI holds the store only while it reads).
 */
const BIN = `${REPO_ROOT}bin/retrace.js`;
const dir = tempDir('retrace-tui-share-');
const db = tempDbPath(dir);
let terminal: TmuxTerminal | null = null;

beforeAll(async () => {
  expect((await runRetrace(['ingest', sampleExportPath(), '--db', db])).code).toBe(0);
}, 120_000);

afterEach(() => {
  terminal?.stop();
  terminal = null;
});

describe('a TUI open on the store', () => {
  it('lets an ingest into the same file run, and shows the new sessions without a restart', async () => {
    const tty = new TmuxTerminal('share');
    terminal = tty;
    await tty.start(100, 30);
    tty.run(`node ${BIN} tui --db ${db}`);
    const before = await tty.waitForText('session 1/1');
    expect(before).toContain('Deploy Qwen3.5');

    const ingest = await runRetrace(['ingest', join(REPO_ROOT, 'test', 'fixtures', 'claude', 'projects'), '--db', db]);
    expect(ingest.code, `${ingest.stdout}\n${ingest.stderr}`).toBe(0);
    const sessions = await runRetrace(['sessions', '--db', db, '--json']);
    const total = (JSON.parse(sessions.stdout) as unknown[]).length;
    expect(total).toBeGreaterThan(1);

    // The list asks again every few seconds while it is shown.
    const after = await tty.waitForText(`session 1/${total}`, 20_000);
    expect(after).toContain('claude');
    await tty.press('q');
  }, 90_000);
});
