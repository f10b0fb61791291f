import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { fakeServices } from '../fake-services.js';
import { FakeRunController, runStarted, target } from '../fake-run-controller.js';
import { KEYS, renderApp, selectedLine } from '../render-app.js';

afterEach(cleanup);

const BATCH_MS = 80;
const settle = () => new Promise((resolve) => setTimeout(resolve, BATCH_MS));

async function liveApp() {
  const controller = new FakeRunController();
  const app = renderApp(fakeServices({ liveRun: controller }), [{ screen: 'runs' }, { screen: 'live-run' }]);
  await app.waitFor(() => controller.listenerCount > 0, 'the screen to subscribe');
  return { controller, app };
}

describe('Live run screen', () => {
  it('shows every step with its status, following the running one, and streams its output', async () => {
    const { controller, app } = await liveApp();
    controller.emit(runStarted(), { type: 'step-started', target: target('stop-glm'), command: 'sudo systemctl stop vllm-cluster vllm-proxy', destructive: false });
    controller.emit({ type: 'output', target: target('stop-glm'), stream: 'stdout', chunk: 'stopped: vllm-cluster\nstopped: vll' });
    controller.emit({ type: 'output', target: target('stop-glm'), stream: 'stdout', chunk: 'm-proxy\n' });
    const frame = await app.waitForText('stopped: vllm-proxy');
    expect(frame).toContain(' live run · 0/4 steps done');
    expect(selectedLine(frame)).toMatch(/^› ▶ running +stop-glm +head 127\.0\.0\.2:2222 +\d/);
    expect(frame).toMatch(/ {2}· pending +pull-image/);
    expect(frame).toContain(' stop-glm@head $ sudo systemctl stop vllm-cluster vllm-proxy');
    expect(frame).toContain(' stopped: vllm-cluster');
    controller.emit({ type: 'step-finished', result: { ...target('stop-glm'), status: 'ok', exitCode: 0, startedAt: 0, endedAt: 14_000, durationMs: 14_000, verdict: 'same', detail: null } });
    const done = await app.waitForText('1/4 steps done');
    expect(done).toMatch(/✓ ok +stop-glm .* 14s = same/);
  });

  it('pauses with p before the next step, and resumes', async () => {
    const { controller, app } = await liveApp();
    controller.emit(runStarted());
    await settle();
    await app.press('p');
    expect(controller.controls).toEqual(['pause']);
    await app.waitForText('‖ pausing after this step');
    controller.emit({ type: 'paused' });
    await app.waitForText('‖ paused (p resumes)');
    await app.press('p');
    expect(controller.controls).toEqual(['pause', 'resume']);
  });

  it('skips a step that has not started with s, and refuses to skip one that ran', async () => {
    const { controller, app } = await liveApp();
    controller.emit(runStarted(), { type: 'step-started', target: target('stop-glm'), command: 'true', destructive: false });
    await settle();
    await app.press('s');
    expect(controller.controls).toEqual([]);
    await app.waitForText('stop-glm is running: too late to skip it');
    await app.press('j', 's');
    expect(controller.controls).toEqual(['skip pull-image']);
    await app.waitForText('skip asked for pull-image');
  });

  it('retries a failed step with r', async () => {
    const { controller, app } = await liveApp();
    controller.emit(runStarted(), { type: 'step-finished', result: { ...target('stop-glm'), status: 'failed', exitCode: 1, startedAt: 0, endedAt: 10, durationMs: 10, verdict: 'diverged', detail: 'exit 1 where the record had 0' } });
    await app.waitForText('✗ failed');
    await app.press('g', 'r');
    expect(controller.controls).toEqual(['retry stop-glm']);
    expect(app.frame()).toContain('exit 1 where the record had 0');
  });

  it('asks before a destructive step runs, and answers for the user', async () => {
    const { controller, app } = await liveApp();
    controller.emit(runStarted(), { type: 'confirm', target: target('stop-glm'), command: 'sudo systemctl stop vllm-cluster vllm-proxy' });
    const frame = await app.waitForText('Run destructive step stop-glm on aurora@127.0.0.2:2222?');
    expect(frame).toContain('$ sudo systemctl stop vllm-cluster vllm-proxy');
    expect(frame).toContain('y yes · n no · s skip it');
    await app.press('j');
    expect(controller.controls).toEqual([]);
    await app.press('y');
    expect(controller.controls).toEqual(['confirm stop-glm yes']);
    await app.waitForText('stop-glm: confirmed');
    expect(app.frame()).not.toContain('Run destructive step');
  });

  it('takes a y typed the moment the question is drawn, before React has run its effects', async () => {
    // A loaded machine can deschedule the TUI right after it draws a frame; the user (or tmux) sees
    // the question and answers before React's passive effects run. The key must reach the dialog.
    const { controller, app } = await liveApp();
    controller.emit(runStarted());
    await settle();
    const write = app.stdout.write;
    let answered = false;
    app.stdout.write = (frame: string) => {
      write(frame);
      if (!answered && frame.includes('Run destructive step stop-glm')) {
        answered = true;
        // After this frame's commit (and its layout effects), before the effects React schedules.
        queueMicrotask(() => app.stdin.write('y'));
      }
    };
    controller.emit({ type: 'confirm', target: target('stop-glm'), command: 'sudo systemctl stop vllm-cluster vllm-proxy' });
    await app.waitForText('stop-glm: confirmed');
    expect(controller.controls).toEqual(['confirm stop-glm yes']);
  });

  it('aborts with q only after asking', async () => {
    const { controller, app } = await liveApp();
    controller.emit(runStarted());
    await settle();
    await app.press('q');
    await app.waitForText('Abort the run?');
    await app.press('n');
    expect(controller.controls).toEqual([]);
    await app.press('q', 'y');
    expect(controller.controls).toEqual(['abort']);
  });

  it('shows how the run finished and opens run vs record with c', async () => {
    const { controller, app } = await liveApp();
    controller.emit(runStarted(), { type: 'run-finished', runId: 'run_live_test', status: 'failed', diverged: 1 });
    await app.waitForText('finished: failed, 1 diverged · c: vs record');
    await app.press('c');
    await app.waitForText('Run vs record · run_live_test');
    await app.press(KEYS.escape);
    await app.waitForText('finished: failed');
  });

  it('says so when no live run is attached', async () => {
    const app = renderApp(fakeServices(), [{ screen: 'live-run' }]);
    await app.waitForText('No live run is attached');
  });
});
