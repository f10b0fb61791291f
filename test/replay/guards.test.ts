// Guards prove completion: an interrupted download (config.json there, a blob still .incomplete,
// shards missing) is not "already done"; once whole, the next run skips it.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { listRuns, loadRun } from '../../src/store/run-queries.js';
import type { TestHosts } from '../ssh/harness.js';
import { runRetrace } from '../helpers/cli.js';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { hostSpec, useTestHosts } from './helpers/hosts.js';

const dir = tempDir('retrace-guards-');
const dbPath = tempDbPath(dir);
const planPath = join(dir, 'qwen.yaml');
const ENV = { HOME: dir, SSH_AUTH_SOCK: '', HF_TOKEN: 'hf_guardTESTtoken00000000000000000001', PYPI_PASSWORD: 'pw-guard', API_KEY: 'sk-guard-test-key-000000000000000000000' };
const CACHE = ['.cache', 'huggingface', 'hub', 'models--Qwen--Qwen3.5-122B-A10B-FP8'];
let hosts: TestHosts;

beforeAll(async () => {
  hosts = await useTestHosts();
  await ingestPaths(dbPath, [SESSIONS_DIR]);
  expect((await runRetrace(['plan', 'Qwen3.5', '-o', planPath, '--db', dbPath])).code).toBe(0);
});

async function download(): Promise<{ role: string; status: string }[]> {
  const args = ['replay', planPath, '--live', '--yes', '--from', 'install-huggingface-hub', '--to', 'download-model', '--db', dbPath, '--known-hosts', hosts.knownHostsPath,
    '--identity', hosts.clientKeyPath, '--ssh-config', '/dev/null', '--host', `head=${hostSpec(hosts, 'head')}`, '--host', `worker=${hostSpec(hosts, 'worker')}`];
  const result = await runRetrace(args, { env: ENV });
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  const run = (await queryStore(dbPath, listRuns)).at(-1);
  const rows = (await queryStore(dbPath, (db) => loadRun(db, run?.id ?? ''))).step_rows;
  return rows.filter((s) => s.step_id === 'download-model').map((s) => ({ role: s.role, status: s.status }));
}

describe('the download guard', () => {
  it('does not take an interrupted download for a finished one', { timeout: 120_000 }, async () => {
    for (const role of ['head', 'worker'] as const) rmSync(join(hosts.host(role).homeDir, ...CACHE), { recursive: true, force: true });
    // The head: what an interrupted `hf download` leaves: config.json, a blob half-written, no shards.
    const head = join(hosts.host('head').homeDir, ...CACHE);
    const snapshot = join(head, 'snapshots', '0123456789abcdef0123456789abcdef01234567');
    mkdirSync(snapshot, { recursive: true });
    mkdirSync(join(head, 'blobs'));
    writeFileSync(join(snapshot, 'config.json'), '{}\n');
    writeFileSync(join(head, 'blobs', 'f00d.incomplete'), 'half');
    // The worker: no blob left half-written, but the index names shards that are not there.
    const worker = join(hosts.host('worker').homeDir, ...CACHE, 'snapshots', '0123456789abcdef0123456789abcdef01234567');
    mkdirSync(worker, { recursive: true });
    writeFileSync(join(worker, 'config.json'), '{}\n');
    writeFileSync(join(worker, 'model.safetensors.index.json'), '{"weight_map": {"a": "model-00001-of-00002.safetensors", "b": "model-00002-of-00002.safetensors"}}\n');
    writeFileSync(join(worker, 'model-00001-of-00002.safetensors'), 'x');

    expect(await download()).toEqual([{ role: 'head', status: 'ok' }, { role: 'worker', status: 'ok' }]);
    expect(readdirSync(join(head, 'blobs')).filter((name) => name.endsWith('.incomplete'))).toEqual([]);
    // Whole now: the next run skips it on both.
    expect(await download()).toEqual([{ role: 'head', status: 'guarded' }, { role: 'worker', status: 'guarded' }]);
  });
});
