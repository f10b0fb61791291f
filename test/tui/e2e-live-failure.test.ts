import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runRetrace } from '../helpers/cli.js';
import { sampleExportPath } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import type { TestHosts } from '../ssh/harness.js';
import { hostSpec, useTestHosts } from '../replay/helpers/hosts.js';
import { TmuxTerminal } from './tmux.js';

/**
 * A live run that fails, in the real TUI in tmux against the SSH test hosts (issue 17.5, 17.6):
 * the run holds on the failure and shows it (step, whole host, last output lines, r/s/q), p does
 * not go past it, s asks this host / all hosts on a fleet (two workers), r retries one host; then
 * run vs record sets each host's output beside its own recorded call, also from `tui --run`; and a
 * resumed run shows the steps that finished before as finished.
 */
const SAMPLE = 'ses_365d176c7ffeX5TaQTV86dNCf0';
const SECRETS = { HF_TOKEN: 'hf_tuiFAILtokenNeverStored000000000001', PYPI_PASSWORD: 'pw-tui-fail-11', API_KEY: 'sk-tui-fail-NEVER-stored-00000000000' };
const dir = tempDir('retrace-tui-fail-');
const db = tempDbPath(dir);
let hosts: TestHosts;

/** The sample's plan with one step made to fail until the test drops `~/<marker>` on the host. */
async function failingPlan(name: string, stepCommand: string, marker: string, guard: string | null = null): Promise<string> {
  const path = join(dir, `${name}.yaml`);
  const planned = await runRetrace(['plan', SAMPLE, '-o', path, '--db', db]);
  expect(planned.code, planned.stderr).toBe(0);
  const text = readFileSync(path, 'utf8');
  const original = `    command: ${stepCommand}\n`;
  expect(text).toContain(original);
  const failing = `test -e ~/${marker} || { echo "step output line 1"; echo "fatal: TLS handshake timeout"; exit 3; }; ${stepCommand}`;
  const edited = text.replace(original, `    command: '${failing.replace(/'/g, "''")}'\n`);
  // Without its guard the step runs even where an earlier test already did its work.
  writeFileSync(path, guard === null ? edited : edited.replace(`    guard: ${guard}\n`, '    guard: null\n'));
  return path;
}

function replayLine(args: string): string {
  const env = Object.entries({ ...SECRETS, SSH_AUTH_SOCK: '', HOME: hosts.rootDir }).map(([k, v]) => `${k}=${v}`).join(' ');
  return [
    `env ${env} node ${REPO_ROOT}bin/retrace.js replay ${args} --live --tui --db ${db}`,
    `--known-hosts ${hosts.knownHostsPath} --identity ${hosts.clientKeyPath} --ssh-config /dev/null`,
  ].join(' ');
}

function allow(marker: string): void {
  for (const role of ['head', 'worker'] as const) writeFileSync(join(hosts.host(role).homeDir, marker), '');
}

const selectedLine = (screen: string) => screen.split('\n').find((row) => row.startsWith('›')) ?? '';

describe('a failing live run in the TUI', () => {
  beforeAll(async () => {
    hosts = await useTestHosts();
    expect((await runRetrace(['ingest', sampleExportPath(), '--db', db])).code).toBe(0);
  }, 180_000);

  it('holds on the failure, skips it on one host of a fleet, retries the others, then compares each host\'s output with its record', async () => {
    const plan = await failingPlan('pull', 'docker pull {{ image }} 2>&1 | tail -3', '.pull-ok');
    const head = hostSpec(hosts, 'head');
    const worker = hostSpec(hosts, 'worker');
    const tty = new TmuxTerminal('live-fail');
    try {
      // 100 columns: the step column names each worker's host; the outputs are still one above the other (side by side from 100 inside the frame).
      await tty.start(100, 30);
      // A fleet: two workers (the second on the head's machine), so a step runs on three hosts.
      tty.run(`${replayLine(`${plan} --from pull-image --to install-huggingface-hub --host head=${head} --host worker=${worker} --host worker=${head}`)}; echo "EXIT=$?"`);
      const held = await tty.waitForText('held on a failure: r retry · s skip · q abort', 90_000);
      expect(held).toMatch(/✗ pull-image failed on (head|worker) \S+@127\.0\.0\.[23]:\d+ \(exit 3\)/);
      expect(held).toContain('also failed: pull-image on');
      expect(held).toContain('│ fatal: TLS handshake timeout');
      expect(held).toContain('r retry · s skip this step and go on · q abort');
      const failedHost = /failed on (\S+ \S+) \(exit 3\)/.exec(held)?.[1] ?? '';

      await tty.press('p');
      await tty.waitForText('p does not go past a failure: r, s or q');
      expect(tty.screen()).not.toMatch(/running +install-huggingface-hub/);

      await tty.press('s');
      const ask = await tty.waitForText('h this host · a all hosts · Esc cancel');
      expect(ask.replace(/\s*\n[│ ]*/g, ' ')).toContain(`Skip pull-image on ${failedHost} only, or on all 3 hosts`);
      await tty.press('h');
      await tty.waitFor((screen) => /» skipped +pull-image/.test(screen) && screen.includes('held on a failure'), 'one host skipped, the others still held');

      allow('.pull-ok');
      await tty.press('r');
      await tty.waitFor((screen) => (screen.match(/✓ ok +pull-image/g) ?? []).length === 1, 'one host retried ok', 60_000);
      await tty.waitForText('held on a failure', 30_000);
      await tty.press('r');
      const finished = await tty.waitForText('finished: ok', 120_000);
      expect(finished.match(/✓ ok +pull-image/g)).toHaveLength(2);
      expect(finished.match(/» skipped +pull-image/g)).toHaveLength(1);
      const runId = /Live run · (run_\S+)/.exec(finished)?.[1] ?? '';
      expect(runId).not.toBe('');

      // Run vs record: the pull's output on each host beside that role's recorded pull.
      await tty.press('c');
      // The steps loaded (a row under the cursor) before any j: a key typed during the load is kept and would land after it.
      await tty.waitFor((screen) => screen.includes(`Run vs record · ${runId}`) && selectedLine(screen) !== '', 'the run\'s steps');
      const pull = await tty.stepUntil('j', (line) => /worker:pull-image 127\.0\.0\.[23]:\d+ .*✓ ok/.test(line), 'a worker\'s pull (named by its host)');
      expect(pull).toMatch(/≠ diverged|= same/);
      const compared = await tty.waitForText('This run on ');
      expect(compared).toMatch(/Recorded toolu_01JDuNMwrOCYZygXV5ktksYT: exit/);
      expect(compared).toMatch(/Digest: sha256:[0-9a-f]{12}/);
      expect(compared).toMatch(/differing lines? · Enter: whole outputs/);
      await tty.press('Escape', 'Escape', 'q');
      await tty.waitForText('EXIT=0', 60_000);
      expect(tty.display('#{alternate_on}')).toBe('0');

      // The same run, finished, from `retrace tui --run` in a wide terminal: side by side.
      const wide = new TmuxTerminal('run-wide');
      try {
        await wide.start(140, 36);
        wide.run(`node ${REPO_ROOT}bin/retrace.js tui --run ${runId} --db ${db}; echo "EXIT=$?"`);
        await wide.waitFor((screen) => screen.includes(`Run vs record · ${runId}`) && selectedLine(screen) !== '', 'the run\'s steps', 30_000);
        await wide.stepUntil('j', (line) => /head:pull-image .*✓ ok/.test(line), 'the head\'s pull');
        const side = await wide.waitFor((screen) => /Recorded toolu_01RFjNoYz375RMpBI3DPoEKo: exit .* │ This run on /.test(screen), 'the outputs side by side');
        expect(selectedLine(side)).toContain('head:pull-image');
        await wide.press('Enter');
        const whole = await wide.waitForText(`Run vs record · ${runId} · head:pull-image`);
        expect(whole).toMatch(/lines \d+–\d+ of \d+/);
        await wide.press('Escape', 'q');
        await wide.waitForText('EXIT=0', 60_000);
      } finally {
        wide.stop();
      }
      const shown = await runRetrace(['runs', runId, '--db', db, '--json']);
      const steps = (JSON.parse(shown.stdout) as { steps: { step_id: string; status: string; detail: string | null }[] }).steps.filter((s) => s.step_id === 'pull-image');
      expect(steps.map((s) => s.status).sort()).toEqual(['ok', 'ok', 'skipped']);
      expect(steps.find((s) => s.status === 'skipped')?.detail).toBe('skipped by the operator after it failed');
    } finally {
      tty.stop();
    }
  }, 420_000);

  it('a resumed run shows the steps that finished before as finished, and runs the rest', async () => {
    const plan = await failingPlan('install', `python3 -m pip install --user --break-system-packages -U --index-url https://aurora:"\${PYPI_PASSWORD}"@pypi.spark-lab.internal/simple huggingface_hub 2>&1 | tail -3`, '.install-ok', 'python3 -m pip show huggingface_hub >/dev/null 2>&1');
    const hostArgs = `--host head=${hostSpec(hosts, 'head')} --host worker=${hostSpec(hosts, 'worker')}`;
    const tty = new TmuxTerminal('live-resume');
    try {
      await tty.start(100, 30);
      tty.run(`${replayLine(`${plan} --from pull-image --to install-huggingface-hub ${hostArgs}`)}; echo "EXIT=$?"`);
      await tty.waitForText('install-huggingface-hub failed on', 90_000);
      await tty.press('q');
      await tty.waitForText('Abort the run?');
      await tty.press('y');
      await tty.waitForText('finished: aborted', 30_000);
      await tty.press('q');
      const stopped = await tty.waitFor((screen) => /Run (run_\S+): aborted/.test(screen), 'the run to end aborted', 30_000);
      const runId = /Run (run_\S+): aborted/.exec(stopped)?.[1] ?? '';
      expect(stopped).toContain(`Resume with: retrace replay --resume ${runId}`);
      // The replay has printed its last lines but may still be closing: keys typed now would go to
      // it, not to the shell. The next command is typed once the shell has the terminal back.
      await tty.waitForText('EXIT=1', 60_000);

      allow('.install-ok');
      tty.run(`clear; ${replayLine(`--resume ${runId}`)}; echo "EXIT=$?"`);
      const resumed = await tty.waitFor((screen) => screen.includes(`Live run · ${runId}`) && /install-huggingface-hub/.test(screen), 'the resumed run\'s steps', 60_000);
      // The pulls finished before: shown finished at once, not pending, and never run again.
      expect(resumed).toMatch(/(✓ ok|↷ guarded|guarded) +pull-image/);
      expect(resumed).not.toMatch(/pending +pull-image/);
      const finished = await tty.waitForText('finished: ok', 120_000);
      expect(finished).toContain('4/4 steps done');
      await tty.press('g');
      await tty.waitForText('finished in an earlier attempt of this run');
      await tty.press('q');
      await tty.waitForText('EXIT=0', 60_000);
    } finally {
      tty.stop();
    }
  }, 300_000);
});
