import { describe, expect, it } from 'vitest';
import { ReplayController } from '../../src/replay/run/controller.js';
import type { RunEvent, StepTarget } from '../../src/core/run/events.js';
import type { HostExecutor } from '../../src/replay/run/host-executor.js';
import { resumeStateOf } from '../../src/replay/run/resume.js';
import { runPlan, type RunnerInput } from '../../src/replay/run/runner.js';
import { Database, withDatabase } from '../../src/store/database.js';
import { loadRun } from '../../src/store/run-queries.js';
import { StoreRunRecorder } from '../../src/store/runs.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { exited, header, ScriptedExecutor, tinyPlan } from './helpers/plans.js';

/**
 * A run the TUI watches holds on a failure until someone decides (issue 17.5): `resume` (the
 * TUI's `p`) never goes past it; retry and skip act on one host of a fleet or on all of them;
 * a pending step can be skipped on one host; a resumed run announces what finished before.
 */
const dir = tempDir('retrace-runner-hold-');
const DIGEST = `Digest: sha256:${'a'.repeat(64)}`;

/** One member of a fleet: a scripted machine with its own address. */
class Member extends ScriptedExecutor {
  constructor(
    role: string,
    private readonly address: string,
    script: ConstructorParameters<typeof ScriptedExecutor>[1],
  ) {
    super(role, script);
  }

  override get display(): string {
    return `u@${this.address}:22`;
  }
}

function machine(role: string, address: string, pullFailures = 0): Member {
  let failures = pullFailures;
  return new Member(role, address, (command) => {
    if (command.startsWith('! systemctl is-active') || command.startsWith('docker image inspect')) return exited(1);
    if (command.startsWith('docker pull')) return failures-- > 0 ? exited(1, 'net/http: TLS handshake timeout\n') : exited(0, DIGEST);
    if (command.startsWith('curl')) return exited(0, '200');
    return exited(0, 'done\n');
  });
}

async function run(db: Database, runId: string, executors: Map<string, HostExecutor[]>, controller: ReplayController, overrides: Partial<RunnerInput> = {}) {
  const plan = tinyPlan();
  return runPlan({
    header: header(runId),
    plan,
    controller,
    executors,
    values: { image: 'repo/image:tag' },
    secrets: { HF_TOKEN: 'hf_secretvalue_never_stored_0000000000' },
    range: { first: 0, last: plan.steps.length - 1 },
    done: new Set(),
    attempts: new Map(),
    autoConfirm: true,
    holdOnFailure: true,
    recorder: new StoreRunRecorder(db),
    resumed: false,
    ...overrides,
  });
}

const tick = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));
const hostsOf = (targets: readonly StepTarget[] | undefined) => (targets ?? []).map((t) => t.host);

describe('a run held on a failure', () => {
  it('is not continued by resume; skips the failure on one host of a fleet, retries it on the other', async () => {
    await withDatabase(tempDbPath(dir), {}, async (db) => {
      const controller = new ReplayController('run_hold');
      const a = machine('worker', '10.9.0.1', 1);
      const b = machine('worker', '10.9.0.2', 1);
      const events: RunEvent[] = [];
      const holds: StepTarget[][] = [];
      controller.subscribe((event) => {
        events.push(event);
        if (event.type !== 'paused' || !event.failed) return;
        holds.push(event.failed);
        if (holds.length === 1) {
          void (async () => {
            controller.resume();
            await tick();
            // Still held: nothing resumed, nothing else ran.
            expect(events.at(-1)?.type).toBe('paused');
            controller.skip('pull', { role: 'worker', host: a.display });
          })();
        } else if (holds.length === 2) setTimeout(() => controller.retry('pull', { role: 'worker', host: b.display }), 10);
      });
      const result = await run(db, 'run_hold', new Map([['head', [machine('head', '10.9.0.9')]], ['worker', [a, b]]]), controller);
      expect(hostsOf(holds[0])).toEqual(['u@10.9.0.1:22', 'u@10.9.0.2:22']);
      expect(hostsOf(holds[1])).toEqual(['u@10.9.0.2:22']);
      expect(holds).toHaveLength(2);
      expect(result.status).toBe('ok');
      const pulls = await db.all(`SELECT host, attempt, status, detail FROM run_steps WHERE run_id = 'run_hold' AND step_id = 'pull' AND role = 'worker' ORDER BY host, attempt`);
      expect(pulls).toEqual([
        { host: 'u@10.9.0.1:22', attempt: 1, status: 'failed', detail: expect.any(String) },
        { host: 'u@10.9.0.1:22', attempt: 2, status: 'skipped', detail: 'skipped by the operator after it failed' },
        { host: 'u@10.9.0.2:22', attempt: 1, status: 'failed', detail: expect.any(String) },
        { host: 'u@10.9.0.2:22', attempt: 2, status: 'ok', detail: null },
      ]);
      // The skipped host goes on with its later steps (the operator chose to go on without the pull).
      expect(a.commands.filter((c) => c.includes('hf download'))).toHaveLength(1);
      expect((await loadRun(db, 'run_hold')).diverged).toBe(0);
    });
  });

  it('skips a step that has not started on one host of a fleet only', async () => {
    await withDatabase(tempDbPath(dir), {}, async (db) => {
      const controller = new ReplayController('run_skip_one');
      const a = machine('worker', '10.9.0.1');
      const b = machine('worker', '10.9.0.2');
      controller.skip('download', { role: 'worker', host: b.display });
      expect((await run(db, 'run_skip_one', new Map([['head', [machine('head', '10.9.0.9')]], ['worker', [a, b]]]), controller)).status).toBe('ok');
      expect(a.commands.some((c) => c.includes('hf download'))).toBe(true);
      expect(b.commands.some((c) => c.includes('hf download'))).toBe(false);
      const stored = await loadRun(db, 'run_skip_one');
      expect(stored.step_rows.filter((s) => s.step_id === 'download' && s.role === 'worker').map((s) => `${s.host}:${s.status}`)).toEqual(['u@10.9.0.1:22:ok', 'u@10.9.0.2:22:skipped']);
    });
  });

  it('announces, on a resume, the targets that finished before and how', async () => {
    await withDatabase(tempDbPath(dir), {}, async (db) => {
      const first = new ReplayController('run_again');
      first.subscribe((event) => {
        if (event.type === 'paused' && event.failed) setTimeout(() => first.abort(), 10);
      });
      const head = machine('head', '10.9.0.9');
      await run(db, 'run_again', new Map([['head', [head]], ['worker', [machine('worker', '10.9.0.1', 1)]]]), first);
      const stored = await loadRun(db, 'run_again');
      const resume = resumeStateOf('run_again', stored.step_rows, tinyPlan(), { image: 'repo/image:tag' });
      const second = new ReplayController('run_again');
      const events: RunEvent[] = [];
      second.subscribe((event) => events.push(event));
      const result = await run(db, 'run_again', new Map([['head', [machine('head', '10.9.0.9')]], ['worker', [machine('worker', '10.9.0.1')]]]), second, {
        resumed: true,
        done: resume.done,
        doneStatus: resume.doneStatus,
        attempts: resume.attempts,
      });
      expect(result.status).toBe('ok');
      const started = events.find((event) => event.type === 'run-started');
      const earlier = started?.type === 'run-started' ? (started.earlier ?? []).map((e) => `${e.target.stepId}@${e.target.role}:${e.status}`) : [];
      expect(earlier).toEqual(expect.arrayContaining(['stop-old@head:ok', 'pull@head:ok']));
      // The failed pull was not finished: it runs again and is not announced as done.
      expect(earlier.some((e) => e.startsWith('pull@worker'))).toBe(false);
    });
  });
});
