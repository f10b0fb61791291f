import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMPARED_OUTPUT_CHARS, runStepRows } from '../../src/cli/tui-run-services.js';
import { recordedCallOf } from '../../src/core/plan/schema.js';
import { exportSessionParquet } from '../../src/query/export-parquet.js';
import { ReplayController } from '../../src/replay/run/controller.js';
import { runPlan } from '../../src/replay/run/runner.js';
import { planFromStore } from '../../src/replay/plan/load.js';
import { planValues } from '../../src/replay/plan/render.js';
import { Database } from '../../src/store/database.js';
import { recordedCalls } from '../../src/store/view-queries.js';
import { StoreRunRecorder } from '../../src/store/runs.js';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { exited, header, ScriptedExecutor } from './helpers/plans.js';

// Records stay honest: a run is compared with each host's own recorded step, an imported run log
// never merges into another run, and the Parquet export of a session carries its runs.
const dir = tempDir('retrace-honest-');
const dbPath = tempDbPath(dir);
const SESSION = 'ses_365d176c7ffeX5TaQTV86dNCf0';
const RUN = 'run_20260301-100000_abcd';

beforeAll(async () => {
  await ingestPaths(dbPath, [SESSIONS_DIR]);
  const db = await Database.open(dbPath);
  try {
    const { plan } = await planFromStore(db, SESSION);
    const answer = (command: string) => exited(0, /docker pull/.test(command) ? `Digest: sha256:${'b'.repeat(64)}` : 'ok');
    const executors = new Map(Object.keys(plan.roles).map((role) => [role, [new ScriptedExecutor(role, answer)]]));
    await runPlan({
      header: header(RUN, { sessionId: SESSION, planJson: JSON.stringify(plan) }),
      plan, controller: new ReplayController(RUN), executors, values: planValues(plan), secrets: {},
      range: { first: 2, last: 2 }, done: new Set(), attempts: new Map(), autoConfirm: true, holdOnFailure: false, recorder: new StoreRunRecorder(db), resumed: false,
    });
  } finally {
    db.close();
  }
});

describe('records stay honest', () => {
  it('compares each host with its own recorded step: the worker\'s pull with the worker\'s', async () => {
    const { rows, own } = await queryStore(dbPath, async (db) => {
      const { plan } = await planFromStore(db, SESSION);
      const pull = plan.steps.find((step) => step.id === 'pull-image');
      if (!pull) throw new Error('no pull step');
      const ids = { head: recordedCallOf(pull, 'head').call_id ?? '', worker: recordedCallOf(pull, 'worker').call_id ?? '' };
      const calls = await recordedCalls(db, SESSION, [ids.head, ids.worker], 600, COMPARED_OUTPUT_CHARS);
      return { rows: await runStepRows(db, RUN), own: { ids, head: calls.get(ids.head), worker: calls.get(ids.worker) } };
    });
    expect(own.ids.head).not.toBe(own.ids.worker);
    expect(rows.map((r) => r.role)).toEqual(['head', 'worker']);
    expect(rows[0]?.recorded).toEqual(own.head);
    expect(rows[1]?.recorded).toEqual(own.worker);
    expect(rows[1]?.recorded).not.toEqual(rows[0]?.recorded);
    // Run vs record sets each host's output beside its own recorded output (17.6).
    expect(rows[0]?.recorded?.output).toBeTruthy();
    expect(rows[0]?.recorded?.call_id).toBe(own.ids.head);
    // Here the guard found the image: the step was skipped, its output is empty (not missing).
    expect(rows.map((r) => `${r.status}:${JSON.stringify(r.output)}`)).toEqual(['guarded:""', 'guarded:""']);
  });

  it('never merges two runs: a run log whose id the store holds from elsewhere is refused, saying so', async () => {
    const line = (value: object): string => `${JSON.stringify(value)}\n`;
    const start = { type: 'run-started', format: 'retrace-runlog', version: 1, role: 'head', host: 'h', user: 'u', started_at: 1_772_000_000_000, plan: null };
    const steps = [
      line({ type: 'step-started', step_id: 'pull-image', step_index: 2, command: 'docker pull x', started_at: 1_772_000_000_100 }),
      line({ type: 'step-finished', step_id: 'pull-image', exit_code: 0, ended_at: 1_772_000_000_200, output: 'ok' }),
    ];
    const clash = join(dir, 'clash.jsonl');
    writeFileSync(clash, line({ ...start, run_id: RUN }) + steps.join(''));
    const refused = await ingestPaths(dbPath, [clash]);
    // (The hand-written log carries no plan: that much is only a warning.)
    const notIngested = (summary: { errors: { message: string }[] }): string[] => summary.errors.map((e) => e.message).filter((m) => m.startsWith('not ingested'));
    expect(notIngested(refused)).toEqual([expect.stringContaining(`run ${RUN} is already in the store (from a replay of this machine); two runs are never merged`)]);
    const kept = await queryStore(dbPath, (db) => db.all(`SELECT count(*) AS n FROM run_steps WHERE run_id = ?`, [RUN]));
    expect(Number(kept[0]?.['n'])).toBe(2);

    // Its own log read again (it grew) replaces its earlier import; a copy under another name is refused.
    const own = join(dir, 'own.jsonl');
    writeFileSync(own, line({ ...start, run_id: 'run_sh_1' }) + steps[0]);
    expect(notIngested(await ingestPaths(dbPath, [own]))).toEqual([]);
    appendFileSync(own, steps[1] + line({ type: 'run-finished', status: 'ok', ended_at: 1_772_000_000_300 }));
    expect(notIngested(await ingestPaths(dbPath, [own]))).toEqual([]);
    const status = await queryStore(dbPath, (db) => db.all(`SELECT status, origin FROM runs WHERE id = 'run_sh_1'`));
    expect(status).toEqual([{ status: 'ok', origin: `runlog:${own}` }]);
    const copy = join(dir, 'copy.jsonl');
    writeFileSync(copy, line({ ...start, run_id: 'run_sh_1' }) + steps.join(''));
    expect(notIngested(await ingestPaths(dbPath, [copy]))[0]).toContain(`from the run log ${own}`);
  });

  it('exports runs and run_steps with the session they replayed, to Parquet', async () => {
    const counts = await queryStore(dbPath, async (db) => {
      const files = await exportSessionParquet(db, SESSION, join(dir, 'parquet'));
      const runs = files.find((f) => f.table === 'runs');
      const steps = files.find((f) => f.table === 'run_steps');
      const read = Number(await db.scalar(`SELECT count(*) FROM '${steps?.path ?? ''}'`));
      return { runs: runs?.rows, steps: steps?.rows, read };
    });
    expect(counts).toEqual({ runs: 1, steps: 2, read: 2 });
  });
});
