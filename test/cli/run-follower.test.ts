import { describe, expect, it } from 'vitest';
import { followEvents, initialFollowState, type RunSnapshot } from '../../src/cli/run-follower.js';
import { runningOutputOf } from '../../src/core/run/running-output.js';
import { tinyPlan } from '../replay/helpers/plans.js';

/** What `retrace tui --run ID` makes of a running run's rows, read again and again (issue 17.7). */
type Row = RunSnapshot['run']['step_rows'][number];
const plan = tinyPlan();
const HEAD = 'u@127.0.0.2:1';

function row(stepId: string, overrides: Partial<Row> = {}): Row {
  return {
    step_id: stepId, role: 'head', host: HEAD, attempt: 1, command: `run ${stepId}`, destructive: false, status: 'running', exit_code: null,
    started_at: '2026-02-26T14:00:00.000Z', ended_at: null, duration_ms: null, output: null, verdict: null, detail: null, ...overrides,
  };
}

function snapshot(rows: Row[], status = 'running', waiting: string | null = null): RunSnapshot {
  return {
    run: { id: 'run_w', mode: 'live', status: status as RunSnapshot['run']['status'], plan_json: JSON.stringify(plan), hosts: { head: [HEAD], worker: ['u@127.0.0.3:1'] }, step_from: null, step_to: null, diverged: 0, step_rows: rows },
    waiting,
  };
}

describe('following a run from its rows', () => {
  it('starts with every planned host, then shows a step go running → ok with only the new output each time', () => {
    const state = initialFollowState();
    const first = plan.steps[0]?.id ?? '';
    const opening = followEvents(state, snapshot([row(first, { output: 'one\n' })]));
    expect(opening[0]).toMatchObject({ type: 'run-started', runId: 'run_w' });
    const started = opening[0]?.type === 'run-started' ? opening[0].steps : [];
    expect(started.length).toBe(plan.steps.reduce((sum, step) => sum + step.roles.length, 0));
    expect(opening.slice(1).map((event) => event.type)).toEqual(['step-started', 'output']);

    // The record keeps the end of the output, saying how much came before: only what is new is shown.
    const grown = followEvents(state, snapshot([row(first, { output: runningOutputOf('two\nthree\n', 4) })]));
    expect(grown).toEqual([{ type: 'output', target: { stepId: first, role: 'head', host: HEAD }, stream: 'stdout', chunk: 'two\nthree\n' }]);
    expect(followEvents(state, snapshot([row(first, { output: runningOutputOf('two\nthree\n', 4) })]))).toEqual([]);

    const done = followEvents(state, snapshot([row(first, { status: 'ok', exit_code: 0, output: 'one\ntwo\nthree\nfour\n', ended_at: '2026-02-26T14:00:02.000Z', duration_ms: 2000, verdict: 'same' })], 'ok'));
    expect(done.map((event) => event.type)).toEqual(['output', 'step-finished', 'run-finished']);
    expect(done[0]).toMatchObject({ chunk: 'four\n' });
    expect(done[1]).toMatchObject({ result: { status: 'ok', exitCode: 0, durationMs: 2000, verdict: 'same' } });
    expect(done[2]).toMatchObject({ status: 'ok' });
    expect(followEvents(state, snapshot([], 'ok'))).toEqual([]);
  });

  it('says what the run waits for: a confirmation, then a failure it holds on, then going on', () => {
    const state = initialFollowState();
    const target = { stepId: 'pull', role: 'head', host: HEAD };
    followEvents(state, snapshot([]));
    expect(followEvents(state, snapshot([], 'running', JSON.stringify({ kind: 'confirm', target, command: 'rm -rf x' })))).toEqual([{ type: 'confirm', target, command: 'rm -rf x' }]);
    const held = followEvents(state, snapshot([], 'running', JSON.stringify({ kind: 'failure', targets: [target] })));
    expect(held).toEqual([{ type: 'confirmed', target, approved: true }, { type: 'paused', failed: [target] }]);
    expect(followEvents(state, snapshot([], 'running', null))).toEqual([{ type: 'resumed' }]);
  });

  it('a new attempt of a step starts its row again; a run whose process died ends as interrupted', () => {
    const state = initialFollowState();
    followEvents(state, snapshot([row('pull', { status: 'failed', exit_code: 1, output: 'no\n' })]));
    const retried = followEvents(state, snapshot([row('pull', { attempt: 2, output: 'yes\n' })]));
    expect(retried.map((event) => event.type)).toEqual(['step-started', 'output']);
    expect(followEvents(state, snapshot([row('pull', { attempt: 2, output: 'yes\n' })], 'abandoned')).at(-1)).toMatchObject({ type: 'run-finished', status: 'interrupted' });
  });
});
