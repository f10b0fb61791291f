import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { StepFinish, StepStart } from '../../src/core/run/record.js';
import { parseRunningOutput } from '../../src/core/run/running-output.js';
import { Database } from '../../src/store/database.js';
import { loadRun } from '../../src/store/run-queries.js';
import { StoreRunRecorder } from '../../src/store/run-recorder.js';
import { leaseStore } from '../../src/store/store-lease.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { header } from '../replay/helpers/plans.js';

/**
 * The run recorder opens the store only for each write (issue 17.7), so another process can read
 * a live run meanwhile. Here a second process reads the store over and over (as `retrace tui
 * --run ID` does) while the recorder writes a run: every record lands, none twice, the reader sees
 * the run grow, and a write that found the store held said who held it.
 */
const dir = tempDir('retrace-recorder-shared-');
const STEPS = 12;

/** A reader in another process: opens read-only, counts the run's finished steps, holds a moment, lets go; prints each count. */
function startReader(path: string): ChildProcess {
  const script = `
    import { DuckDBInstance } from '@duckdb/node-api';
    for (;;) {
      try {
        const instance = await DuckDBInstance.create(${JSON.stringify(path)}, { access_mode: 'READ_ONLY' });
        const connection = await instance.connect();
        const reader = await connection.runAndReadAll("SELECT count(*) AS n FROM run_steps WHERE status <> 'running'");
        process.stdout.write(String(reader.getRowObjectsJS()[0].n) + '\\n');
        await new Promise((resolve) => setTimeout(resolve, 250));
        connection.closeSync();
        instance.closeSync();
      } catch (error) {
        if (!/lock/i.test(String(error))) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 60));
    }`;
  return spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
}

let reader: ChildProcess | null = null;
afterEach(() => {
  reader?.kill();
  reader = null;
});

function step(index: number): StepStart {
  return { runId: 'run_shared', stepId: `step-${index}`, stepIndex: index, description: `step ${index}`, role: 'head', host: 'u@127.0.0.2:22', attempt: 1, command: `echo ${index}`, guard: null, destructive: false, startedAt: 1_000 + index * 10 };
}

describe('the run recorder beside a reader in another process', () => {
  it('records every step whole while the reader keeps opening the store, and names the holder when it waits', async () => {
    const path = tempDbPath(dir);
    await (await Database.open(path)).close();
    const counts: number[] = [];
    reader = startReader(path);
    const child = reader;
    child.stdout?.on('data', (data: Buffer) => counts.push(...data.toString().trim().split('\n').map(Number)));
    await expect.poll(() => counts.length, { timeout: 30_000 }).toBeGreaterThan(0);

    const waits: string[] = [];
    // A short wait per open, so some opens meet the reader and are tried again.
    const store = leaseStore(() => Database.open(path, { lockWaitMs: 50 }), { idleMs: 20, waitMs: 0 });
    const recorder = new StoreRunRecorder(store, { onWait: (message) => void (message && waits.push(message)), outputFlushMs: 100, retryMs: 50 });
    await recorder.runStarted(header('run_shared'));
    for (let index = 0; index < STEPS; index += 1) {
      const start = step(index);
      await recorder.stepStarted(start);
      for (let line = 0; line < 3; line += 1) recorder.noteEvent('run_shared', { type: 'output', target: start, stream: 'stdout', chunk: `line ${line} of ${index}\n` });
      if (index === 0) {
        // The running step's output reaches the store before its end, for a watcher to show.
        await recorder.settled();
        const running = await store.use((db) => loadRun(db, 'run_shared'));
        expect(running.step_rows[0]?.status).toBe('running');
        expect(parseRunningOutput(running.step_rows[0]?.output ?? '').tail).toBe('line 0 of 0\nline 1 of 0\nline 2 of 0\n');
      }
      // The step's command runs meanwhile (the store is let go while it does).
      await new Promise((resolve) => setTimeout(resolve, 200));
      const finish: StepFinish = { ...start, status: 'ok', exitCode: 0, timedOut: false, guardSatisfied: null, endedAt: start.startedAt + 5, output: `line 0 of ${index}\nline 1 of ${index}\nline 2 of ${index}\n`, verdict: 'same', detail: null };
      await recorder.stepFinished(finish);
    }
    await recorder.runFinished('run_shared', 'ok', 9_000);
    await recorder.settled();
    const seenWhileRunning = [...counts];
    child.kill();
    reader = null;
    // The lease closes its store asynchronously: the read-only open below must come after it.
    await store.close();

    const db = await Database.open(path, { readOnly: true });
    try {
      const run = await loadRun(db, 'run_shared');
      expect(run.status).toBe('ok');
      expect(run.step_rows.map((row) => [row.step_id, row.status, row.output])).toEqual(
        Array.from({ length: STEPS }, (_, index) => [`step-${index}`, 'ok', `line 0 of ${index}\nline 1 of ${index}\nline 2 of ${index}\n`]),
      );
      expect(Number(await db.scalar(`SELECT count(*) FROM run_steps WHERE run_id = 'run_shared'`))).toBe(STEPS);
      expect(Number(await db.scalar(`SELECT count(*) FROM tool_calls WHERE session_id = 'run_shared'`))).toBe(STEPS);
    } finally {
      await db.close();
    }
    // The reader read between the writes and saw the run part-way.
    expect(seenWhileRunning.some((count) => count > 0 && count < STEPS)).toBe(true);
    // Some writes met the reader's hold, waited, and said whose it was.
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]).toContain(`PID ${child.pid}`);
  }, 120_000);
});
