import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { createTuiServices } from '../../src/cli/tui-services.js';
import { Database } from '../../src/store/database.js';
import type { Route } from '../../src/tui/routes.js';
import type { TuiServices } from '../../src/tui/services.js';
import { REPO_ROOT, runRetrace } from '../helpers/cli.js';
import { sampleExportPath } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { fakeServices } from './fake-services.js';
import { FakeRunController, runStarted, target } from './fake-run-controller.js';
import { KEYS, renderApp } from './render-app.js';

/**
 * Text captures of every screen at 80×24 for the README (docs/screens/NAME.txt), drawn from the
 * sample store (a dry replay run included) and, for the live run and a diverged run, from the
 * test fixtures. `RETRACE_UPDATE_SCREENS=1` rewrites them; otherwise they are only checked.
 */
const SCREENS_DIR = join(REPO_ROOT, 'docs', 'screens');
const UPDATE = process.env['RETRACE_UPDATE_SCREENS'] === '1';
const SAMPLE = 'ses_365d176c7ffeX5TaQTV86dNCf0';
const TITLE = 'Deploy Qwen3.5-122B-A10B-FP8 on dual DGX Spark';
const db = tempDbPath(tempDir('retrace-screens-'));
let store: Database | null = null;
let real: TuiServices;

beforeAll(async () => {
  expect((await runRetrace(['ingest', sampleExportPath(), '--db', db])).code).toBe(0);
  expect((await runRetrace(['replay', SAMPLE, '--db', db])).code).toBe(0);
  store = await Database.open(db, { readOnly: true });
  real = createTuiServices(store);
}, 120_000);

afterAll(() => {
  cleanup();
  store?.close();
});

type Script = (app: ReturnType<typeof renderApp>) => Promise<unknown>;

async function capture(name: string, services: TuiServices, start: Route[], script: Script): Promise<void> {
  const app = renderApp(services, start);
  await script(app);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const text = `${app.frame().split('\n').map((line) => line.trimEnd()).join('\n')}\n`;
  app.unmount();
  const lines = text.trimEnd().split('\n');
  expect(lines.length).toBeLessThanOrEqual(23);
  expect(Math.max(...lines.map((line) => [...line].length))).toBeLessThanOrEqual(80);
  const file = join(SCREENS_DIR, `${name}.txt`);
  if (UPDATE) {
    mkdirSync(SCREENS_DIR, { recursive: true });
    writeFileSync(file, text);
  } else {
    // Titles are compared (run ids aside, they change with every run): the capture shows this screen.
    const title = (line: string | undefined) => (line ?? '').replace(/run_[\w-]+/g, 'run_…');
    expect(title(readFileSync(file, 'utf8').split('\n')[0]), `${file}: run with RETRACE_UPDATE_SCREENS=1 to refresh`).toBe(title(lines[0]));
  }
}

const timeline: Route = { screen: 'timeline', sessionId: SAMPLE, title: TITLE };
const selectedHas = (text: string) => (frame: string) => (frame.split('\n').find((line) => line.startsWith('›')) ?? '').includes(text);

describe('screen captures at 80×24 (docs/screens)', () => {
  it('sessions', () => capture('sessions', real, [{ screen: 'sessions' }], (app) => app.waitForText('Deploy Qwen')));

  it('timeline at the timed-out pull', () =>
    capture('timeline', real, [timeline], async (app) => {
      await app.waitForText('#1 ');
      await app.press('/', 'lmsysorg/sglang:spark 2>&1', KEYS.enter);
      await app.waitFor(selectedHas('TIMEOUT'), 'the timed-out pull');
      await app.waitForText('bash tool terminated');
    }));

  it('output of the scitrera probe, searched for transformers', () =>
    capture('output', real, [timeline], async (app) => {
      await app.waitForText('#1 ');
      await app.press('/', 'docker run --rm scitrera', KEYS.enter);
      await app.waitFor(selectedHas('scitrera'), 'the probe');
      await app.press(KEYS.enter);
      await app.waitForText('lines 1–');
      await app.press('/', 'transformers', KEYS.enter);
      await app.waitForText('match 1/');
    }));

  it('decision tree', () =>
    capture('tree', real, [{ screen: 'tree', sessionId: SAMPLE, title: TITLE }], async (app) => {
      await app.waitForText('hellohal2064');
      await app.press('/', 'scitrera', KEYS.enter);
      await app.waitForText('match 1/');
      await app.press('n');
      await app.waitFor(selectedHas('✗ rejected'), 'the scitrera candidate');
    }));

  it('why scitrera', () =>
    capture('why', real, [{ screen: 'why', sessionId: SAMPLE, title: TITLE, candidate: 'scitrera/dgx-spark-sglang:0.5.10rc0' }], (app) => app.waitForText('Transformers: 4.57.6')));

  it('output opened from why at the decisive line', () =>
    capture('output-decisive', real, [{ screen: 'why', sessionId: SAMPLE, title: TITLE, candidate: 'scitrera/dgx-spark-sglang:0.5.10rc0' }], async (app) => {
      await app.waitForText('Transformers: 4.57.6');
      await app.press('o');
      await app.waitFor((frame) => frame.includes('Output ·') && /^ *\d+›/m.test(frame), 'the decisive lines', 8000);
    }));

  it('why the accepted candidate: its winning path', () =>
    capture('why-accepted', real, [{ screen: 'why', sessionId: SAMPLE, title: TITLE, candidate: 'hellohal2064/vllm-qwen3.5-gb10' }], async (app) => {
      await app.waitForText('◆ decisive');
      await app.press('/', 'winning path', KEYS.enter);
      await app.waitForText('Winning path (');
      await app.press('j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j');
    }));

  it('the plan a replay would run (p on the tree)', () =>
    capture('plan', real, [{ screen: 'tree', sessionId: SAMPLE, title: TITLE }], async (app) => {
      await app.waitForText('hellohal2064');
      await app.press('p');
      await app.waitForText('# retrace');
    }));

  it('timings', () => capture('timings', real, [{ screen: 'timings', sessionId: SAMPLE, title: TITLE }], (app) => app.waitForText('lmsysorg/sglang:spark')));

  it('runs', () => capture('runs', real, [{ screen: 'runs' }], (app) => app.waitForText('dry')));

  it('run vs record (a dry run of the sample)', async () => {
    const [run] = await real.listRuns();
    await capture('compare-dry-run', real, [{ screen: 'compare', runId: run?.id ?? '' }], (app) => app.waitForText('planned'));
  });

  it('run vs record (a live run with a diverged step, test fixture)', () =>
    capture('compare', fakeServices(), [{ screen: 'compare', runId: 'run_20260301_0930' }], async (app) => {
      await app.waitForText('probe-image');
      await app.press('j', 'j');
    }));

  it('live run (test fixture controller)', () => {
    const controller = new FakeRunController('run_20260301_0930');
    return capture('live-run', fakeServices({ liveRun: controller }), [{ screen: 'runs' }, { screen: 'live-run' }], async (app) => {
      await app.waitFor(() => controller.listenerCount > 0, 'the subscription');
      const done = (stepId: string, ms: number) => ({ type: 'step-finished' as const, result: { ...target(stepId), status: 'ok' as const, exitCode: 0, startedAt: 0, endedAt: ms, durationMs: ms, verdict: 'same' as const, detail: null } });
      controller.emit(runStarted('run_20260301_0930'), done('stop-glm', 14_382));
      controller.emit({ type: 'step-started', target: target('pull-image'), command: 'docker pull hellohal2064/vllm-qwen3.5-gb10', destructive: false });
      controller.emit({ type: 'output', target: target('pull-image'), stream: 'stdout', chunk: ['latest: Pulling from hellohal2064/vllm-qwen3.5-gb10', '4f4fb700ef54: Pull complete', '9d1c2a7e0b1f: Downloading  4.1GB/11.6GB', ''].join('\n') });
      await app.waitForText('Downloading');
    });
  });

  it('a destructive step waiting for confirmation (test fixture controller)', () => {
    const controller = new FakeRunController('run_20260301_0930');
    return capture('live-run-confirm', fakeServices({ liveRun: controller }), [{ screen: 'live-run' }], async (app) => {
      await app.waitFor(() => controller.listenerCount > 0, 'the subscription');
      controller.emit(runStarted('run_20260301_0930'), { type: 'confirm', target: target('stop-glm'), command: 'sudo systemctl stop vllm-cluster vllm-proxy' });
      await app.waitForText('Run destructive step');
    });
  });

  it('keys of the timeline (?)', () =>
    capture('keys', real, [timeline], async (app) => {
      await app.waitForText('#1 ');
      await app.press('?');
    }));
});
