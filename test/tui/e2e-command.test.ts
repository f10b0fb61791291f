import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runRetrace } from '../helpers/cli.js';
import { sampleExportPath } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { TmuxTerminal } from './tmux.js';

/**
 * Every command readable and copyable (issue 17.3), in tmux against the built binary: the
 * selected call's command as recorded (`ssh aurora@… '…'`, not the timeline's rewrite), whole and
 * wrapped, and `y` puts it on the clipboard (OSC 52: tmux keeps it as a paste buffer) and in a file.
 */
const BIN = `${REPO_ROOT}bin/retrace.js`;
const SAMPLE = 'ses_365d176c7ffeX5TaQTV86dNCf0';
const dir = tempDir('retrace-tui-command-');
const db = tempDbPath(dir);
let recorded = '';
let terminal: TmuxTerminal | null = null;

beforeAll(async () => {
  expect((await runRetrace(['ingest', sampleExportPath(), '--db', db])).code).toBe(0);
  const sql = await runRetrace(['sql', "SELECT command FROM tool_calls WHERE command LIKE '%docker pull lmsysorg/sglang:spark%' ORDER BY started_at LIMIT 1", '--db', db, '--json']);
  expect(sql.code, sql.stderr).toBe(0);
  recorded = (JSON.parse(sql.stdout) as { command: string }[])[0]?.command ?? '';
  expect(recorded).toMatch(/^ssh aurora@10\.1\.230\.180 '/);
}, 120_000);

afterEach(() => {
  terminal?.stop();
  terminal = null;
});

describe("a call's command in a real terminal", () => {
  it('c shows the recorded command whole and wrapped; y copies it through OSC 52 and saves it to a file it names', async () => {
    const tty = new TmuxTerminal('command');
    terminal = tty;
    await tty.start(60, 20, { TMPDIR: dir });
    tty.setOption('set-clipboard', 'on');
    tty.run(`node ${BIN} tui ${SAMPLE} --db ${db}`);
    await tty.waitForText('Timeline · Deploy Qwen3.5');
    await tty.stepUntil('j', (line) => line.includes('TIMEOUT'), 'the timed-out pull');

    await tty.press('c');
    await tty.waitForText('Command · ');
    const view = await tty.waitForText('ssh aurora@10.1.230.180');
    // At 60 columns the command wraps: its pieces, joined, are the recorded command.
    const body = view.split('\n').slice(1, -2).map((line) => line.replace(/^ *(\d+[ ›•]? )?/, '').replace(/^ {4,}/, '')).join('');
    expect(body.replace(/\s+/g, '')).toContain(recorded.replace(/\s+/g, ''));

    await tty.press('y');
    await tty.waitForText('copied (OSC 52)');
    await tty.waitFor(() => tty.lastBuffer() === recorded, 'the command in tmux\'s clipboard buffer', 5_000);
    // The status line names the file (cut at 60 columns; whole at 100, below).
    const file = `${dir}/retrace-copy.txt`;
    expect(existsSync(file), file).toBe(true);
    expect(readFileSync(file, 'utf8').trim()).toBe(recorded.trim());

    // y on the timeline row copies the same command without opening anything.
    await tty.press('Escape');
    await tty.waitForText('Timeline ·');
    tty.resize(100, 24);
    await tty.press('y');
    await tty.waitForText(`copied (OSC 52), also in ${file}`);
    await tty.press('q');
  }, 90_000);
});
