import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportCommand, EXPORT_WRITERS } from '../../src/cli/commands/export.js';
import { REPLAY_EXPORT_WRITERS } from '../../src/cli/export-replay-writers.js';
import type { Output } from '../../src/cli/output.js';
import { listRuns, loadRun } from '../../src/store/run-queries.js';
import type { TestHosts } from '../ssh/harness.js';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { plantedSecrets, SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { useTestHosts } from './helpers/hosts.js';

const dir = tempDir('retrace-export-');
const dbPath = tempDbPath(dir);
const WRITERS = [...EXPORT_WRITERS, ...REPLAY_EXPORT_WRITERS];
let hosts: TestHosts;

const quiet: Output = { line: () => undefined, json: () => undefined, warn: () => undefined, status: () => undefined, clearStatus: () => undefined, interactive: false, columns: 100 };

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
    expect(task(0, 0)).toMatchObject({ 'ansible.builtin.assert': { that: ['retrace_yes | default(false) | bool'] } });
    expect(plays[0]?.tags).toContain('destructive');
    expect(task(2, 0)).toMatchObject({ 'ansible.builtin.shell': { cmd: 'docker image inspect hellohal2064/vllm-qwen3.5-gb10@sha256:5e855267aeeb98c43924d5182fe4dda39c102b060e519065a99c104314c7470f >/dev/null 2>&1' }, register: 'guard_3', changed_when: false, failed_when: false });
    expect(task(2)).toMatchObject({
      when: 'guard_3.rc != 0',
      async: 1800,
      poll: 10,
      failed_when: 'result_3.rc != 0 or not (result_3.stdout is search("^Digest: sha256:[0-9a-f]{64}$", multiline=True))',
    });
    // The pull's `| tail -3` only trims: pipefail, so a missing docker fails the task.
    expect((task(2)['ansible.builtin.shell'] as { cmd: string }).cmd).toMatch(/^set -o pipefail\ndocker pull /);
    // A download is done when the whole snapshot is there: a check task, not `creates` on config.json.
    expect((task(4, 0)['ansible.builtin.shell'] as { cmd: string }).cmd).toContain('blobs/*.incomplete');
    expect(task(4)).toMatchObject({
      when: 'guard_5.rc != 0',
      environment: { HF_TOKEN: "{{ lookup('ansible.builtin.env', 'HF_TOKEN') }}" },
      no_log: true,
    });
    expect(task(10)).toMatchObject({ until: 'result_11.rc == 0 and (result_11.stdout is search("^200$", multiline=True))', retries: 90, delay: 10, changed_when: false });
    // The removal of a stopped container left with the name: asked for only after its guard.
    expect(plays[5]?.tags).toContain('destructive');
    expect(playbookText).toContain(`!unsafe sudo systemctl stop vllm-embeddings vllm-reranker && docker ps --format "{{.Names}}"`);
  });
});
