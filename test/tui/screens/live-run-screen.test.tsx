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
    expect(controller.controls).toEqual(['skip pull-image on head aurora@127.0.0.2:2222']);
    await app.waitForText('skip asked for pull-image');
  });

  it('retries a failed step with r', async () => {
    const { controller, app } = await liveApp();
    controller.emit(runStarted(), { type: 'step-finished', result: { ...target('stop-glm'), status: 'failed', exitCode: 1, startedAt: 0, endedAt: 10, durationMs: 10, verdict: 'diverged', detail: 'exit 1 where the record had 0' } });
    await app.waitForText('✗ failed');
    await app.press('g', 'r');
    expect(controller.controls).toEqual(['retry stop-glm on head aurora@127.0.0.2:2222']);
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

  it('holds on a failure with a panel: the step, its whole host, its last output lines, and r / s / q; p does not go on', async () => {
    const { controller, app } = await liveApp();
    const failed = target('pull-image', 'worker');
    controller.emit(
      { type: 'run-started', runId: 'run_live_test', mode: 'live', steps: [target('stop-glm'), target('pull-image'), failed, target('health')] },
      { type: 'step-started', target: failed, command: 'docker pull repo/image:tag', destructive: false },
      { type: 'output', target: failed, stream: 'stderr', chunk: 'pulling layer 1\npulling layer 2\nnet/http: TLS handshake timeout\n' },
      { type: 'step-finished', result: { ...failed, status: 'failed', exitCode: 1, startedAt: 0, endedAt: 10, durationMs: 10, verdict: 'diverged', detail: 'exit 1 where the record had 0' } },
      { type: 'paused', failed: [failed] },
    );
    const frame = await app.waitForText('pull-image failed on worker aurora@127.0.0.3:2222 (exit 1)');
    expect(frame).toContain('held on a failure: r retry · s skip · q abort');
    expect(frame).toContain('exit 1 where the record had 0');
    expect(frame).toContain('│ net/http: TLS handshake timeout');
    expect(frame).toContain('r retry · s skip this step and go on · q abort');
    // The cursor went to the failure, though the user never moved it there.
    expect(selectedLine(frame)).toMatch(/✗ failed +pull-image +worker/);
    await app.press('p');
    await app.waitForText('p does not go past a failure: r, s or q');
    expect(controller.controls).toEqual([]);
    // Moving to another row still acts on the failure.
    await app.press('g', 'r');
    expect(controller.controls).toEqual(['retry pull-image on worker aurora@127.0.0.3:2222']);
    controller.emit({ type: 'resumed' });
    await app.waitFor(() => !app.frame().includes('held on a failure'), 'the panel to close');
  });

  it('asks "this host / all hosts" when s skips a step that failed on several hosts', async () => {
    const { controller, app } = await liveApp();
    const a = { stepId: 'pull-image', role: 'worker', host: 'aurora@127.0.0.3:2222' };
    const b = { stepId: 'pull-image', role: 'worker', host: 'spark@127.0.0.2:2223' };
    const failed = (t: typeof a) => ({ type: 'step-finished' as const, result: { ...t, status: 'failed' as const, exitCode: 1, startedAt: 0, endedAt: 10, durationMs: 10, verdict: 'diverged' as const, detail: null } });
    controller.emit({ type: 'run-started', runId: 'run_live_test', mode: 'live', steps: [a, b, target('health')] }, failed(a), failed(b), { type: 'paused', failed: [a, b] });
    await app.waitForText('also failed: pull-image on worker spark@127.0.0.2:2223');
    await app.press('s');
    await app.waitForText('Skip pull-image on worker aurora@127.0.0.3:2222 only, or on all 2 hosts');
    expect(app.frame()).toContain('h this host · a all hosts · Esc cancel');
    await app.press('h');
    expect(controller.controls).toEqual(['skip pull-image on worker aurora@127.0.0.3:2222']);
    await app.press('s');
    await app.waitForText('or on all 2 hosts');
    await app.press('a');
    expect(controller.controls).toEqual(['skip pull-image on worker aurora@127.0.0.3:2222', 'skip pull-image']);
    await app.waitForText('skip asked for pull-image on every host');
  });

  it('names every host of a destructive step whole in its confirmation, however narrow the terminal', async () => {
    const controller = new FakeRunController();
    const app = renderApp(fakeServices({ liveRun: controller }), [{ screen: 'runs' }, { screen: 'live-run' }], { columns: 60, rows: 20 });
    await app.waitFor(() => controller.listenerCount > 0, 'the screen to subscribe');
    const hosts = 'aurora@spark-head.lab.example:2222, aurora@spark-worker-01.lab.example:2222';
    controller.emit(runStarted(), { type: 'confirm', target: { stepId: 'stop-glm', role: 'head+worker', host: hosts }, command: 'sudo systemctl stop vllm' });
    const frame = await app.waitForText('y yes · n no · s skip it');
    const flat = frame.replace(/\s*\n[│ ]*/g, ' ');
    expect(flat).toContain('aurora@spark-head.lab.example:2222,');
    expect(flat).toContain('aurora@spark-worker-01.lab.example:2222?');
  });

  it('shows the steps a resumed run finished before as finished', async () => {
    const { controller, app } = await liveApp();
    const steps = ['stop-glm', 'pull-image', 'probe-image', 'health'].map((id) => target(id));
    controller.emit({ type: 'run-started', runId: 'run_live_test', mode: 'live', steps, earlier: [{ target: target('stop-glm'), status: 'ok' }, { target: target('pull-image'), status: 'guarded' }] });
    const frame = await app.waitForText('2/4 steps done');
    expect(frame).toMatch(/✓ ok +stop-glm/);
    expect(frame).toMatch(/guarded +pull-image/);
    expect(frame).toMatch(/· pending +probe-image/);
    expect(frame).toContain('finished in an earlier attempt of this run');
  });

  it('says so when no live run is attached', async () => {
    const app = renderApp(fakeServices(), [{ screen: 'live-run' }]);
    await app.waitForText('No live run is attached');
  });
});
