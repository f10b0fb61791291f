import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportCommand, EXPORT_WRITERS } from '../../src/cli/commands/export.js';
import { REPLAY_EXPORT_WRITERS } from '../../src/cli/export-replay-writers.js';
import type { Output } from '../../src/cli/output.js';
import { listRuns, loadRun } from '../../src/store/run-queries.js';
import type { TestHosts } from '../ssh/harness.js';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { runRetrace } from '../helpers/cli.js';
import { plantedSecrets, SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { useTestHosts } from './helpers/hosts.js';

const dir = tempDir('retrace-export-');
const dbPath = tempDbPath(dir);
const WRITERS = [...EXPORT_WRITERS, ...REPLAY_EXPORT_WRITERS];
let hosts: TestHosts;

const quiet: Output = { line: () => undefined, data: () => undefined, json: () => undefined, warn: () => undefined, status: () => undefined, clearStatus: () => undefined, interactive: false, columns: 100 };

/** Runs a command on a test host with the system's own ssh client, through the harness's ssh_config. */
function onHost(alias: string, command: string): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync('ssh', ['-F', hosts.sshConfigPath, '-o', 'BatchMode=yes', alias, command], { encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  hosts = await useTestHosts();
  await ingestPaths(dbPath, [SESSIONS_DIR]);
});

describe('export --to sh', () => {
  it('writes a standalone script whose run log, from a real test host, `retrace ingest` imports as a run', async () => {
    const script = join(hosts.host('head').homeDir, 'replay.sh');
    expect(await exportCommand('Qwen3.5', { db: dbPath, to: 'sh', out: script, json: false }, quiet, WRITERS)).toBe(0);
    const text = readFileSync(script, 'utf8');
    for (const secret of plantedSecrets()) expect(text).not.toContain(secret);
    expect(text).toContain('HF_TOKEN=${HF_TOKEN}');
    execFileSync('bash', ['-n', script]);

    const refused = onHost('spark-head', 'bash ~/replay.sh --role head --yes --to download-model --log ~/refused.jsonl');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('set PYPI_PASSWORD in the environment first');

    const secrets = 'HF_TOKEN=hf_scriptTESTtoken00000000000000000001 PYPI_PASSWORD=pw-script API_KEY=sk-script-test-key-0000000000000000000';
    const ran = onHost('spark-head', `${secrets} bash ~/replay.sh --role head --yes --to download-model --log ~/run.jsonl`);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('[download-model]');
    const log = join(hosts.host('head').homeDir, 'run.jsonl');
    expect(readFileSync(log, 'utf8')).not.toContain('hf_scriptTESTtoken');

    const summary = await ingestPaths(dbPath, [log]);
    expect(summary.errors).toEqual([]);
    expect(summary.sessions).toBe(1);
    const [run] = await queryStore(dbPath, listRuns);
    expect(run).toMatchObject({ mode: 'live', status: 'ok', steps: 5, session_id: 'ses_365d176c7ffeX5TaQTV86dNCf0' });
    const stored = await queryStore(dbPath, (db) => loadRun(db, run?.id ?? ''));
    expect(stored.step_rows.map((s) => `${s.step_id}:${s.status}:${s.verdict}`)).toEqual([
      'stop-vllm-cluster-vllm-proxy:ok:same',
      'stop-vllm-embeddings-vllm-reranker:ok:same',
      'pull-image:ok:same',
      'install-huggingface-hub:ok:same',
      'download-model:ok:same',
    ]);
    const session = await queryStore(dbPath, (db) => db.one(`SELECT agent, message_count, tool_call_count FROM sessions WHERE id = ?`, [run?.id ?? '']));
    expect(session).toEqual({ agent: 'retrace', message_count: 5, tool_call_count: 5 });

    // Again on the same host: the guards see the work done.
    expect(onHost('spark-head', `${secrets} bash ~/replay.sh --role head --yes --to download-model --log ~/run2.jsonl`).code).toBe(0);
    await ingestPaths(dbPath, [join(hosts.host('head').homeDir, 'run2.jsonl')]);
    const second = (await queryStore(dbPath, listRuns)).at(-1);
    const again = await queryStore(dbPath, (db) => loadRun(db, second?.id ?? ''));
    expect(new Set(again.step_rows.map((s) => s.status))).toEqual(new Set(['guarded']));
  });
});

/** Starts a command on a test host; resolves with its exit and output once it ends. */
function onHostAsync(alias: string, command: string, onLine: (line: string) => void = () => undefined): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('ssh', ['-F', hosts.sshConfigPath, '-o', 'BatchMode=yes', alias, command], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const take = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      for (const line of chunk.toString('utf8').split('\n')) if (line) onLine(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => resolve({ code, out }));
  });
}

interface LogLine { type: string; step_id?: string; started_at?: number; ended_at?: number; status?: string }
const logOf = (path: string): LogLine[] => readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as LogLine);

describe('export PLAN.yaml --to sh: roles at once', () => {
  it('runs both roles of the sample at the same time; the worker waits until the head\'s cluster answers', { timeout: 240_000 }, async () => {
    const planPath = join(dir, 'qwen.yaml');
    expect((await runRetrace(['plan', 'Qwen3.5', '-o', planPath, '--db', dbPath])).code).toBe(0);
    for (const role of ['head', 'worker'] as const) {
      const exported = await runRetrace(['export', planPath, '--to', 'sh', '-o', join(hosts.host(role).homeDir, 'fleet.sh')]);
      expect(exported.code, exported.stderr).toBe(0);
    }
    const secrets = 'HF_TOKEN=hf_scriptTESTtoken00000000000000000001 PYPI_PASSWORD=pw-script API_KEY=sk-script-test-key-0000000000000000000';
    // The worker starts first; the head only once the worker says it is waiting for the cluster.
    let headRun: Promise<{ code: number | null; out: string }> | null = null;
    let startHead: () => void = () => undefined;
    const headStarted = new Promise<void>((resolve) => (startHead = resolve));
    const worker = onHostAsync('spark-worker', `${secrets} bash ~/fleet.sh --role worker --yes --log ~/fleet-worker.jsonl`, (line) => {
      if (/\[join-cluster\] waiting for the ray cluster at 192\.168\.200\.1:6379/.test(line) && !headRun) {
        headRun = onHostAsync('spark-head', `${secrets} bash ~/fleet.sh --role head --yes --log ~/fleet-head.jsonl`);
        startHead();
      }
    });
    await Promise.race([headStarted, worker]);
    expect(headRun, 'the worker never waited for the head').not.toBeNull();
    const [workerEnd, headEnd] = await Promise.all([worker, headRun as unknown as Promise<{ code: number | null; out: string }>]);
    expect(workerEnd.code, workerEnd.out).toBe(0);
    expect(headEnd.code, headEnd.out).toBe(0);
    const workerLog = logOf(join(hosts.host('worker').homeDir, 'fleet-worker.jsonl'));
    const headLog = logOf(join(hosts.host('head').homeDir, 'fleet-head.jsonl'));
    const headStart = headLog.find((l) => l.type === 'step-finished' && l.step_id === 'start-cluster-head');
    const join_ = workerLog.find((l) => l.type === 'step-finished' && l.step_id === 'join-cluster');
    // The worker joined after the head's cluster was up, and the head's check saw both nodes.
    expect(join_?.ended_at ?? 0).toBeGreaterThan(headStart?.ended_at ?? Infinity);
    expect(headLog.at(-1)).toMatchObject({ type: 'run-finished', status: 'ok' });
    expect(workerLog.at(-1)).toMatchObject({ type: 'run-finished', status: 'ok' });
    expect(headEnd.out).toMatch(/\[check-health\]/);
  });

  it('stops at a destructive step nobody can confirm, and refuses a misspelled --from', async () => {
    const planPath = join(dir, 'small.yaml');
    const marker = join(dir, 'after-destructive');
    writeFileSync(planPath, stringify({
      version: 1,
      session: { id: 'ses_small', title: 'small' },
      roles: { head: {} },
      steps: [
        { id: 'wipe', roles: ['head'], command: 'echo wiping', destructive: true, guard: 'false' },
        { id: 'after', roles: ['head'], command: `touch ${marker}` },
      ],
    }));
    const script = join(dir, 'small.sh');
    expect((await runRetrace(['export', planPath, '--to', 'sh', '-o', script])).code).toBe(0);
    const log = join(dir, 'small.jsonl');
    const stopped = spawnSync('bash', [script, '--role', 'head', '--log', log], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(stopped.status).toBe(3);
    expect(stopped.stderr).toContain('[wipe] destructive, and no terminal is attached to confirm it: run again with --yes to approve it; stopping here');
    expect(readFileSync(log, 'utf8')).toContain('"status":"aborted"');
    expect(spawnSync('test', ['-e', marker]).status).toBe(1);
    const misspelled = spawnSync('bash', [script, '--role', 'head', '--from', 'wpie', '--log', join(dir, 'x.jsonl')], { encoding: 'utf8' });
    expect(misspelled.status).toBe(2);
    expect(misspelled.stderr).toContain('--from/--to wpie: head has no step of that id (its steps: wipe after )');
    expect(spawnSync('bash', [script, '--role', 'head', '--yes', '--log', join(dir, 'y.jsonl')]).status).toBe(0);
    expect(spawnSync('test', ['-e', marker]).status).toBe(0);
    // A plan that does not validate is not exported.
    writeFileSync(join(dir, 'bad.yaml'), 'version: 1\nsession: { id: s }\nroles: { head: {} }\nsteps: [{ id: Bad_Id, roles: [head], command: x }]\n');
    const bad = await runRetrace(['export', join(dir, 'bad.yaml'), '--to', 'sh']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.yaml/);
  });
});

describe('export --to ansible', () => {
  it('writes a playbook (one play per step) and an inventory with one group per role', async () => {
    const folder = join(dir, 'ansible');
    expect(await exportCommand('ses_365d176c7ffeX5TaQTV86dNCf0', { db: dbPath, to: 'ansible', out: folder, json: false }, quiet, WRITERS)).toBe(0);
    const playbookText = readFileSync(join(folder, 'playbook.yml'), 'utf8');
    const inventory = readFileSync(join(folder, 'inventory.ini'), 'utf8');
    for (const secret of plantedSecrets()) expect(playbookText + inventory).not.toContain(secret);
    expect(inventory).toMatch(/^\[head\]$/m);
    expect(inventory).toMatch(/^\[worker\]$/m);
    expect(inventory).not.toMatch(/^[^#[\n].*10\.1\.230/m); // recorded addresses only in comments

    const ansible = spawnSync('ansible-playbook', ['--version'], { encoding: 'utf8' });
    if (ansible.status === 0) {
      writeFileSync(join(folder, 'inventory.ini'), `${inventory}\n[head]\nlocalhost ansible_connection=local\n`);
      const check = spawnSync('ansible-playbook', ['--syntax-check', '-i', join(folder, 'inventory.ini'), join(folder, 'playbook.yml')], { encoding: 'utf8' });
      expect(check.status, `${check.stdout}\n${check.stderr}`).toBe(0);
    }
    // Whether or not Ansible is installed: the structure the playbook must have.
    const plays = parse(playbookText, { customTags: [{ tag: '!unsafe', resolve: (value: string) => value }] }) as {
      name: string;
      hosts: string;
      any_errors_fatal: boolean;
      tags: string[];
      tasks: Record<string, unknown>[];
    }[];
    expect(plays.map((p) => p.hosts)).toEqual(['head', 'head', 'head:worker', 'head:worker', 'head:worker', 'head:worker', 'head', 'worker', 'head', 'head', 'head']);
    expect(plays.every((p) => p.any_errors_fatal)).toBe(true);
    const task = (play: number, index = -1) => plays[play]?.tasks.at(index) ?? {};
    // Guard first, then the confirmation, only where the work is not done: a second run changes nothing.
    expect(task(0, 0)).toMatchObject({ register: 'guard_1', changed_when: false, failed_when: false });
    expect(task(0, 1)).toMatchObject({ 'ansible.builtin.assert': { that: ['retrace_yes | default(false) | bool'] }, when: 'guard_1.rc != 0' });
    expect(plays[0]?.tags).toContain('destructive');
    expect(task(2, 0)).toMatchObject({ 'ansible.builtin.shell': { cmd: 'docker image inspect hellohal2064/vllm-qwen3.5-gb10@sha256:5e855267aeeb98c43924d5182fe4dda39c102b060e519065a99c104314c7470f >/dev/null 2>&1' }, register: 'guard_3', changed_when: false, failed_when: false });
    expect(task(2)).toMatchObject({
      when: 'guard_3.rc != 0',
      async: 1800,
      poll: 10,
      failed_when: 'not (result_3.rc == 0 and (result_3.stdout is search("^Digest: sha256:[0-9a-f]{64}$", multiline=True)))',
    });
    // The pull's `| tail -3` only trims: pipefail, so a missing docker fails the task.
    expect((task(2)['ansible.builtin.shell'] as { cmd: string }).cmd).toMatch(/^set -o pipefail\ndocker pull /);
    // A download is done when the whole snapshot is there: a check task, not `creates` on config.json.
    expect((task(4, 0)['ansible.builtin.shell'] as { cmd: string }).cmd).toContain('blobs/*.incomplete');
    expect(task(4, -2)).toMatchObject({
      when: 'guard_5.rc != 0',
      environment: { HF_TOKEN: "{{ lookup('ansible.builtin.env', 'HF_TOKEN') }}" },
      no_log: true,
      failed_when: false,
    });
    // no_log hides the task's own failure: the next task fails in its place, with the secret removed.
    expect(task(4)).toMatchObject({ when: expect.stringContaining('result_5 is not skipped and not (result_5.rc == 0'), 'ansible.builtin.fail': { msg: expect.stringContaining("replace(lookup('ansible.builtin.env', 'HF_TOKEN'), '[REDACTED:env:HF_TOKEN]')") } });
    expect(plays.filter((p) => p.tasks.some((t) => t['no_log'] === true)).map((p) => p.name)).toEqual(['4. install-huggingface-hub', '5. download-model']);
    // A short step has a task timeout, a long one runs as an async job.
    expect(task(5)).toMatchObject({ timeout: 60 });
    expect(task(5)).not.toHaveProperty('async');
    // The worker's join first waits until the head's cluster answers; the head's check polls for its nodes.
    expect(plays[7]?.tasks.find((t) => String(t['name']).includes('wait until the ray cluster'))).toMatchObject({ until: 'ready_8.rc == 0', changed_when: false });
    expect(task(8)).toMatchObject({ until: expect.stringContaining('.0 GPU') });
    expect(task(10)).toMatchObject({ until: 'result_11.rc == 0 and (result_11.stdout is search("^200$", multiline=True))', retries: 90, delay: 10, changed_when: false });
    // The removal of a stopped container left with the name: asked for only after its guard.
    expect(plays[5]?.tags).toContain('destructive');
    expect(playbookText).toContain(`!unsafe sudo systemctl stop vllm-embeddings vllm-reranker && docker ps --format "{{.Names}}"`);
  });
});
