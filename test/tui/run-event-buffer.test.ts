import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/core/run/events.js';
import { RunEventBuffer } from '../../src/tui/run-event-buffer.js';
import { FakeRunController, runStarted, target } from './fake-run-controller.js';

describe('RunEventBuffer', () => {
  it('gives a late subscriber what it missed, in order, then the live events', () => {
    const buffer = new RunEventBuffer();
    const controller = new FakeRunController();
    controller.subscribe(buffer.listener);
    controller.emit(runStarted(), { type: 'step-started', target: target('stop-glm'), command: 'true', destructive: false });
    const seen: string[] = [];
    const watched = buffer.attach(controller);
    watched.subscribe((event) => seen.push(event.type));
    controller.emit({ type: 'paused' });
    expect(seen).toEqual(['run-started', 'step-started', 'paused']);
    watched.skip('health');
    watched.confirm('stop-glm', true);
    expect(controller.controls).toEqual(['skip health', 'confirm stop-glm yes']);
    expect(watched.runId).toBe('run_live_test');
  });

  it('keeps only a tail of a step that prints without end', () => {
    const buffer = new RunEventBuffer();
    const chunk = 'x'.repeat(64 * 1024);
    const output = (stepId: string): RunEvent => ({ type: 'output', target: target(stepId), stream: 'stdout', chunk });
    buffer.listener(runStarted());
    for (let i = 0; i < 20; i += 1) buffer.listener(output('pull-image'));
    buffer.listener(output('health'));
    const kept = buffer.held.filter((event) => event.type === 'output' && event.target.stepId === 'pull-image');
    expect(kept.length).toBeLessThanOrEqual(4);
    expect(buffer.held[0]?.type).toBe('run-started');
    expect(buffer.held.at(-1)).toMatchObject({ type: 'output', target: { stepId: 'health' } });
  });

  it('names the steps still running (what a stop waits for) and passes interrupt on', () => {
    const buffer = new RunEventBuffer();
    const controller = new FakeRunController();
    controller.subscribe(buffer.listener);
    controller.emit(runStarted(), { type: 'step-started', target: target('pull-image'), command: 'docker pull x', destructive: false });
    controller.emit({ type: 'step-started', target: target('pull-image', 'worker'), command: 'docker pull x', destructive: false });
    controller.emit({ type: 'step-finished', result: { ...target('pull-image'), status: 'ok', exitCode: 0, startedAt: 0, endedAt: 1, durationMs: 1, verdict: 'same', detail: null } });
    expect(buffer.running()).toEqual(['pull-image on aurora@127.0.0.3:2222']);
    buffer.attach(controller).interrupt();
    expect(controller.controls).toEqual(['interrupt']);
  });
});
