import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { replayCommand } from '../../src/cli/commands/replay.js';
import type { Output } from '../../src/cli/output.js';
import { prepareReplay } from '../../src/replay/run/prepare.js';
import { startLiveReplay } from '../../src/replay/run/live-replay.js';
import { withDatabase } from '../../src/store/database.js';
import { loadRun } from '../../src/store/run-queries.js';
import { StoreRunRecorder } from '../../src/store/runs.js';
import type { HostRole, TestHosts } from '../ssh/harness.js';
import { runRetrace } from '../helpers/cli.js';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { hostSpec, testSshSettings, useTestHosts } from './helpers/hosts.js';

// A fleet: the sample's plan on a head and FOUR workers (real sshd on 127.0.0.2, .3, .7, .8, .9),
// at most two hosts at a time; interrupted mid-download, then resumed host by host.
const dir = tempDir('retrace-fleet-');
const dbPath = tempDbPath(dir);
const planPath = join(dir, 'fleet.yaml');
const SECRETS = { HF_TOKEN: 'hf_fleetTESTtoken0000000000000000000001', PYPI_PASSWORD: 'pw-fleet-test', API_KEY: 'sk-fleet-test-key-000000000000000000000' };
const WORKERS: HostRole[] = ['worker', 'worker-2', 'worker-3', 'worker-4'];
let hosts: TestHosts;
const silent: Output = { line: () => undefined, data: () => undefined, json: () => undefined, warn: () => undefined, status: () => undefined, clearStatus: () => undefined, interactive: false, columns: 100 };

beforeAll(async () => {
  hosts = await useTestHosts({ roles: ['head', ...WORKERS], sessionEnv: { SPARK_SIM_DOWNLOAD_SECONDS: '1' } });
  await ingestPaths(dbPath, [SESSIONS_DIR]);
  const planned = await runRetrace(['plan', 'Qwen3.5', '-o', planPath, '--db', dbPath]);
  expect(planned.code, planned.stderr).toBe(0);
  // The operator's edit for five nodes: the cluster check expects all five GPUs (the record had two).
  const plan = parse(readFileSync(planPath, 'utf8')) as { steps: { id: string; expect: { output: string | null }; poll: unknown }[] };
  const check = plan.steps.find((step) => step.id === 'check-cluster');
  if (!check) throw new Error('the sample plan has no check-cluster step');
  check.expect.output = '[0-9.]+/5\\.0 GPU';
  check.poll = { interval_s: 0.5, max_s: 30 };
  writeFileSync(planPath, stringify(plan));
});

const hostArgs = (): string[] => [`head=${hostSpec(hosts, 'head')}`, ...WORKERS.map((role) => `worker=${hostSpec(hosts, role)}`)];

describe('a replay over a fleet', () => {
  it('runs every step on each host of its role (at most --forks at once), with verdicts per host, and resumes each host where it stopped', { timeout: 180_000 }, async () => {
    const settings = testSshSettings(hosts, { env: { HOME: dir, USER: hosts.hosts[0]?.user ?? 'root', SSH_AUTH_SOCK: '', ...SECRETS } });
    const runId = await withDatabase(dbPath, {}, async (db) => {
      const prepared = await prepareReplay(db, { source: planPath, resume: null, hosts: hostArgs(), vars: [], mode: 'live' });
      let downloaded = 0;
      const replay = await startLiveReplay({
        header: prepared.header,
        plan: prepared.plan,
        values: prepared.values,
        range: prepared.range,
        settings,
        recorder: new StoreRunRecorder(db),
        autoConfirm: true,
        holdOnFailure: false,
        forks: 2,
        resume: null,
        listener: (event) => {
          if (event.type === 'step-finished' && event.result.stepId === 'download-model') {
            // Two hosts have their model; stop the others in the middle of theirs (Ctrl-C).
            if (event.result.status === 'ok' && ++downloaded === 2) replay.controller.interrupt();
          }
        },
      });
      expect((await replay.done).status).toBe('interrupted');
      return prepared.header.id;
    });

    const first = await queryStore(dbPath, (db) => loadRun(db, runId));
    expect(first.hosts['worker']).toHaveLength(4);
    const downloads = first.step_rows.filter((s) => s.step_id === 'download-model');
    // Only what had started is recorded: two hosts done, the ones cut off interrupted.
    expect(downloads.filter((s) => s.status === 'ok')).toHaveLength(2);
    expect(downloads.filter((s) => s.status === 'interrupted').length).toBeGreaterThan(0);
    const pulls = first.step_rows.filter((s) => s.step_id === 'pull-image');
    expect(pulls.map((s) => s.host).sort()).toEqual([hostSpec(hosts, 'head'), ...WORKERS.map((role) => hostSpec(hosts, role))].sort());
    expect(pulls.every((s) => s.status === 'ok' && s.verdict === 'same')).toBe(true);
    const doneFirst = new Set(downloads.filter((s) => s.status === 'ok').map((s) => s.host));

    const resumed = await replayCommand(undefined, {
      db: dbPath, hosts: [], vars: [], live: true, yes: true, resume: runId, forks: 2,
      knownHosts: hosts.knownHostsPath, identity: hosts.clientKeyPath, sshConfig: '/dev/null', acceptNew: false, json: false,
      env: { HOME: dir, SSH_AUTH_SOCK: '', ...SECRETS },
    }, silent);
    expect(resumed).toBe(0);
    const done = await queryStore(dbPath, (db) => loadRun(db, runId));
    expect(done.status).toBe('ok');
    // Each host resumed on its own: the downloads that had finished were not run again.
    for (const row of done.step_rows.filter((s) => s.step_id === 'download-model')) {
      expect(row.attempt, row.host ?? '').toBe(doneFirst.has(row.host) ? 1 : 2);
      // A download cut off just as it finished is found complete by its guard on the resume.
      expect(doneFirst.has(row.host) ? ['ok'] : ['ok', 'guarded'], row.host ?? '').toContain(row.status);
    }
    const joins = done.step_rows.filter((s) => s.step_id === 'join-cluster');
    expect(joins.map((s) => `${s.status}:${s.verdict}`)).toEqual(Array(4).fill('ok:same'));
    expect(done.step_rows.find((s) => s.step_id === 'check-cluster')).toMatchObject({ status: 'ok', verdict: 'same' });
    expect(done.step_rows.find((s) => s.step_id === 'check-cluster')?.output).toContain('/5.0 GPU');
    expect(done.step_rows.find((s) => s.step_id === 'check-health')).toMatchObject({ status: 'ok', output: '200' });
    // 6 steps on the head alone, 4 on the head and the four workers (pull, install, download, the
    // removal of a left-over container), 1 on the workers: a row per host and step.
    expect(done.step_rows).toHaveLength(6 + 4 * 5 + 4);
    expect(done.steps).toBe(done.step_rows.length);
    // The ticket's view: every host of every step.
    const report = await runRetrace(['runs', runId, '--format', 'markdown', '--db', dbPath]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout.match(/^\| 3 \| pull-image \| (head|worker) \| \S+ \| ok \|/gm)).toHaveLength(5);
    expect(report.stdout).toMatch(/^\| 5 \| download-model \(attempt 2\) \| worker \|/m);
  });

  it('stops a failed host and what waits for it, never its siblings; at most --forks hosts at once', async () => {
    const failing = await useFailingWorkerPlan();
    const code = await replayCommand(failing, {
      db: dbPath, hosts: hostArgs(), vars: [], live: true, yes: true, forks: 2,
      knownHosts: hosts.knownHostsPath, identity: hosts.clientKeyPath, sshConfig: '/dev/null', acceptNew: false, json: false,
      env: { HOME: dir, SSH_AUTH_SOCK: '' },
    }, silent);
    expect(code).toBe(1);
    const runs = await queryStore(dbPath, async (db) => db.all(`SELECT id FROM runs WHERE plan = ? ORDER BY started_at DESC LIMIT 1`, [failing]));
    const run = await queryStore(dbPath, (db) => loadRun(db, String(runs[0]?.['id'])));
    const lines = run.step_rows.map((s) => `${s.step_id}@${s.host === hostSpec(hosts, 'worker-3') ? 'bad' : s.role}:${s.status}`).sort();
    expect(lines).toEqual([
      'head-only@head:ok', // the head waits for nothing the workers alone do before it
      'prepare@bad:failed',
      'prepare@head:ok',
      'prepare@worker:ok', 'prepare@worker:ok', 'prepare@worker:ok',
      'worker-only@worker:ok', 'worker-only@worker:ok', 'worker-only@worker:ok',
      // check-after-workers waits for worker-only, which the failed host never ran: not run.
    ]);
    expect(run.status).toBe('failed');
    // The three siblings ran worker-only two at a time (each wrote + at its start, - at its end).
    let now = 0;
    let most = 0;
    for (const mark of readFileSync(join(dir, 'forks.log'), 'utf8').trim().split('\n').map((line) => line.split(' ')).sort((a, b) => Number(a[1]) - Number(b[1]) || (a[0] === '-' ? -1 : 1))) {
      now += mark[0] === '+' ? 1 : -1;
      most = Math.max(most, now);
    }
    expect(most).toBe(2);
  });
});

/** A small plan where worker-3 (127.0.0.8) fails the first step. */
async function useFailingWorkerPlan(): Promise<string> {
  const path = join(dir, 'failing.yaml');
  const bad = hosts.host('worker-3').address;
  writeFileSync(path, stringify({
    version: 1,
    session: { id: 'ses_fleet_failure', title: 'a fleet with one bad host' },
    roles: { head: {}, worker: {} },
    steps: [
      { id: 'prepare', roles: ['head', 'worker'], command: `test "$SSH_CONNECTION" = "\${SSH_CONNECTION%${bad} *}" && echo prepared` },
      { id: 'head-only', roles: ['head'], command: 'echo head' },
      { id: 'worker-only', roles: ['worker'], command: `echo "+ $(date +%s%N)" >> ${join(dir, 'forks.log')}; sleep 0.5; echo "- $(date +%s%N)" >> ${join(dir, 'forks.log')}; echo worker` },
      { id: 'check-after-workers', roles: ['head'], command: 'echo checked' },
    ],
  }));
  return path;
}
