import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runRetrace } from '../helpers/cli.js';
import { sampleExportPath } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { TmuxTerminal } from './tmux.js';

/**
 * The real `retrace tui`, built, in a real terminal (tmux at 80×24) on the bundled sample:
 * what a user does, what they see, and the terminal they get back.
 */
const BIN = `${REPO_ROOT}bin/retrace.js`;
const dir = tempDir('retrace-tui-e2e-');
const db = tempDbPath(dir);
let terminal: TmuxTerminal | null = null;

/** SGR sequences that set a foreground colour (bold, dim and inverse are not colours). */
const COLOUR_SGR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*(?:3[0-7]|38;[0-9;]+|9[0-7])m`, 'g');

function colourCodes(screen: string): string[] {
  return screen.match(COLOUR_SGR) ?? [];
}

beforeAll(async () => {
  const ingest = await runRetrace(['ingest', sampleExportPath(), '--db', db]);
  expect(ingest.code, ingest.stderr).toBe(0);
}, 120_000);

async function openTerminal(name: string, env: Record<string, string> = {}): Promise<TmuxTerminal> {
  terminal = new TmuxTerminal(name);
  await terminal.start(80, 24, env);
  terminal.run('echo BEFORE-THE-TUI');
  await terminal.waitForText('BEFORE-THE-TUI\ne2e$');
  return terminal;
}

afterEach(() => {
  terminal?.stop();
  terminal = null;
});
afterAll(() => terminal?.stop());

// tmux is installed by the global setup and dist/ by `npm test`'s build: both must be there.
describe('retrace tui in a real terminal', { timeout: 120_000 }, () => {
  it('steps to the timed-out pull, opens its output, the tree, why scitrera, quits, and the terminal is back', async () => {
    const tty = await openTerminal('walk');
    const began = Date.now();
    tty.run(`node ${BIN} tui --db ${db}; echo "EXIT=$?"`);
    await tty.waitForText('Deploy Qwen3.5');
    console.log(`retrace tui: first frame ${Date.now() - began} ms after Enter (node start, store open, first query)`);
    expect(tty.display('#{alternate_on}')).toBe('1');

    await tty.press('Enter');
    await tty.waitForText('Timeline · Deploy Qwen3.5');
    const pull = await tty.stepUntil('j', (line) => line.includes('TIMEOUT'), 'the timed-out pull');
    expect(pull).toMatch(/├ bash +2m00s ! TIMEOUT 10\.1\.230\.180: docker pull lmsysorg\/sglang:spar/);
    expect(tty.screen()).toContain('bash · ! TIMEOUT · no exit code · 2m00s');

    await tty.press('Enter');
    // The timeline's preview shows the same output text: wait for the Output screen's own title.
    const output = await tty.waitFor(
      (screen) => screen.includes('Output · 10.1.230.180: docker pull lmsysorg/sglang:spark') && screen.includes('bash tool terminated command after exceeding timeout 120000 ms'),
      'the Output screen with the pull\'s output',
    );
    expect(output).toContain('lines 1–5 of 5');

    await tty.press('Escape');
    await tty.waitForText('Timeline ·');
    await tty.press('d');
    await tty.waitForText('Decision tree ·');
    await tty.waitForText('hellohal2064');
    const scitrera = await tty.stepUntil('j', (line) => /\d\. ✗ rejected +image +scitrera\/dgx-spark-sglang/.test(line), 'the scitrera candidate');
    expect(scitrera).toContain('scitrera/dgx-spark-sglang:0.5.10rc0');

    await tty.press('Enter');
    const why = await tty.waitFor((screen) => screen.includes('Why · scitrera/dgx-spark-sglang:0.5.10rc0') && screen.includes('Transformers: 4.57.6'), 'the Why screen with its evidence');
    expect(why).toMatch(/✗ rejected {2}scitrera\/dgx-spark-sglang:0\.5\.10rc0/);
    expect(why.toLowerCase()).toContain('transformers 4.57.6');

    await tty.press('q');
    const after = await tty.waitForText('EXIT=0');
    expect(tty.display('#{alternate_on}')).toBe('0');
    expect(tty.display('#{cursor_flag}')).toBe('1');
    expect(after).toMatch(/BEFORE-THE-TUI\ne2e\$ node [\s\S]* tui --db [\s\S]*\nEXIT=0\ne2e\$/);
  });

  it('follows a resize and draws without colour under NO_COLOR', async () => {
    const tty = await openTerminal('resize');
    tty.run(`node ${BIN} tui --db ${db}`);
    const coloured = await tty.waitForText('Deploy Qwen3.5');
    expect(colourCodes(tty.screen({ escapes: true })).length).toBeGreaterThan(0);
    expect(coloured.split('\n')[1]).toMatch(/^ {2}agent {4}title/);
    tty.resize(120, 30);
    const wide = await tty.waitFor((screen) => screen.split('\n')[28]?.endsWith('? keys · Esc back · q quit') === true && screen.split('\n')[28]?.length === 120, 'the status line at 120 columns');
    expect(wide).toContain('Deploy Qwen3.5-122B-A10B-FP8 on dual DGX Spark');
    tty.resize(80, 24);
    await tty.waitFor((screen) => screen.split('\n')[22]?.length === 80, 'the status line back at 80 columns');
    await tty.press('q');
    await tty.waitForText('e2e$ ');

    tty.run('clear');
    tty.run(`NO_COLOR=1 node ${BIN} tui --db ${db}`);
    await tty.waitForText('Deploy Qwen3.5');
    await tty.press('Enter');
    await tty.waitForText('✗ exit 1');
    expect(colourCodes(tty.screen({ escapes: true }))).toEqual([]);
    await tty.press('q');
  });

  it('gives the terminal back on Ctrl-C and on SIGTERM', async () => {
    const tty = await openTerminal('signals');
    tty.run(`node ${BIN} tui --db ${db}; echo "EXIT=$?"`);
    await tty.waitForText('Deploy Qwen3.5');
    await tty.press('C-c');
    await tty.waitForText('EXIT=0');
    expect(tty.display('#{alternate_on}')).toBe('0');
    expect(tty.display('#{cursor_flag}')).toBe('1');

    tty.run(`node ${BIN} tui --db ${db}; echo "EXIT=$?"`);
    await tty.waitForText('Sessions');
    const shell = tty.display('#{pane_pid}');
    const { stdout } = await import('node:child_process').then(({ spawnSync }) => spawnSync('pgrep', ['-P', shell, '-f', 'retrace.js tui'], { encoding: 'utf8' }));
    const pid = Number(stdout.trim().split('\n')[0]);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGTERM');
    await tty.waitForText('EXIT=143');
    expect(tty.display('#{alternate_on}')).toBe('0');
    expect(tty.display('#{cursor_flag}')).toBe('1');
  });

  it('npm start (quickstart) ends in the TUI on the sample in a terminal, and prints the summary after', async () => {
    const tty = await openTerminal('quickstart');
    tty.run(`node ${BIN} quickstart --db ${tempDbPath(dir)}; echo "EXIT=$?"`);
    await tty.waitForText('Timeline · Deploy Qwen3.5', 60_000);
    // One q, right after the first frame: keys typed before Ink reads stdin wait for it (raw mode
    // is set before the first frame), never lost.
    await tty.press('q');
    const after = await tty.waitForText('EXIT=0', 5_000);
    expect(after).toContain('Next:');
    expect(tty.display('#{alternate_on}')).toBe('0');
  });
});
