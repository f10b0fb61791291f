import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runRetrace, type CliRun } from '../helpers/cli.js';
import { sampleExportPath } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import type { TestHosts } from '../ssh/harness.js';
import { hostSpec, useTestHosts } from '../replay/helpers/hosts.js';
import { TmuxTerminal } from './tmux.js';

/**
 * Watching a live replay from another terminal (issue 17.7): a plain `replay --live --yes` runs
 * the sample plan against the SSH test hosts while `retrace tui --run ID`, in tmux, follows it
 * from the store: steps go running → ok, the keys that steer say where the run is steered from,
 * and the end says how the run ended. The replay is recorded whole: its rows are those of the
 * same run made with nobody watching (on hosts of its own).
 */
const SAMPLE = 'ses_365d176c7ffeX5TaQTV86dNCf0';
const SECRETS = { HF_TOKEN: 'hf_tuiWATCHtokenNeverStored00000000001', PYPI_PASSWORD: 'pw-tui-watch-11', API_KEY: 'sk-tui-watch-NEVER-stored-0000000000' };
const dir = tempDir('retrace-tui-watch-');
const db = tempDbPath(dir);
const planPath = join(dir, 'qwen.yaml');

function replayArgs(hosts: TestHosts): string[] {
  return [
    // Up to the download: the steps after it start servers on fixed ports, which other test files
    // running at the same time use on this machine's loopback.
    'replay', planPath, '--live', '--yes', '--to', 'download-model', '--host', `head=${hostSpec(hosts, 'head')}`, '--host', `worker=${hostSpec(hosts, 'worker')}`,
    '--db', db, '--known-hosts', hosts.knownHostsPath, '--identity', hosts.clientKeyPath, '--ssh-config', '/dev/null',
  ];
}
const envOf = (hosts: TestHosts) => ({ ...SECRETS, SSH_AUTH_SOCK: '', HOME: hosts.rootDir });

interface ListedRun {
  id: string;
  status: string;
}
async function runs(): Promise<ListedRun[]> {
  const listed = await runRetrace(['runs', '--db', db, '--json']);
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout) as ListedRun[];
}

/** A run's record without what differs between any two runs (ids, times, ports): what it did. */
async function recordOf(runId: string): Promise<unknown> {
  const shown = await runRetrace(['runs', runId, '--db', db, '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  const parsed = JSON.parse(shown.stdout) as { run: { status: string; diverged: number; steps: number }; steps: Record<string, unknown>[] };
  return {
    status: parsed.run.status,
    diverged: parsed.run.diverged,
    steps: parsed.steps.map((step) => ({
      step: step['step_id'], role: step['role'], attempt: step['attempt'], status: step['status'], exit: step['exit_code'], verdict: step['verdict'],
      output: String(step['output'] ?? '').split('\n').length,
    })),
  };
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('watching a live replay from another terminal', () => {
  beforeAll(async () => {
    expect((await runRetrace(['ingest', sampleExportPath(), '--db', db])).code).toBe(0);
    const planned = await runRetrace(['plan', SAMPLE, '-o', planPath, '--db', db]);
    expect(planned.code, planned.stderr).toBe(0);
  }, 120_000);

  it('follows the run as its rows land, refuses to steer it, says how it ended; the run is recorded whole', async () => {
    // The same run with nobody watching, on hosts of its own: what the watched run must record.
    const alone = await useTestHosts({ sessionEnv: { SPARK_SIM_DOWNLOAD_SECONDS: '4' } });
    const reference = await runRetrace(replayArgs(alone), { env: envOf(alone) });
    expect(reference.code, `${reference.stdout}\n${reference.stderr}`).toBe(0);
    const referenceId = (await runs()).find((run) => run.status === 'ok')?.id ?? '';

    // A longer download here: on a loaded machine the watcher may take seconds to come up, and it
    // must still find the step running.
    const hosts = await useTestHosts({ sessionEnv: { SPARK_SIM_DOWNLOAD_SECONDS: '20' } });
    const replay: Promise<CliRun> = runRetrace(replayArgs(hosts), { env: envOf(hosts) });
    const runId = await until(async () => (await runs()).find((run) => run.id !== referenceId && run.status === 'running')?.id, 'the replay to start');

    const tty = new TmuxTerminal('live-watch');
    try {
      await tty.start(120, 34);
      tty.run(`node ${REPO_ROOT}bin/retrace.js tui --run ${runId} --db ${db}`);
      await tty.waitForText('watching (steered by PID', 60_000);
      // A step seen running, then done, as the replay writes its rows.
      await tty.waitFor((screen) => /running\s+download-model/.test(screen), 'download-model running', 90_000);
      await tty.press('p');
      await tty.waitForText('this run is steered from the terminal that started it (PID');

      // A second watcher joins and leaves mid-run: it leaves at once and stops nothing.
      const other = new TmuxTerminal('live-watch-2');
      try {
        await other.start(120, 34);
        other.run(`node ${REPO_ROOT}bin/retrace.js tui --run ${runId} --db ${db}; echo "EXIT=$?"`);
        await other.waitForText('watching (steered by PID', 60_000);
        await other.press('q');
        await other.waitForText('q again to leave this view (the run goes on)');
        await other.press('q');
        const left = await other.waitForText('EXIT=0', 20_000);
        expect(left).not.toContain('Interrupted');
      } finally {
        other.stop();
      }
      await tty.waitFor((screen) => /ok\s+download-model/.test(screen), 'download-model ok', 90_000);
      const ended = await tty.waitForText('finished: ok', 120_000);
      expect(ended).not.toMatch(/running\s+\S/);

      const watched = await replay;
      expect(watched.code, `${watched.stdout}\n${watched.stderr}`).toBe(0);
      // A write that found the watcher reading waited for it, said so, and went on: nothing lost.
      const waits = watched.stderr.match(/Waiting to record the run/g) ?? [];
      expect((watched.stderr.match(/recording goes on/g) ?? []).length).toBe(waits.length);
      expect(await recordOf(runId)).toEqual(await recordOf(referenceId));

      // Ended, the view stays until the user leaves it: q quits at once.
      await tty.press('q');
      await tty.waitFor((screen) => !screen.includes('Live run'), 'the TUI to quit');
    } finally {
      tty.stop();
    }
  }, 300_000);
});
