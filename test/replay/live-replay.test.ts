import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { listRuns, loadRun, type RunStepRow, type RunSummary } from '../../src/store/run-queries.js';
import type { TestHosts } from '../ssh/harness.js';
import { replayCommand } from '../../src/cli/commands/replay.js';
import type { Output } from '../../src/cli/output.js';
import { runRetrace } from '../helpers/cli.js';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { plantedSecrets, SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { hostSpec, useTestHosts } from './helpers/hosts.js';

const dir = tempDir('retrace-live-');
const dbPath = tempDbPath(dir);
const planPath = join(dir, 'qwen.yaml');
/** Test values for the plan's secrets: they must reach the hosts and never the store. */
const SECRETS = { HF_TOKEN: 'hf_liveTESTtokenNeverStored0000000001', PYPI_PASSWORD: 'pw-live-NEVER-stored-77', API_KEY: 'sk-live-test-NEVER-stored-0000000000' };
let hosts: TestHosts;
const silent: Output = { line: () => undefined, data: () => undefined, json: () => undefined, warn: () => undefined, status: () => undefined, clearStatus: () => undefined, interactive: false, columns: 100 };

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { HOME: dir, SSH_AUTH_SOCK: '', ...extra };
}

function sshArgs(roles: ('head' | 'worker')[] = ['head', 'worker']): string[] {
  return [
    '--db', dbPath, '--known-hosts', hosts.knownHostsPath, '--identity', hosts.clientKeyPath, '--ssh-config', '/dev/null',
    ...roles.flatMap((role) => ['--host', `${role}=${hostSpec(hosts, role)}`]),
  ];
}

/** Read in this process (quicker than the CLI); the store is closed again before the next replay. */
function runs(): Promise<RunSummary[]> {
  return queryStore(dbPath, listRuns);
}

async function stepsOf(runId: string): Promise<RunStepRow[]> {
  return (await queryStore(dbPath, (db) => loadRun(db, runId))).step_rows;
}

beforeAll(async () => {
  hosts = await useTestHosts();
  await ingestPaths(dbPath, [SESSIONS_DIR]);
  const planned = await runRetrace(['plan', 'Qwen3.5', '-o', planPath, '--db', dbPath]);
  expect(planned.code, planned.stderr).toBe(0);
});

describe('retrace replay against two real sshd test hosts', () => {
  it('is a dry run by default: per host, the rendered steps with guards and destructive marks, recorded as a dry run', async () => {
    const dry = await runRetrace(['replay', planPath, ...sshArgs()], { env: env() });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`head → ${hostSpec(hosts, 'head')}   # recorded: aurora@10.1.230.180, spark-1a32, never used as a target`);
    expect(dry.stdout).toContain(`worker → ${hostSpec(hosts, 'worker')}`);
    expect(dry.stdout).toContain('[DESTRUCTIVE: asks to confirm] [guarded]');
    // Pinned by the digest the record shows (the tag in a comment; --var image=… moves it).
    expect(dry.stdout).toContain('$ docker pull hellohal2064/vllm-qwen3.5-gb10@sha256:5e855267aeeb98c43924d5182fe4dda39c102b060e519065a99c104314c7470f 2>&1 | tail -3');
    expect(dry.stdout).toContain('Dry run: nothing was executed.');
    const [run] = await runs();
    expect(run).toMatchObject({ mode: 'dry', status: 'ok', steps: 15, diverged: 0, plan: planPath });
    // Nothing ran: the head still serves its old model and has no new image.
    const state = hosts.host('head').stateDir;
    expect(existsSync(join(state, 'images', 'hellohal2064_vllm-qwen3.5-gb10_latest'))).toBe(false);
    expect(readFileSync(join(state, 'services', 'vllm-cluster'), 'utf8').trim()).toBe('active');
    const printed: unknown[] = [];
    await replayCommand(planPath, { db: dbPath, hosts: [], vars: [], live: false, yes: false, acceptNew: false, json: true }, { ...silent, json: (value) => printed.push(value) });
    expect(printed[0]).toMatchObject({ run: { mode: 'dry', status: 'ok' }, steps: expect.arrayContaining([expect.objectContaining({ status: 'planned', host: '(none given)' })]) });
  });

  it('refuses a live run without a host for every role, without the secrets, or with destructive steps and no terminal', async () => {
    const noWorker = await runRetrace(['replay', planPath, '--live', '--yes', ...sshArgs(['head'])], { env: env(SECRETS) });
    expect(noWorker.code).toBe(2);
    expect(noWorker.stderr).toContain('a live run needs --host ROLE=[user@]host[:port] for every role; missing: worker');
    const base = { db: dbPath, hosts: [`head=${hostSpec(hosts, 'head')}`, `worker=${hostSpec(hosts, 'worker')}`], vars: [], live: true, yes: true, knownHosts: hosts.knownHostsPath, identity: hosts.clientKeyPath, sshConfig: '/dev/null', acceptNew: false, json: false };
    await expect(replayCommand(planPath, { ...base, env: env() }, silent)).rejects.toThrow(/secrets in the environment: PYPI_PASSWORD, HF_TOKEN \(export/);
    // The recorded server was started without a key: API_KEY is asked of nobody.
    await expect(replayCommand(planPath, { ...base, env: env({ HF_TOKEN: SECRETS.HF_TOKEN }) }, silent)).rejects.toThrow(/need these secrets in the environment: PYPI_PASSWORD \(export/);
    await expect(replayCommand(planPath, { ...base, yes: false, interactive: false, env: env(SECRETS) }, silent)).rejects.toThrow(/pass --yes/);
    await expect(replayCommand(planPath, { ...base, hosts: [...base.hosts, 'gpu=127.0.0.2'], env: env(SECRETS) }, silent)).rejects.toThrow(/no role "gpu"/);
    expect((await runs()).filter((r) => r.mode === 'live')).toEqual([]);
  });

  it('replays the sample plan live: every step in run_steps, the health check green', async () => {
    const live = await runRetrace(['replay', planPath, '--live', '--yes', ...sshArgs()], { env: env(SECRETS) });
    expect(live.code, `${live.stdout}\n${live.stderr}`).toBe(0);
    expect(live.stdout).toMatch(/✓ \[head\] check-health ok .* — same/);
    const run = (await runs()).find((r) => r.mode === 'live');
    expect(run).toMatchObject({ status: 'ok', steps: 15 });
    const steps = await stepsOf(run?.id ?? '');
    expect(steps).toHaveLength(15);
    // Fresh hosts hold no stopped container of that name: its removal is a guarded no-op, never asked about.
    expect(steps.filter((s) => s.status !== 'ok').map((s) => `${s.step_id}@${s.role}:${s.status}`)).toEqual(['remove-stopped-vllm-qwen35@head:guarded', 'remove-stopped-vllm-qwen35@worker:guarded']);
    expect(steps.find((s) => s.step_id === 'check-health')).toMatchObject({ exit_code: 0, output: '200', verdict: 'same' });
    expect(steps.find((s) => s.step_id === 'download-model' && s.role === 'worker')?.output).toContain('snapshots/');
    const diverged = steps.filter((s) => s.verdict === 'diverged').map((s) => `${s.step_id}: ${s.detail}`);
    expect(run?.diverged).toBe(diverged.length);
  });

  it('run again, it skips every guarded step and checks the rest', async () => {
    const again = await runRetrace(['replay', planPath, '--live', '--yes', ...sshArgs()], { env: env(SECRETS) });
    expect(again.code, again.stderr).toBe(0);
    const run = (await runs()).filter((r) => r.mode === 'live').at(-1);
    const steps = await stepsOf(run?.id ?? '');
    expect(steps.filter((s) => s.status === 'guarded').map((s) => `${s.step_id}@${s.role}`)).toEqual([
      'stop-vllm-cluster-vllm-proxy@head',
      'stop-vllm-embeddings-vllm-reranker@head',
      'pull-image@head',
      'pull-image@worker',
      'install-huggingface-hub@head',
      'install-huggingface-hub@worker',
      'download-model@head',
      'download-model@worker',
      'remove-stopped-vllm-qwen35@head',
      'remove-stopped-vllm-qwen35@worker',
      'start-cluster-head@head',
      'join-cluster@worker',
      'serve-model@head',
    ]);
    // One proof per service is kept (the first check that passed after its start): the cluster's and the health check.
    expect(steps.filter((s) => s.status === 'ok').map((s) => s.step_id)).toEqual(['check-cluster', 'check-health']);
  });

  it('never writes a secret value into the store (database and WAL bytes scanned)', () => {
    const files = readdirSync(dir).filter((name) => name.startsWith(dbPath.split('/').pop() ?? '-'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = readFileSync(join(dir, file)).toString('latin1');
      for (const secret of [...Object.values(SECRETS), ...plantedSecrets()]) expect(bytes.includes(secret), `${secret} in ${file}`).toBe(false);
    }
  });

  it('refuses a host whose key changed, before running anything', async () => {
    const before = (await runs()).length;
    const fingerprint = await hosts.rotateHostKey('worker');
    const refused = await runRetrace(['replay', planPath, '--live', '--yes', '--accept-new', ...sshArgs()], { env: env(SECRETS) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('HOST KEY CHANGED');
    expect(refused.stderr).toContain(fingerprint);
    expect((await runs()).length).toBe(before);
  });
});
