import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { listRuns, loadRun } from '../../src/store/run-queries.js';
import type { TestHosts } from '../ssh/harness.js';
import { runRetrace } from '../helpers/cli.js';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { startRetrace } from './helpers/cli-child.js';
import { downloadsRunningOn, hostSpec, useTestHosts } from './helpers/hosts.js';

const dir = tempDir('retrace-faults-');
const dbPath = tempDbPath(dir);
const planPath = join(dir, 'qwen.yaml');
const ENV = { HOME: dir, SSH_AUTH_SOCK: '', HF_TOKEN: 'hf_faultTESTtoken000000000000000000001', PYPI_PASSWORD: 'pw-fault-test', API_KEY: 'sk-fault-test-key-00000000000000000000' };
const KEEPALIVE_S = 0.3;
const KEEPALIVE_COUNT = 2;
let hosts: TestHosts;

function sshArgs(): string[] {
  return ['--db', dbPath, '--known-hosts', hosts.knownHostsPath, '--identity', hosts.clientKeyPath, '--ssh-config', '/dev/null'];
}

beforeAll(async () => {
  // Downloads take a few seconds here: long enough to break a connection in the middle of one, even
  // when a loaded machine is slow to print that the download started.
  hosts = await useTestHosts({ sessionEnv: { SPARK_SIM_DOWNLOAD_SECONDS: '4' } });
  await ingestPaths(dbPath, [SESSIONS_DIR]);
  expect((await runRetrace(['plan', 'Qwen3.5', '-o', planPath, '--db', dbPath])).code).toBe(0);
});

describe('a replay under faults', () => {
  it('a blackholed host mid-step is `unknown` within the keepalive bounds, never retried; --resume completes the run', { timeout: 180_000 }, async () => {
    const cli = startRetrace(
      ['replay', planPath, '--live', '--yes', '--keepalive-interval', String(KEEPALIVE_S), '--keepalive-count', String(KEEPALIVE_COUNT),
        '--host', `head=${hostSpec(hosts, 'head')}`, '--host', `worker=${hostSpec(hosts, 'worker')}`, ...sshArgs()],
      ENV,
    );
    await cli.waitFor(/^… \[worker\] download-model/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const frozenAt = Date.now();
    expect(hosts.freeze('worker')).toBeGreaterThan(0);
    try {
      const line = await cli.waitFor(/^\? \[worker\] download-model unknown/, 10_000);
      const detectedMs = Date.now() - frozenAt;
      expect(detectedMs).toBeLessThan(KEEPALIVE_S * 1000 * (KEEPALIVE_COUNT + 1) + 1_500);
      expect(line).toMatch(/connection lost: Keepalive timeout/);
      expect(await cli.exited).toBe(1);
    } finally {
      hosts.thaw('worker');
    }
    const runId = /Resume with: retrace replay --resume (\S+)/.exec(cli.lines.join('\n'))?.[1] ?? '';
    const first = await queryStore(dbPath, (db) => loadRun(db, runId));
    expect(first.status).toBe('failed');
    const workerDownload = first.step_rows.find((s) => s.step_id === 'download-model' && s.role === 'worker');
    expect(workerDownload).toMatchObject({ attempt: 1, status: 'unknown', verdict: 'unknown' });
    // What waits for the lost worker (the head's cluster check, after the worker's join) did not run.
    expect(first.step_rows.some((s) => s.step_id === 'join-cluster' || s.step_id === 'check-cluster')).toBe(false);

    const resumed = await runRetrace(['replay', '--resume', runId, '--yes', ...sshArgs()], { env: ENV });
    expect(resumed.code, `${resumed.stdout}\n${resumed.stderr}`).toBe(0);
    const done = await queryStore(dbPath, (db) => loadRun(db, runId));
    expect(done.status).toBe('ok');
    expect(done.step_rows).toHaveLength(15);
    expect(done.step_rows.find((s) => s.step_id === 'download-model' && s.role === 'worker')).toMatchObject({ attempt: 2 });
    expect(['ok', 'guarded']).toContain(done.step_rows.find((s) => s.step_id === 'download-model' && s.role === 'worker')?.status);
    expect(done.step_rows.find((s) => s.step_id === 'check-health')).toMatchObject({ status: 'ok', output: '200' });
  });

  it('Ctrl-C stops the running step (its remote process too), marks it interrupted and records the run', { timeout: 180_000 }, async () => {
    const workerHome = hosts.host('worker').homeDir;
    rmSync(join(workerHome, '.cache', 'huggingface', 'hub', 'models--Qwen--Qwen3.5-122B-A10B-FP8'), { recursive: true, force: true });
    const cli = startRetrace(
      ['replay', planPath, '--live', '--yes', '--from', 'download-model', '--to', 'download-model',
        '--host', `head=${hostSpec(hosts, 'head')}`, '--host', `worker=${hostSpec(hosts, 'worker')}`, ...sshArgs()],
      ENV,
    );
    await cli.waitFor(/^… \[worker\] download-model/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    cli.child.kill('SIGINT');
    await cli.waitFor(/^■ \[worker\] download-model interrupted/);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toContain('Interrupted: stopping the running step');
    const run = (await queryStore(dbPath, listRuns)).at(-1);
    expect(run).toMatchObject({ status: 'interrupted' });
    const rows = (await queryStore(dbPath, (db) => loadRun(db, run?.id ?? ''))).step_rows;
    expect(rows.find((s) => s.role === 'worker')).toMatchObject({ status: 'interrupted', verdict: 'unknown' });
    // The remote download was stopped with its process group: nothing of it runs any more.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(downloadsRunningOn(hosts)).toEqual([]);
  });

  it('kill -9 of the CLI mid-step leaves a readable partial run, which --resume completes', { timeout: 180_000 }, async () => {
    rmSync(join(hosts.host('head').homeDir, '.cache', 'huggingface', 'hub', 'models--Qwen--Qwen3.5-122B-A10B-FP8'), { recursive: true, force: true });
    const cli = startRetrace(
      ['replay', planPath, '--live', '--yes', '--from', 'download-model', '--to', 'download-model',
        '--host', `head=${hostSpec(hosts, 'head')}`, '--host', `worker=${hostSpec(hosts, 'worker')}`, ...sshArgs()],
      ENV,
    );
    await cli.waitFor(/^… \[head\] download-model/);
    await cli.waitFor(/^… \[worker\] download-model/);
    cli.child.kill('SIGKILL');
    await cli.exited;
    const partial = await queryStore(dbPath, listRuns);
    const killed = partial.at(-1);
    expect(killed).toMatchObject({ mode: 'live', status: 'abandoned' });
    const rows = (await queryStore(dbPath, (db) => loadRun(db, killed?.id ?? ''))).step_rows;
    expect(rows.map((s) => `${s.step_id}@${s.role}:${s.status}`)).toEqual(['download-model@head:running', 'download-model@worker:running']);

    const resumed = await runRetrace(['replay', '--resume', killed?.id ?? '', '--yes', ...sshArgs()], { env: ENV });
    expect(resumed.code, resumed.stderr).toBe(0);
    const done = await queryStore(dbPath, (db) => loadRun(db, killed?.id ?? ''));
    expect(done.status).toBe('ok');
    // The download the killed CLI left running on the head may have finished meanwhile: then its guard skips it.
    expect(done.step_rows.map((s) => `${s.step_id}@${s.role}:${s.attempt}`)).toEqual(['download-model@head:2', 'download-model@worker:2']);
    for (const row of done.step_rows) expect(['ok', 'guarded']).toContain(row.status);
  });
});
