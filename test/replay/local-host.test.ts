import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { replayCommand, type ReplayOptions } from '../../src/cli/commands/replay.js';
import type { Output } from '../../src/cli/output.js';
import { listRuns, loadRun } from '../../src/store/run-queries.js';
import { SESSION_PATH, type TestHosts } from '../ssh/harness.js';
import { runRetrace } from '../helpers/cli.js';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { hostSpec, useTestHosts } from './helpers/hosts.js';

// `--host head=local`: the head's steps run on THIS machine, without SSH, with the simulated
// Spark toolset (test/spark-sim) first on PATH and a temp HOME and state: never real docker.
// The worker is a real sshd test host; both share the simulated Ray cluster.
const dir = tempDir('retrace-local-');
const dbPath = tempDbPath(dir);
const planPath = join(dir, 'qwen.yaml');
let home: string;
let state: string;
const SECRETS = { HF_TOKEN: 'hf_localTESTtoken000000000000000000001', PYPI_PASSWORD: 'pw-local-test', API_KEY: 'sk-local-test-key-000000000000000000000' };
const SIM_SEED = fileURLToPath(new URL('../spark-sim/seed', import.meta.url));
let hosts: TestHosts;
let localEnv: NodeJS.ProcessEnv;
const silent: Output = { line: () => undefined, data: () => undefined, json: () => undefined, warn: () => undefined, status: () => undefined, clearStatus: () => undefined, interactive: false, columns: 100 };

beforeAll(async () => {
  hosts = await useTestHosts({ roles: ['worker'] });
  // Beside the test hosts' own folders (not under /tmp, which a simulated container makes private).
  home = join(hosts.rootDir, 'local-head', 'home');
  state = join(hosts.rootDir, 'local-head', 'state');
  mkdirSync(home, { recursive: true });
  mkdirSync(state, { recursive: true });
  const sim = { SPARK_SIM_STATE: state, SPARK_SIM_CLUSTER: hosts.clusterDir, SPARK_SIM_HOSTNAME: 'spark-1a32', SPARK_SIM_ROLE: 'head', SPARK_SIM_LOAD_SECONDS: '0' };
  localEnv = { PATH: SESSION_PATH, HOME: home, USER: 'tester', SHELL: '/bin/bash', SSH_AUTH_SOCK: '', ...sim };
  await promisify(execFile)(SIM_SEED, [], { env: localEnv });
  await ingestPaths(dbPath, [SESSIONS_DIR]);
  const planned = await runRetrace(['plan', 'Qwen3.5', '-o', planPath, '--db', dbPath]);
  expect(planned.code, planned.stderr).toBe(0);
});

function options(overrides: Partial<ReplayOptions>): ReplayOptions {
  return {
    db: dbPath, hosts: [], vars: [], live: true, yes: true,
    knownHosts: hosts.knownHostsPath, identity: hosts.clientKeyPath, sshConfig: '/dev/null', acceptNew: false, json: false,
    env: { ...localEnv, ...SECRETS },
    ...overrides,
  };
}

describe('--host ROLE=local', () => {
  it('runs the head\'s steps of the sample here (stub toolset) beside a worker over SSH: the whole deployment, recorded', { timeout: 120_000 }, async () => {
    const code = await replayCommand(planPath, options({ hosts: ['head=local', `worker=${hostSpec(hosts, 'worker')}`] }), silent);
    const [run] = await queryStore(dbPath, listRuns);
    const stored = await queryStore(dbPath, (db) => loadRun(db, run?.id ?? ''));
    expect(code, JSON.stringify(stored.step_rows.filter((s) => s.status !== 'ok' && s.status !== 'guarded'), null, 1)).toBe(0);
    expect(stored.status).toBe('ok');
    expect(stored.hosts['head']?.[0]).toMatch(/^tester@.+ \(local\)$/);
    const head = stored.step_rows.filter((s) => s.role === 'head');
    expect(head).toHaveLength(10);
    // No stopped container is left here with the name: its removal is a guarded no-op.
    expect(head.filter((s) => s.status === 'guarded').map((s) => s.step_id)).toEqual(['remove-stopped-vllm-qwen35']);
    expect(head.filter((s) => s.status !== 'guarded').every((s) => s.status === 'ok' && s.verdict === 'same')).toBe(true);
    expect(stored.step_rows.find((s) => s.step_id === 'check-cluster')?.output).toContain('/2.0 GPU');
    expect(stored.step_rows.find((s) => s.step_id === 'check-health')).toMatchObject({ status: 'ok', output: '200' });
    // The simulated head here (its state in the temp dir) really changed: the image is pulled.
    expect(existsSync(join(state, 'images', 'hellohal2064_vllm-qwen3.5-gb10_latest'))).toBe(true);
    // The secrets went on stdin and were scrubbed from what was stored.
    const dump = JSON.stringify(stored);
    for (const value of Object.values(SECRETS)) expect(dump).not.toContain(value);
  });

  it('has the same guards, timeouts and process-group kill as a host, and secrets only on stdin', async () => {
    const plan = join(dir, 'local.yaml');
    const pidFile = join(dir, 'background.pid');
    writeFileSync(plan, stringify({
      version: 1,
      session: { id: 'ses_local', title: 'local checks' },
      roles: { head: {} },
      variables: { HF_TOKEN: { env: 'HF_TOKEN' } },
      steps: [
        { id: 'guarded', roles: ['head'], command: 'touch should-not-exist', guard: 'true' },
        { id: 'secret', roles: ['head'], command: 'echo "length ${#HF_TOKEN}: $HF_TOKEN"; tr "\\0" "\\n" < /proc/$$/environ | grep -c "^HF_TOKEN=" || true', expect: { exit: 0, output: '^length 38' } },
        { id: 'unused-secret', roles: ['head'], command: 'env | grep -c "^HF_TOKEN=" || true' },
        { id: 'slow', roles: ['head'], command: `sleep 60 & echo $! > ${pidFile}; wait`, timeout_s: 1 },
      ],
    }));
    expect(await replayCommand(plan, options({ hosts: ['head=local'], keepGoing: true }), silent)).toBe(1);
    const last = (await queryStore(dbPath, listRuns)).at(-1);
    const steps = (await queryStore(dbPath, (db) => loadRun(db, last?.id ?? ''))).step_rows;
    expect(steps.map((s) => `${s.step_id}:${s.status}`)).toEqual(['guarded:guarded', 'secret:ok', 'unused-secret:ok', 'slow:timeout']);
    expect(existsSync(join(home, 'should-not-exist'))).toBe(false);
    // Read from stdin into the shell, never inherited in its environment; scrubbed from the output.
    expect(steps[1]?.output).toContain('length 38: [REDACTED:env:HF_TOKEN]');
    expect(steps[1]?.output?.trim().split('\n').at(-1)).toBe('0');
    // A step that does not use the secret never sees it.
    expect(steps[2]?.output?.trim()).toBe('0');
    // The timeout killed the whole process group: the background sleep is gone too.
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
