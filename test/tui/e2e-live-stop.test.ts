import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runRetrace } from '../helpers/cli.js';
import { sampleExportPath } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import type { TestHosts } from '../ssh/harness.js';
import { downloadsRunningOn, hostSpec, useTestHosts } from '../replay/helpers/hosts.js';
import { TmuxTerminal } from './tmux.js';

/**
 * Stopping a `replay --live --tui` the ways a terminal ends (issue 17.1): a SIGTERM, and the
 * terminal itself closing (SIGHUP). Either way the remote step's process group is stopped, the
 * run is recorded as interrupted, and `--resume` finishes it. Real TUI in tmux, real SSH test hosts.
 */
const SAMPLE = 'ses_365d176c7ffeX5TaQTV86dNCf0';
const SECRETS = { HF_TOKEN: 'hf_tuiSTOPtokenNeverStored000000000001', PYPI_PASSWORD: 'pw-tui-stop-11', API_KEY: 'sk-tui-stop-NEVER-stored-00000000000' };
const dir = tempDir('retrace-tui-stop-');
const db = tempDbPath(dir);
const planPath = join(dir, 'qwen.yaml');
let hosts: TestHosts;

function sshArgs(): string[] {
  return ['--db', db, '--known-hosts', hosts.knownHostsPath, '--identity', hosts.clientKeyPath, '--ssh-config', '/dev/null'];
}

/** The command line a user types: only the download step, so a stop lands in the middle of it. */
function replayLine(): string {
  const env = Object.entries({ ...SECRETS, SSH_AUTH_SOCK: '', HOME: hosts.rootDir }).map(([k, v]) => `${k}=${v}`).join(' ');
  return [
    `env ${env} node ${REPO_ROOT}bin/retrace.js replay ${planPath} --live --tui --from download-model --to download-model`,
    `--host head=${hostSpec(hosts, 'head')} --host worker=${hostSpec(hosts, 'worker')}`,
    ...sshArgs(),
  ].join(' ');
}

/** A fresh start for the next test: no download left running (a failed test may leave one), none on disk. */
async function forgetDownloads(): Promise<void> {
  await until(() => downloadsRunning().length === 0, 'downloads left by an earlier test to end', 30_000);
  for (const role of ['head', 'worker'] as const) {
    rmSync(join(hosts.host(role).homeDir, '.cache', 'huggingface', 'hub', 'models--Qwen--Qwen3.5-122B-A10B-FP8'), { recursive: true, force: true });
  }
}

/** The TUI's node process (its arguments name this file's store), or 0 when it is gone. */
function replayPid(): number {
  const found = spawnSync('pgrep', ['-f', `retrace.js replay ${planPath}`], { encoding: 'utf8' }).stdout.trim();
  return Number(found.split('\n')[0] ?? 0) || 0;
}

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function downloadsRunning(): string[] {
  return downloadsRunningOn(hosts);
}

async function runs(): Promise<{ id: string; status: string }[]> {
  const listed = await runRetrace(['runs', '--db', db, '--json']);
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout) as { id: string; status: string }[];
}

async function stepsOf(runId: string): Promise<{ step_id: string; role: string; status: string }[]> {
  const shown = await runRetrace(['runs', runId, '--db', db, '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  const parsed = JSON.parse(shown.stdout) as { steps?: { step_id: string; role: string; status: string }[]; step_rows?: { step_id: string; role: string; status: string }[] };
  return parsed.steps ?? parsed.step_rows ?? [];
}

describe('stopping a live run in the TUI', () => {
  beforeAll(async () => {
    // A download of a few seconds: long enough to stop in the middle of it.
    hosts = await useTestHosts({ sessionEnv: { SPARK_SIM_DOWNLOAD_SECONDS: '6' } });
    expect((await runRetrace(['ingest', sampleExportPath(), '--db', db])).code).toBe(0);
    const planned = await runRetrace(['plan', SAMPLE, '-o', planPath, '--db', db]);
    expect(planned.code, planned.stderr).toBe(0);
    // The hosts get the download tool first (the step before the download), in plain mode.
    const installed = await runRetrace(['replay', planPath, '--live', '--yes', '--from', 'install-huggingface-hub', '--to', 'install-huggingface-hub',
      '--host', `head=${hostSpec(hosts, 'head')}`, '--host', `worker=${hostSpec(hosts, 'worker')}`, ...sshArgs()], { env: { ...SECRETS, SSH_AUTH_SOCK: '', HOME: hosts.rootDir } });
    expect(installed.code, `${installed.stdout}\n${installed.stderr}`).toBe(0);
  }, 180_000);

  it('SIGTERM stops the remote step, records the run as interrupted, and the scrollback keeps the run id and the Resume line', async () => {
    await forgetDownloads();
    const tty = new TmuxTerminal('live-term');
    try {
      await tty.start(100, 30);
      tty.run(`${replayLine()}; echo "EXIT=$?"`);
      await until(() => downloadsRunning().length > 0, 'the remote download', 60_000);
      await tty.waitForText('download-model');
      const pid = replayPid();
      expect(pid).toBeGreaterThan(0);
      process.kill(pid, 'SIGTERM');
      const after = await tty.waitFor((screen) => /EXIT=\d/.test(screen), 'the exit status', 30_000);
      expect(tty.display('#{alternate_on}')).toBe('0');
      expect(tty.display('#{cursor_flag}')).toBe('1');
      const runId = /Run (run_\S+): interrupted/.exec(after)?.[1] ?? '';
      expect(runId, after).not.toBe('');
      expect(after).toContain(`Resume with: retrace replay --resume ${runId}`);
      expect(after).toContain('EXIT=1');
      expect((await runs()).find((run) => run.id === runId)?.status).toBe('interrupted');
      expect((await stepsOf(runId)).filter((step) => step.step_id === 'download-model').map((step) => step.status)).toContain('interrupted');
      await until(() => downloadsRunning().length === 0, 'the remote downloads to stop', 5_000);
    } finally {
      tty.stop();
    }
  }, 180_000);

  /** Runs the replay in a terminal, closes the terminal mid-download, and returns the run and how the replay exited. */
  async function hangUpMidDownload(name: string, commandLine: string): Promise<{ run: { id: string; status: string } | undefined; exit: string; listed: unknown }> {
    await forgetDownloads();
    const before = new Set((await runs()).map((run) => run.id));
    const tty = new TmuxTerminal(name);
    await tty.start(100, 30);
    // A wrapper that outlives the terminal long enough to write down how the replay exited (its
    // trap only defers the hangup; the replay itself gets SIGHUP as a user's would).
    const exitFile = join(dir, `${name}-exit`);
    const script = join(dir, `${name}.sh`);
    writeFileSync(script, `trap ':' HUP\n${commandLine}\necho $? > ${exitFile}\n`);
    tty.run(`bash ${script}`);
    await until(() => downloadsRunning().length > 0, 'the remote download', 60_000);
    expect(replayPid()).toBeGreaterThan(0);
    // The terminal goes away, as when a laptop's ssh session drops: the replay gets SIGHUP.
    tty.stop();
    await until(() => replayPid() === 0, 'the replay to stop after the hangup');
    await until(() => existsSync(exitFile), 'the wrapper to write the exit status', 10_000);
    const listed = await runs();
    return { run: listed.find((run) => !before.has(run.id)), exit: readFileSync(exitFile, 'utf8').trim(), listed };
  }

  it('closing the terminal (SIGHUP) mid-step stops the remote step and records the run as interrupted; --resume completes it', async () => {
    const { run: interrupted, exit, listed } = await hangUpMidDownload('live-hup', replayLine());
    expect(interrupted?.status, `runs: ${JSON.stringify(listed)}`).toBe('interrupted');
    // Exit 1 (interrupted), not Node's abort at exit on a terminal that is gone (134).
    expect(exit).toBe('1');
    await until(() => downloadsRunning().length === 0, 'the remote downloads to stop', 5_000);

    const resumed = await runRetrace(['replay', '--resume', interrupted?.id ?? '', '--yes', ...sshArgs()], { env: { ...SECRETS, SSH_AUTH_SOCK: '', HOME: hosts.rootDir } });
    expect(resumed.code, `${resumed.stdout}\n${resumed.stderr}`).toBe(0);
    expect((await runs()).find((run) => run.id === interrupted?.id)?.status).toBe('ok');
  }, 240_000);

  it('the same hangup of a plain (no TUI) live replay is recorded as interrupted too, with exit 1', async () => {
    const { run, exit, listed } = await hangUpMidDownload('plain-hup', `${replayLine().replace(' --tui', '')} --yes`);
    expect(run?.status, `runs: ${JSON.stringify(listed)}`).toBe('interrupted');
    expect(exit).toBe('1');
    await until(() => downloadsRunning().length === 0, 'the remote downloads to stop', 5_000);
  }, 180_000);
});
