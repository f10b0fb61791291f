import { describe, expect, it } from 'vitest';
import { ReplayController } from '../../src/replay/run/controller.js';
import type { RunEvent } from '../../src/core/run/events.js';
import type { HostExecutor } from '../../src/replay/run/host-executor.js';
import { resumeStateOf } from '../../src/replay/run/resume.js';
import { runPlan, type RunnerInput } from '../../src/replay/run/runner.js';
import { Database, withDatabase } from '../../src/store/database.js';
import { listRuns, loadRun } from '../../src/store/run-queries.js';
import { StoreRunRecorder } from '../../src/store/runs.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { exited, header, ScriptedExecutor, tinyPlan } from './helpers/plans.js';

const dir = tempDir('retrace-runner-');
const DIGEST = `Digest: sha256:${'a'.repeat(64)}\nStatus: Downloaded newer image for repo/image:tag`;

/** A fresh machine: nothing done; `curl` answers 000 once, then 200. */
function freshMachine(role: string, overrides: Record<string, () => ReturnType<typeof exited>> = {}): ScriptedExecutor {
  let healthCalls = 0;
  return new ScriptedExecutor(role, (command) => {
    for (const [needle, answer] of Object.entries(overrides)) if (command.includes(needle)) return answer();
    if (command.startsWith('! systemctl is-active')) return exited(1);
    if (command.startsWith('docker image inspect')) return exited(1);
    if (command.startsWith('docker pull')) return exited(0, DIGEST);
    if (command.startsWith('curl')) return (healthCalls += 1) === 1 ? exited(7, '000') : exited(0, '200');
    return exited(0, 'done\n');
  });
}

async function run(db: Database, runId: string, executors: HostExecutor[], overrides: Partial<RunnerInput> = {}): Promise<{ status: string; events: RunEvent[] }> {
  const plan = tinyPlan();
  const controller = overrides.controller ?? new ReplayController(runId);
  const events: RunEvent[] = [];
  controller.subscribe((event) => events.push(event));
  const result = await runPlan({
    header: header(runId),
    plan,
    controller,
    executors: new Map(executors.map((executor) => [executor.role, [executor]])),
    values: { image: 'repo/image:tag' },
    secrets: { HF_TOKEN: 'hf_secretvalue_never_stored_0000000000' },
    range: { first: 0, last: plan.steps.length - 1 },
    done: new Set(),
    attempts: new Map(),
    autoConfirm: true,
    holdOnFailure: false,
    recorder: new StoreRunRecorder(db),
    resumed: false,
    ...overrides,
  });
  return { status: result.status, events };
}

describe('runner and run records', () => {
  it('runs every step on every role, polls the health check, and stores the run as a run and as a session', async () => {
    await withDatabase(tempDbPath(dir), {}, async (db) => {
      const head = freshMachine('head');
      const worker = freshMachine('worker');
      const { status, events } = await run(db, 'run_a', [head, worker]);
      expect(status).toBe('ok');
      expect(head.commands.filter((c) => c.startsWith('curl'))).toHaveLength(2);
      expect(head.secretsSeen[head.commands.indexOf('HF_TOKEN=${HF_TOKEN} hf download m')]).toEqual({ HF_TOKEN: 'hf_secretvalue_never_stored_0000000000' });
      expect(head.secretsSeen[head.commands.indexOf('docker pull repo/image:tag')]).toEqual({});
      expect(events.map((e) => e.type)).toContain('output');

      const stored = await loadRun(db, 'run_a');
      expect(stored.status).toBe('ok');
      expect(stored.step_rows.map((s) => `${s.step_id}@${s.role}:${s.status}:${s.verdict}`)).toEqual([
        'stop-old@head:ok:same',
        'pull@head:ok:same',
        'pull@worker:ok:same',
        'download@head:ok:same',
        'download@worker:ok:same',
        'health@head:ok:same',
      ]);
      expect(await listRuns(db)).toEqual([
        { id: 'run_a', session_id: 'ses_tiny', plan: 'plan.yaml', mode: 'live', status: 'ok', started_at: '2026-02-26T14:00:00.000Z', ended_at: expect.any(String), steps: 6, diverged: 0 },
      ]);
      const session = await db.one(`SELECT agent, title, message_count, tool_call_count FROM sessions WHERE id = 'run_a'`);
      expect(session).toEqual({ agent: 'retrace', title: 'replay of tiny deployment', message_count: 4, tool_call_count: 6 });
      const call = await db.one(`SELECT tool, status, command, exit_code, output FROM tool_calls WHERE session_id = 'run_a' AND call_id = 'run_a/health/head/1'`);
      expect(call).toEqual({ tool: 'ssh', status: 'completed', command: 'curl -s localhost:8000/health', exit_code: 0, output: '200' });
      const leaked = await db.scalar(
        `SELECT (SELECT count(*) FROM run_steps WHERE output LIKE '%hf_secretvalue%' OR command LIKE '%hf_secretvalue%')
              + (SELECT count(*) FROM tool_calls WHERE output LIKE '%hf_secretvalue%' OR input LIKE '%hf_secretvalue%')
              + (SELECT count(*) FROM runs WHERE plan_json LIKE '%hf_secretvalue%')`,
      );
      expect(Number(leaked)).toBe(0);
    });
  });

  it('skips guarded steps on a machine where the work is done', async () => {
    await withDatabase(tempDbPath(dir), {}, async (db) => {
      const done = () => exited(0);
      const head = freshMachine('head', { '! systemctl': done, 'docker image inspect': done });
      const worker = freshMachine('worker', { 'docker image inspect': done });
      await run(db, 'run_b', [head, worker]);
      const stored = await loadRun(db, 'run_b');
      expect(stored.step_rows.filter((s) => s.status === 'guarded').map((s) => `${s.step_id}@${s.role}`)).toEqual(['stop-old@head', 'pull@head', 'pull@worker']);
      expect(head.commands).not.toContain('systemctl stop old');
      expect(stored.step_rows.find((s) => s.step_id === 'pull')?.guard_satisfied).toBe(true);
      // The guard comes before the confirmation: a destructive step already done is never asked about.
      const asked: string[] = [];
      const controller = new ReplayController('run_b2');
      controller.subscribe((event) => {
        if (event.type === 'confirm') {
          asked.push(event.target.stepId);
          controller.confirm(event.target.stepId, false);
        }
      });
      const { status } = await run(db, 'run_b2', [freshMachine('head', { '! systemctl': done, 'docker image inspect': done }), freshMachine('worker', { 'docker image inspect': done })], { controller, autoConfirm: false });
      expect(asked).toEqual([]);
      expect(status).toBe('ok');
      expect((await loadRun(db, 'run_b2')).step_rows.find((s) => s.step_id === 'stop-old')).toMatchObject({ status: 'guarded' });
    });
  });

  it('stops at a failure, never retries a lost connection, and a resume runs only what is left', async () => {
    await withDatabase(tempDbPath(dir), {}, async (db) => {
      const head = freshMachine('head');
      const worker = freshMachine('worker', { 'hf download': () => ({ kind: 'lost', reason: 'Keepalive timeout', output: '' }) as never });
      const first = await run(db, 'run_c', [head, worker]);
      expect(first.status).toBe('failed');
      expect(worker.commands.filter((c) => c.includes('hf download'))).toHaveLength(1);
      let stored = await loadRun(db, 'run_c');
      expect(stored.step_rows.find((s) => s.step_id === 'download' && s.role === 'worker')).toMatchObject({ status: 'unknown', verdict: 'unknown', detail: 'connection lost: Keepalive timeout' });
      // The head's health check waits for nothing the worker alone does: it ran; the worker stopped.
      expect(stored.step_rows.filter((s) => s.step_id === 'health').map((s) => `${s.role}:${s.status}`)).toEqual(['head:ok']);

      const resume = resumeStateOf('run_c', stored.step_rows, tinyPlan(), { image: 'repo/image:tag' });
      const head2 = freshMachine('head');
      const worker2 = freshMachine('worker');
      const second = await run(db, 'run_c', [head2, worker2], { resumed: true, done: resume.done, attempts: resume.attempts });
      expect(second.status).toBe('ok');
      expect(head2.commands.some((c) => c.includes('docker pull'))).toBe(false);
      expect(worker2.commands).toEqual(['HF_TOKEN=${HF_TOKEN} hf download m']);
      expect(head2.commands).toEqual([]);
      stored = await loadRun(db, 'run_c');
      expect(stored.status).toBe('ok');
      expect(stored.step_rows.find((s) => s.step_id === 'download' && s.role === 'worker')).toMatchObject({ attempt: 2, status: 'ok' });
      expect(Number(await db.scalar(`SELECT count(*) FROM run_steps WHERE run_id = 'run_c'`))).toBe(7);
    });
  });

  it('asks before a destructive step; a declined step is skipped, an abort interrupts the running step', async () => {
    await withDatabase(tempDbPath(dir), {}, async (db) => {
      const controller = new ReplayController('run_d');
      controller.subscribe((event) => {
        if (event.type === 'confirm') controller.confirm(event.target.stepId, false);
        if (event.type === 'step-started' && event.target.stepId === 'download') setTimeout(() => controller.abort(), 20);
      });
      const slow = (role: string) =>
        new ScriptedExecutor(role, (command, options) => {
          if (!command.includes('hf download')) return freshMachine(role).run(command, options);
          if (options.signal?.aborted) return { kind: 'interrupted', output: '' };
          return new Promise((resolve) => options.signal?.addEventListener('abort', () => resolve({ kind: 'interrupted', output: 'partial' })));
        });
      const head = slow('head');
      const { status, events } = await run(db, 'run_d', [head, slow('worker')], { controller, autoConfirm: false });
      expect(status).toBe('aborted');
      expect(head.commands).not.toContain('systemctl stop old');
      const stored = await loadRun(db, 'run_d');
      expect(stored.status).toBe('aborted');
      expect(stored.step_rows.find((s) => s.step_id === 'stop-old')).toMatchObject({ status: 'skipped', detail: 'declined at the confirmation' });
      expect(stored.step_rows.filter((s) => s.step_id === 'download').map((s) => s.status)).toEqual(['interrupted', 'interrupted']);
      expect(events.at(-1)).toEqual({ type: 'run-finished', runId: 'run_d', status: 'aborted', diverged: 0 });
    });
  });

  it('pauses before the next step and holds on a failure until retried', async () => {
    await withDatabase(tempDbPath(dir), {}, async (db) => {
      const controller = new ReplayController('run_e');
      let pullFailures = 1;
      const worker = freshMachine('worker', { 'docker pull': () => (pullFailures-- > 0 ? exited(1, 'net/http: TLS handshake timeout') : exited(0, DIGEST)) });
      const seen: string[] = [];
      controller.subscribe((event) => {
        seen.push(event.type);
        if (event.type === 'step-finished' && event.result.stepId === 'stop-old') controller.pause();
        if (event.type === 'paused' && seen.filter((t) => t === 'paused').length === 1) setTimeout(() => controller.resume(), 30);
        if (event.type === 'paused' && seen.filter((t) => t === 'paused').length === 2) setTimeout(() => controller.retry('pull'), 30);
      });
      const { status } = await run(db, 'run_e', [freshMachine('head'), worker], { controller, holdOnFailure: true });
      expect(status).toBe('ok');
      expect(seen.filter((t) => t === 'paused')).toHaveLength(2);
      const attempts = await db.all(`SELECT attempt, status, verdict FROM run_steps WHERE run_id = 'run_e' AND step_id = 'pull' AND role = 'worker' ORDER BY attempt`);
      expect(attempts).toEqual([
        { attempt: 1, status: 'failed', verdict: 'diverged' },
        { attempt: 2, status: 'ok', verdict: 'same' },
      ]);
      expect((await loadRun(db, 'run_e')).diverged).toBe(0);
    });
  });
});
