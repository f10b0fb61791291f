import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { createTuiServices } from '../../src/cli/tui-services.js';
import { Database } from '../../src/store/database.js';
import type { TuiServices } from '../../src/tui/services.js';
import { runRetrace } from '../helpers/cli.js';
import { ingestPaths } from '../helpers/ingest.js';
import { sampleExportPath } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { GENERATED_SESSION, generatedRowCount, writeGeneratedSession } from './generated-session.js';
import { renderApp, selectedLine } from './render-app.js';

const SAMPLE = 'ses_365d176c7ffeX5TaQTV86dNCf0';
const dir = tempDir('retrace-tui-services-');
const samplePath = tempDbPath(dir);
const bigPath = tempDbPath(dir);
const open: Database[] = [];

async function servicesOver(path: string): Promise<TuiServices> {
  const db = await Database.open(path, { readOnly: true });
  open.push(db);
  return createTuiServices(db);
}

beforeAll(async () => {
  await ingestPaths(samplePath, [sampleExportPath()]);
  await writeGeneratedSession(bigPath, 10_000);
}, 120_000);

afterAll(() => {
  cleanup();
  for (const db of open) db.close();
});

/** Milliseconds from render to the first frame that shows `text` (the screen's first rows). */
async function firstFrameMs(services: TuiServices, sessionId: string, text: string): Promise<number> {
  const began = performance.now();
  const app = renderApp(services, [{ screen: 'timeline', sessionId, title: sessionId }]);
  await app.waitForText(text, 10_000);
  const elapsed = performance.now() - began;
  app.unmount();
  return elapsed;
}

describe('TUI services over the sample store', () => {
  it('answers why with each step as retrace why knows it, and the plan retrace plan builds', async () => {
    // `retrace ingest` derives the tree and the actions the plan is built from.
    const derivedPath = tempDbPath(dir);
    expect((await runRetrace(['ingest', sampleExportPath(), '--db', derivedPath])).code).toBe(0);
    const services = await servicesOver(derivedPath);
    const why = await services.why(SAMPLE, 'scitrera/dgx-spark-sglang:0.5.10rc0');
    expect(why.evidence.map((item) => [item.message_ordinal, item.kind, item.outcome, item.decisive, item.host])).toEqual([
      [16, 'pull', 'ok', false, 'aurora@10.1.230.180'],
      [17, 'probe', 'negative', true, 'aurora@10.1.230.180'],
    ]);
    const { planFromStore } = await import('../../src/replay/plan/load.js');
    const { planToYaml } = await import('../../src/replay/plan/yaml.js');
    const db = await Database.open(derivedPath, { readOnly: true });
    open.push(db);
    const { plan: expected } = await planFromStore(db, SAMPLE);
    const plan = await services.plan(SAMPLE);
    expect(plan.yaml.join('\n')).toBe(planToYaml(expected).trimEnd());
    expect(plan.steps.map((step) => step.id)).toEqual(expected.steps.map((step) => step.id));
    expect(plan.candidate).toBe('hellohal2064/vllm-qwen3.5-gb10');
    const matches = await services.searchText(SAMPLE, { kind: 'plan' }, 'check-health');
    expect(matches.length).toBeGreaterThan(0);
    expect(plan.yaml[matches[0] ?? -1]).toContain('check-health');
  });

  it('names the newest run of a session when there is none, as none', async () => {
    const services = await servicesOver(samplePath);
    const [session] = await services.listSessions();
    expect(session?.last_run ?? null).toBeNull();
  });

  it('pages the timeline: message rows, then their calls, the timed-out pull marked in its parallel group', async () => {
    const services = await servicesOver(samplePath);
    const page = await services.timeline(SAMPLE, 23, 4);
    expect(page.total).toBe(87);
    expect(page.rows.map((row) => [row.index, row.kind, row.ordinal])).toEqual([[23, 'message', 13], [24, 'call', 13], [25, 'call', 13], [26, 'call', 13]]);
    const pull = page.rows[2];
    expect(pull).toMatchObject({
      kind: 'call', tool: 'bash', summary: '10.1.230.180: docker pull lmsysorg/sglang:spark 2>&1 | tail -3', timed_out: true, failed: false,
      exit_code: null, duration_ms: 120314, parallel_position: 'middle', output_lines: 5,
    });
    expect(page.rows.map((row) => (row.kind === 'call' ? row.parallel_position : null))).toEqual([null, 'first', 'middle', 'last']);
    expect(await services.timelineIndexOf(SAMPLE, 13)).toBe(23);
  });

  it('finds rows by their text, command or output', async () => {
    const services = await servicesOver(samplePath);
    const matches = await services.searchTimeline(SAMPLE, 'TRANSFORMERS: 4.57.6');
    const rows = await Promise.all(matches.map(async (index) => (await services.timeline(SAMPLE, index, 1)).rows[0]));
    expect(rows.some((row) => row?.kind === 'call' && row.summary.includes('docker run --rm scitrera'))).toBe(true);
  });

  it('reads an output or a message a window of lines at a time, and searches them', async () => {
    const services = await servicesOver(samplePath);
    const page = await services.timeline(SAMPLE, 25, 1);
    const callId = page.rows[0]?.kind === 'call' ? page.rows[0].call_id : '';
    const output = await services.toolOutput(SAMPLE, callId, 2, 2);
    expect(output).toMatchObject({ total_lines: 5, offset: 2, lines: ['<bash_metadata>', 'bash tool terminated command after exceeding timeout 120000 ms'] });
    expect(await services.searchText(SAMPLE, { kind: 'call', callId }, 'TIMEOUT')).toEqual([3]);
    const message = await services.messageText(SAMPLE, 16, 0, 2);
    expect(message.title).toBe('#16 assistant');
    expect(message.lines[0]).toBe('thinking:');
  });

  it('lists the session with its counts', async () => {
    const services = await servicesOver(samplePath);
    const [session] = await services.listSessions();
    expect(session).toMatchObject({ id: SAMPLE, agent: 'opencode', messages: 42, tool_calls: 45 });
  });

  it('draws the first timeline screen (its speed: npm run bench)', async () => {
    const ms = await firstFrameMs(await servicesOver(samplePath), SAMPLE, '#1 ');
    expect(ms).toBeGreaterThan(0);
  });
});

describe('TUI services over a generated 10,000-message session', () => {
  it('pages it without reading it whole', async () => {
    const services = await servicesOver(bigPath);
    const began = performance.now();
    const total = generatedRowCount(10_000);
    const last = await services.timeline(GENERATED_SESSION, total - 100, 100);
    const pageMs = performance.now() - began;
    console.log(`one timeline page near the end of 10,000 messages: ${pageMs.toFixed(0)} ms`);
    expect(last.total).toBe(total);
    expect(last.rows).toHaveLength(100);
    const log = (await services.timeline(GENERATED_SESSION, await services.timelineIndexOf(GENERATED_SESSION, 1000) as number, 2)).rows[1];
    expect(log).toMatchObject({ kind: 'call', output_lines: 20_000 });
    const window = await services.toolOutput(GENERATED_SESSION, log?.kind === 'call' ? log.call_id : '', 19_990, 100);
    expect(window.lines).toEqual(Array.from({ length: 10 }, (_, i) => `log line ${19_991 + i} of step 1000`));
  });

  it('draws its first screen, and its last', async () => {
    const services = await servicesOver(bigPath);
    const ms = await firstFrameMs(services, GENERATED_SESSION, 'step 1: checking');
    expect(ms).toBeGreaterThan(0);
    const app = renderApp(services, [{ screen: 'timeline', sessionId: GENERATED_SESSION, title: 'generated' }]);
    await app.waitForText('step 1: checking', 10_000);
    const began = performance.now();
    await app.press('G');
    const total = generatedRowCount(10_000);
    await app.waitFor((frame) => selectedLine(frame).includes('cat /tmp/vllm-serve.log') && frame.includes(`row ${total}/${total}`), 'the last row', 10_000);
    console.log(`G to the last row of ${total}: ${(performance.now() - began).toFixed(0)} ms`);
    app.unmount();
  });
});
