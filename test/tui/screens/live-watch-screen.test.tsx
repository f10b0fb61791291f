import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { fakeServices } from '../fake-services.js';
import { FakeRunController, runStarted, target } from '../fake-run-controller.js';
import { renderApp } from '../render-app.js';

afterEach(cleanup);

const settle = () => new Promise((resolve) => setTimeout(resolve, 80));
const STEERED = 'this run is steered from the terminal that started it (PID 4242)';

/** `retrace tui --run ID` of a running run: the live-run screen follows it, and never steers it (issue 17.7). */
async function watchApp() {
  const controller = new FakeRunController();
  const app = renderApp({ ...fakeServices({ liveRun: controller }), liveRunWatch: { pid: 4242 } }, [{ screen: 'runs' }, { screen: 'live-run', runId: controller.runId }], { columns: 120, rows: 30 });
  await app.waitFor(() => controller.listenerCount > 0, 'the screen to subscribe');
  return { controller, app };
}

describe('Live run screen, watching a run steered elsewhere', () => {
  it('says it only watches, and the keys that steer say where the run is steered from', async () => {
    const { controller, app } = await watchApp();
    controller.emit(runStarted(), { type: 'step-started', target: target('stop-glm'), command: 'true', destructive: false });
    await app.waitForText('watching (steered by PID 4242)');
    for (const key of ['p', 's', 'r']) {
      await app.press(key);
      await app.waitForText(STEERED);
    }
    expect(controller.controls).toEqual([]);
    expect(app.frame()).toContain('q leave (the run goes on)');
  });

  it('shows a held failure and a confirmation as what the run waits for, without offering to answer them here', async () => {
    const { controller, app } = await watchApp();
    controller.emit(runStarted(), { type: 'step-started', target: target('stop-glm'), command: 'sudo systemctl stop vllm', destructive: true });
    controller.emit({ type: 'confirm', target: target('stop-glm'), command: 'sudo systemctl stop vllm' });
    const asking = await app.waitForText('Waiting for confirmation of stop-glm');
    expect(asking.replace(/\s+/g, ' ')).toContain(STEERED);
    expect(asking).not.toContain('[y/N]');
    await app.press('y');
    expect(controller.controls).toEqual([]);
    controller.emit({ type: 'confirmed', target: target('stop-glm'), approved: true });
    controller.emit({ type: 'step-finished', result: { ...target('stop-glm'), status: 'failed', exitCode: 3, startedAt: 0, endedAt: 1_000, durationMs: 1_000, verdict: 'diverged', detail: 'exit 3' } });
    controller.emit({ type: 'paused', failed: [target('stop-glm')] });
    const held = await app.waitForText('held on a failure: waiting for a decision');
    expect(held.replace(/\s+/g, ' ')).toContain(`r retry · s skip · q abort: ${STEERED}`);
    await app.press('q');
    await app.waitForText('q again to leave this view (the run goes on)');
    expect(controller.controls).toEqual([]);
  });

  it('says how the run ended', async () => {
    const { controller, app } = await watchApp();
    controller.emit(runStarted(), { type: 'run-finished', runId: controller.runId, status: 'interrupted', diverged: 0 });
    await settle();
    await app.waitForText('finished: interrupted');
  });
});
