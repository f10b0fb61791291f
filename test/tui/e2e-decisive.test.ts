import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runRetrace } from '../helpers/cli.js';
import { sampleExportPath } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { TmuxTerminal } from './tmux.js';

/**
 * Issue 17.4 in a real terminal against the built binary: from the tree to the line that decided
 * (why → output at the decisive line), the winning path under the accepted candidate, and `p`
 * showing the plan `retrace plan` prints.
 */
const BIN = `${REPO_ROOT}bin/retrace.js`;
const dir = tempDir('retrace-tui-decisive-');
const db = tempDbPath(dir);
let terminal: TmuxTerminal | null = null;
let plan = '';

beforeAll(async () => {
  const ingest = await runRetrace(['ingest', sampleExportPath(), '--db', db]);
  expect(ingest.code, ingest.stderr).toBe(0);
  const printed = await runRetrace(['plan', 'qwen', '--db', db]);
  expect(printed.code, printed.stderr).toBe(0);
  plan = printed.stdout;
}, 120_000);

afterEach(() => {
  terminal?.stop();
  terminal = null;
});
afterAll(() => terminal?.stop());

async function openTree(columns = 100, rows = 30): Promise<TmuxTerminal> {
  terminal = new TmuxTerminal('decisive');
  await terminal.start(columns, rows);
  terminal.run(`node ${BIN} tui qwen --db ${db}`);
  await terminal.waitForText('Timeline · Deploy Qwen3.5');
  await terminal.press('d');
  await terminal.waitForText('hellohal2064');
  return terminal;
}

describe('from the tree to the line that decided (tmux, built binary)', () => {
  it('why scitrera starts on the decisive probe, and o opens its output at the decisive line, marked', async () => {
    const tty = await openTree();
    await tty.stepUntil('j', (line) => /✗ rejected +image +scitrera/.test(line), 'the scitrera candidate');
    await tty.press('Enter');
    const why = await tty.waitForText('Transformers: 4.57.6');
    // Each step's outcome and the decisive mark, as `retrace why` prints them.
    expect(why).toMatch(/#16 pull → ✓ ok {2}on aurora@10\.1\.230\.180 {2}4m43s/);
    expect(why.split('\n').find((line) => line.startsWith('›'))).toMatch(/^› #17 probe → ✗ negative {2}◆ decisive {2}on aurora@10\.1\.230\.180 {2}13s/);
    await tty.stepUntil('j', (line) => line.includes('│ Transformers: 4.57.6'), 'the Transformers line');
    await tty.press('o');
    const output = await tty.waitFor((screen) => /^ *\d+› Transformers: 4\.57\.6/m.test(screen), 'the output at the Transformers line');
    expect(output.split('\n')[0]).toContain('Output · aurora@10.1.230.180: docker run --rm scitrera');
    // The other decisive lines are marked too.
    expect(output).toMatch(/^ *\d+◆ Qwen3\.5 MoE: NOT FOUND/m);
    // Back one screen at a time: the output, then Why, each waited for (keys sent in one go raced the screens).
    await tty.press('q');
    await tty.waitFor((screen) => screen.split('\n')[0]?.includes('Why · scitrera') === true, 'the Why screen');
    await tty.press('Escape');
    await tty.waitFor((screen) => screen.split('\n')[0]?.includes('Decision tree ·') === true, 'the tree');
  });

  it('the accepted candidate lists every step of the winning path; p shows the plan retrace plan prints', async () => {
    const tty = await openTree(120, 40);
    await tty.stepUntil('j', (line) => /✓ accepted +image +hellohal2064/.test(line), 'the accepted candidate');
    await tty.press('Enter');
    await tty.waitForText('Evidence (');
    await tty.press('/');
    tty.type('winning path');
    await tty.press('Enter');
    const why = await tty.waitForText('Winning path (');
    const steps = Number(/Winning path \((\d+) steps/.exec(why)?.[1]);
    const planSteps = plan.split('\n').filter((line) => /^ {2}- id: /.test(line)).map((line) => line.replace(/^ {2}- id: /, '').trim());
    expect(steps).toBe(planSteps.length);
    // Its last step is there too, with the message it came from.
    await tty.press('/');
    tty.type(`${planSteps[planSteps.length - 1]} [`);
    await tty.press('Enter');
    const last = await tty.waitFor((screen) => new RegExp(`› +${planSteps.length}\\. ${planSteps[planSteps.length - 1]} \\[\\w+.*#\\d+`).test(screen), 'the last step of the winning path');
    expect(last).toContain(`Winning path`);
    await tty.press('Escape');
    await tty.waitForText('Decision tree ·');
    await tty.press('p');
    const firstLines = plan.split('\n').slice(0, 3);
    const shown = await tty.waitForText(firstLines[0]?.slice(0, 60) ?? 'the plan');
    expect(shown.split('\n')[0]).toContain('Plan · the replay of');
    for (const line of firstLines) expect(shown).toContain(line.slice(0, 60));
    await tty.press('/');
    tty.type(planSteps[planSteps.length - 1] ?? 'missing');
    await tty.press('Enter');
    await tty.waitForText(`match 1/`);
    await tty.press('q');
    await tty.waitForText('Decision tree ·');
  });
});
