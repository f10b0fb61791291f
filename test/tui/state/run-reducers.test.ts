import { describe, expect, it } from 'vitest';
import { compareReducer, initialCompare, selectedStep } from '../../../src/tui/state/compare-reducer.js';
import { canRetry, canSkip, initialLiveRun, liveRunReducer, OUTPUT_KEEP, selectedLiveStep, type LiveRunState } from '../../../src/tui/state/live-run-reducer.js';
import { initialRuns, runsReducer, selectedRun } from '../../../src/tui/state/runs-reducer.js';
import { initialTimings, selectedTimingLine, timingFilters, timingLines, timingsReducer } from '../../../src/tui/state/timings-reducer.js';
import type { RunEvent } from '../../../src/core/run/events.js';
import { runStarted, target } from '../fake-run-controller.js';
import { RUN_STEPS, RUNS, TIMINGS } from '../fake-session.js';

describe('timings reducer', () => {
  it('groups attempts at the same thing, on one scale', () => {
    const lines = timingLines(TIMINGS, 'all');
    expect(lines.map((line) => (line.kind === 'group' ? `${line.label} ${line.subject} ×${line.attempts} ${line.outcome}` : `  #${line.row.attempt}`))).toEqual([
      'pull lmsysorg/sglang:spark ×2 ok', '  #1', '  #2',
      'pull scitrera/dgx-spark-sglang:0.5.10rc0 ×1 ok', '  #1',
      'download Qwen/Qwen3.5-122B-A10B-FP8 ×1 ok', '  #1',
      'probe scitrera/dgx-spark-sglang:0.5.10rc0 ×1 negative', '  #1',
    ]);
    expect(lines[0]).toMatchObject({ totalMs: 120314 + 251627 });
    expect(new Set(lines.flatMap((line) => (line.kind === 'attempt' ? [line.maxMs] : [])))).toEqual(new Set([1797418]));
  });

  it('cycles the kind filter with f and starts again at the top', () => {
    expect(timingFilters(TIMINGS)).toEqual(['all', 'download', 'probe', 'pull']);
    let state = timingsReducer(initialTimings(10), { type: 'loaded', rows: TIMINGS });
    state = timingsReducer(timingsReducer(state, { type: 'move', how: 'bottom' }), { type: 'next-filter' });
    expect(state.filter).toBe('download');
    expect(state.list).toMatchObject({ total: 2, cursor: 0 });
    for (let i = 0; i < 3; i += 1) state = timingsReducer(state, { type: 'next-filter' });
    expect(state.filter).toBe('all');
    expect(selectedTimingLine(state)).toMatchObject({ kind: 'group', subject: 'lmsysorg/sglang:spark' });
  });
});

describe('runs and compare reducers', () => {
  it('selects a run', () => {
    const state = runsReducer(runsReducer(initialRuns(5), { type: 'loaded', runs: RUNS }), { type: 'move', how: 'down' });
    expect(selectedRun(state)?.mode).toBe('dry');
  });

  it('shows only the diverged steps on request', () => {
    let state = compareReducer(initialCompare(5), { type: 'loaded', steps: RUN_STEPS });
    expect(state.list.total).toBe(4);
    state = compareReducer(state, { type: 'toggle-diverged' });
    expect(state.shown.map((step) => step.step_id)).toEqual(['probe-image']);
    expect(selectedStep(state)?.detail).toBe('transformers 5.3.0 where the record had 5.2.0');
    expect(compareReducer(state, { type: 'toggle-diverged' }).list.total).toBe(4);
  });
});

describe('live run reducer', () => {
  const events = (state: LiveRunState, ...list: RunEvent[]) => liveRunReducer(state, { type: 'events', events: list, now: 1_000 });
  const started = events(initialLiveRun(5), runStarted());

  it('shows each host of a fleet as its own row', () => {
    const fleet = [1, 2, 3].map((n) => ({ stepId: 'pull-image', role: 'worker', host: `aurora@127.0.0.${n + 2}:22` }));
    let state = events(initialLiveRun(5), { type: 'run-started', runId: 'run_fleet', mode: 'live', steps: fleet });
    state = events(state, { type: 'step-started', target: fleet[1]!, command: 'docker pull x', destructive: false }, { type: 'output', target: fleet[1]!, stream: 'stdout', chunk: 'Digest: sha256:abc\n' });
    state = events(state, { type: 'step-finished', result: { ...fleet[2]!, status: 'failed', exitCode: 127, startedAt: 0, endedAt: 1, durationMs: 1, verdict: 'diverged', detail: 'docker: command not found' } });
    expect(state.steps.map((step) => `${step.host} ${step.status} ${step.output.join('|')}`)).toEqual([
      'aurora@127.0.0.3:22 pending ',
      'aurora@127.0.0.4:22 running Digest: sha256:abc',
      'aurora@127.0.0.5:22 failed ',
    ]);
  });

  it('takes the steps from run-started and follows the running step', () => {
    expect(started.steps.map((step) => `${step.stepId} ${step.status}`)).toEqual(['stop-glm pending', 'pull-image pending', 'probe-image pending', 'health pending']);
    const running = events(started, { type: 'step-started', target: target('probe-image'), command: 'docker run …', destructive: false });
    expect(selectedLiveStep(running)).toMatchObject({ stepId: 'probe-image', status: 'running', command: 'docker run …', startedAt: 1_000 });
  });

  it('stops following once the user moves, and follows again on request', () => {
    const moved = liveRunReducer(started, { type: 'move', how: 'down' });
    expect(moved.follow).toBe(false);
    const running = events(moved, { type: 'step-started', target: target('health'), command: 'curl', destructive: false });
    expect(selectedLiveStep(running)?.stepId).toBe('pull-image');
    expect(selectedLiveStep(liveRunReducer(running, { type: 'follow' }))?.stepId).toBe('health');
  });

  it('joins output chunks into lines and keeps only a tail', () => {
    let state = events(started, { type: 'output', target: target('stop-glm'), stream: 'stdout', chunk: 'a\nb' }, { type: 'output', target: target('stop-glm'), stream: 'stdout', chunk: 'c\n' });
    expect(state.steps[0]).toMatchObject({ output: ['a', 'bc'], partial: '', outputLines: 2 });
    const flood = Array.from({ length: OUTPUT_KEEP + 50 }, (_, i) => `line ${i}`).join('\n');
    state = events(state, { type: 'output', target: target('stop-glm'), stream: 'stdout', chunk: `${flood}\n` });
    expect(state.steps[0]?.output).toHaveLength(OUTPUT_KEEP);
    expect(state.steps[0]?.output.at(-1)).toBe(`line ${OUTPUT_KEEP + 49}`);
    expect(state.steps[0]?.outputLines).toBe(OUTPUT_KEEP + 52);
  });

  it('records results, pauses, a confirmation and the end of the run', () => {
    let state = events(started, { type: 'confirm', target: target('stop-glm'), command: 'systemctl stop x' });
    expect(state.confirm).toEqual({ stepId: 'stop-glm', host: 'aurora@127.0.0.2:2222', command: 'systemctl stop x' });
    state = events(state, { type: 'step-finished', result: { ...target('stop-glm'), status: 'skipped', exitCode: null, startedAt: 0, endedAt: 0, durationMs: 0, verdict: null, detail: null } });
    expect(state.confirm).toBeNull();
    state = liveRunReducer(state, { type: 'pause-requested' });
    expect(state.pauseRequested).toBe(true);
    state = events(state, { type: 'paused' });
    expect(state).toMatchObject({ paused: true, pauseRequested: false });
    state = events(state, { type: 'run-finished', runId: 'run_live_test', status: 'aborted', diverged: 0 });
    expect(state).toMatchObject({ finished: { status: 'aborted', diverged: 0 }, paused: false });
    expect(liveRunReducer(state, { type: 'ask-abort' }).askingAbort).toBe(false);
  });

  it('allows skipping only steps not started, retrying only failed ones', () => {
    const failed = events(started, { type: 'step-finished', result: { ...target('stop-glm'), status: 'timeout', exitCode: null, startedAt: 0, endedAt: 1, durationMs: 1, verdict: 'diverged', detail: 'timed out' } });
    const [first, second] = failed.steps;
    expect(first && canSkip(failed, first)).toBe(false);
    expect(first && canRetry(failed, first)).toBe(true);
    expect(second && canSkip(failed, second)).toBe(true);
    expect(second && canRetry(failed, second)).toBe(false);
  });
});

describe('a step on two hosts', () => {
  it('is two rows, each updated on its own', () => {
    const twoRoles: RunEvent = { type: 'run-started', runId: 'r', mode: 'live', steps: [target('pull', 'head'), target('pull', 'worker')] };
    let state = liveRunReducer(initialLiveRun(5), { type: 'events', events: [twoRoles], now: 0 });
    state = liveRunReducer(state, { type: 'events', now: 0, events: [{ type: 'step-finished', result: { ...target('pull', 'worker'), status: 'ok', exitCode: 0, startedAt: 0, endedAt: 1, durationMs: 1, verdict: 'same', detail: null } }] });
    expect(state.steps.map((step) => `${step.stepId}@${step.role} ${step.status}`)).toEqual(['pull@head pending', 'pull@worker ok']);
  });
});
