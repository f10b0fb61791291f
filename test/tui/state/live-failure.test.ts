import { describe, expect, it } from 'vitest';
import type { RunEvent, StepTarget } from '../../../src/core/run/events.js';
import { heldStep, initialLiveRun, liveRunReducer, selectedLiveStep, skipRequest, type LiveRunState } from '../../../src/tui/state/live-run-reducer.js';
import { failurePanel } from '../../../src/tui/screens/live-run-rows.js';
import { target } from '../fake-run-controller.js';

/** The live run's reducer when the run holds on a failure (17.5), without Ink. */
const A: StepTarget = { stepId: 'pull', role: 'worker', host: 'u@10.9.0.1:22' };
const B: StepTarget = { stepId: 'pull', role: 'worker', host: 'u@10.9.0.2:22' };
const HEALTH = target('health');

function apply(state: LiveRunState, ...events: RunEvent[]): LiveRunState {
  return liveRunReducer(state, { type: 'events', events, now: 0 });
}

const failed = (t: StepTarget, output = ''): RunEvent[] => [
  { type: 'step-started', target: t, command: 'docker pull x', destructive: false },
  ...(output ? [{ type: 'output' as const, target: t, stream: 'stderr' as const, chunk: output }] : []),
  { type: 'step-finished', result: { ...t, status: 'failed', exitCode: 1, startedAt: 0, endedAt: 1, durationMs: 1, verdict: 'diverged', detail: 'exit 1 where the record had 0' } },
];

const text = (lines: { text: string }[][]) => lines.map((line) => line.map((part) => part.text).join(''));

describe('a live run held on a failure', () => {
  const start: RunEvent = { type: 'run-started', runId: 'run_x', mode: 'live', steps: [HEALTH, A, B] };

  it('moves the cursor to the failure, and acts on it from any row', () => {
    let state = apply(initialLiveRun(10), start, ...failed(A, 'one\ntwo\nTLS handshake timeout\n'), { type: 'paused', failed: [A] });
    expect(state.held).toEqual([A]);
    expect(selectedLiveStep(state)?.host).toBe(A.host);
    state = liveRunReducer(state, { type: 'move', how: 'top' });
    expect(selectedLiveStep(state)?.stepId).toBe('health');
    expect(heldStep(state)?.host).toBe(A.host);
    state = apply(state, { type: 'resumed' });
    expect(state.held).toEqual([]);
    expect(heldStep(state)).toBeUndefined();
  });

  it('skips on the one host when only one can still be skipped, else asks this host / all hosts', () => {
    const one = apply(initialLiveRun(10), start, ...failed(A));
    expect(skipRequest(one, one.steps[1]!)).toEqual({ kind: 'refuse', note: 'pull is failed: too late to skip it' });
    const heldOne = apply(one, { type: 'step-started', target: B, command: 'docker pull x', destructive: false }, { type: 'step-finished', result: { ...B, status: 'ok', exitCode: 0, startedAt: 0, endedAt: 1, durationMs: 1, verdict: 'same', detail: null } }, { type: 'paused', failed: [A] });
    expect(skipRequest(heldOne, heldOne.steps[1]!)).toEqual({ kind: 'skip', stepId: 'pull', on: { role: 'worker', host: A.host } });
    const heldTwo = apply(initialLiveRun(10), start, ...failed(A), ...failed(B), { type: 'paused', failed: [A, B] });
    expect(skipRequest(heldTwo, heldTwo.steps[2]!)).toEqual({ kind: 'ask', stepId: 'pull', on: { role: 'worker', host: B.host }, hosts: 2 });
    const pending = apply(initialLiveRun(10), start);
    expect(skipRequest(pending, pending.steps[1]!)).toMatchObject({ kind: 'ask', hosts: 2 });
    expect(skipRequest(pending, pending.steps[0]!)).toMatchObject({ kind: 'skip', stepId: 'health' });
  });

  it('draws the panel: step, whole host, detail, the last lines that fit, other failed hosts, and the keys last', () => {
    const output = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    // B failed last, so the cursor (following the running step) is on B: the panel is B's.
    const state = apply(initialLiveRun(10), start, ...failed(A), ...failed(B, output), { type: 'paused', failed: [A, B] });
    const lines = text(failurePanel(state, 60, 9));
    expect(lines).toHaveLength(9);
    expect(lines[0]).toBe(' ✗ pull failed on worker u@10.9.0.2:22 (exit 1)');
    expect(lines[1]).toContain('also failed: pull on worker u@10.9.0.1:22');
    expect(lines[2]).toBe(' exit 1 where the record had 0');
    expect(lines[3]).toBe(' last 4 of 30 output lines:');
    expect(lines.slice(4, 8)).toEqual([' │ line 27', ' │ line 28', ' │ line 29', ' │ line 30']);
    expect(lines[8]).toContain('r retry · s skip this step and go on · q abort');
    expect(text(failurePanel(state, 60, 2)).at(-1)).toContain('r retry');
  });

  it('shows what a resumed run finished before as finished', () => {
    const state = apply(initialLiveRun(10), { ...start, earlier: [{ target: HEALTH, status: 'guarded' }] });
    expect(state.steps.map((step) => step.status)).toEqual(['guarded', 'pending', 'pending']);
  });
});
