import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { fakeServices } from '../fake-services.js';
import { RUN_STEPS, SESSION_ID, SESSION_TITLE } from '../fake-session.js';
import { KEYS, renderApp, selectedLine } from '../render-app.js';

afterEach(cleanup);

describe('Timings screen', () => {
  const timings = { screen: 'timings' as const, sessionId: SESSION_ID, title: SESSION_TITLE };

  it('groups the retried pull under one heading, each attempt a bar on one scale', async () => {
    const app = renderApp(fakeServices(), [timings]);
    const frame = await app.waitForText('lmsysorg/sglang:spark');
    const lines = frame.split('\n');
    expect(lines[1]).toContain('showing: all (f: next filter) · bars on one scale, longest 29m57s');
    expect(selectedLine(frame)).toBe('› pull     lmsysorg/sglang:spark @10.1.230.180 · 2 attempts · 6m12s ✓ ok');
    expect(lines[3]).toMatch(/^ {5}#1 {2}██▏ +2m00s ! timeout$/);
    expect(lines[4]).toMatch(/^ {5}#2 {2}████▌ +4m12s ✓ ok$/);
    expect(frame).toMatch(/#1 {2}█{32} 29m57s ✓ ok {8}66\.2 MB\/s/);
    const barEnds = [lines[3], lines[4]].map((line) => line?.indexOf('m'));
    expect(barEnds[0]).toBe(barEnds[1]);
  });

  it('filters by kind with f', async () => {
    const app = renderApp(fakeServices(), [timings]);
    await app.waitForText('lmsysorg/sglang:spark');
    await app.press('f');
    const frame = app.frame();
    expect(frame).toContain('showing: download');
    expect(frame).not.toContain('lmsysorg/sglang:spark');
    expect(frame).toContain('Qwen/Qwen3.5-122B-A10B-FP8');
  });

  it('jumps to the attempt in the timeline with Enter', async () => {
    const app = renderApp(fakeServices(), [timings]);
    await app.waitForText('lmsysorg/sglang:spark');
    await app.press('j', KEYS.enter);
    await app.waitFor((frame) => frame.includes('Timeline ·') && selectedLine(frame).includes('! TIMEOUT'), 'the timed-out pull in the timeline');
  });
});

describe('Runs screen', () => {
  it('lists runs with mode, status, steps, diverged steps and start', async () => {
    const app = renderApp(fakeServices(), [{ screen: 'runs' }]);
    const frame = await app.waitForText('run_20260301_0930');
    expect(selectedLine(frame)).toMatch(/^› run_20260301_0930 +live ✓ ok +4 ≠ +1 2026-03-01 09:30 qwen35/);
    expect(frame).toMatch(/run_20260228_1700 +dry +✓ ok +4 +0 2026-02-28 17:00/);
  });

  it('opens a run beside its record with Enter', async () => {
    const app = renderApp(fakeServices(), [{ screen: 'runs' }]);
    await app.waitForText('run_20260301_0930');
    await app.press(KEYS.enter);
    await app.waitForText('Run vs record · run_20260301_0930');
  });

  it('says how to make runs when there are none', async () => {
    const services = fakeServices();
    services.listRuns = async () => [];
    const app = renderApp(services, [{ screen: 'runs' }]);
    await app.waitForText('no runs yet: `retrace replay` records them');
  });
});

describe('Run vs record screen', () => {
  const compare = { screen: 'compare' as const, runId: 'run_20260301_0930' };

  it('puts each step beside its record, diverged steps marked ≠ in words too', async () => {
    const app = renderApp(fakeServices(), [compare]);
    const frame = await app.waitForText('probe-image');
    expect(frame).toMatch(/role:step +│ recorded +│ this run +│ verdict/);
    expect(selectedLine(frame)).toMatch(/^› head:stop-glm +│ exit 0 1\.2s +│ ✓ ok exit 0 1\.0s +│ = same$/);
    expect(frame).toMatch(/ {2}head:probe-image +│ exit 0 15s +│ ✓ ok exit 0 1\.0s +│ ≠ diverged/);
    expect(frame).toMatch(/ {2}head:health +│ exit 0 1\.2s +│ ✗ failed exit 7 1\.0s +│ \? unknown/);
    expect(frame).toContain('1/4 · 1 diverged (d: only those)');
  });

  it('shows the recorded output and this run\'s one above the other when narrow, the differing lines marked', async () => {
    const app = renderApp(fakeServices(), [compare], { columns: 80, rows: 30 });
    await app.waitForText('probe-image');
    await app.press('j', 'j');
    const frame = await app.waitForText('≠ transformers 5.3.0 where the record had 5.2.0');
    expect(frame).toContain('2 differing lines · Enter: whole outputs');
    const lines = frame.split('\n');
    const recorded = lines.findIndex((line) => line.includes('Recorded call_probe_01: exit 0 15s'));
    const run = lines.findIndex((line) => line.includes('This run on aurora@127.0.0.2:2222: ok exit 0 1.0s'));
    expect(recorded).toBeGreaterThan(0);
    expect(run).toBeGreaterThan(recorded);
    expect(lines.slice(recorded, run).join('\n')).toMatch(/ {2}vLLM 0\.17\.0rc1\.dev58\n ≠ transformers 5\.2\.0\n {3}SUPPORTED/);
    expect(lines.slice(run).join('\n')).toMatch(/ ≠ transformers 5\.3\.0\n > flash-attn 2\.8\.1\n {3}SUPPORTED/);
  });

  it('sets the outputs side by side when wide, and opens them whole with Enter (n: next difference, Esc: back)', async () => {
    const app = renderApp(fakeServices(), [compare], { columns: 120, rows: 30 });
    await app.waitForText('probe-image');
    await app.press('j', 'j');
    const frame = await app.waitForText('Recorded call_probe_01');
    expect(frame).toMatch(/ Recorded call_probe_01: exit 0 15s +│ This run on aurora@127\.0\.0\.2:2222: ok exit 0 1\.0s/);
    expect(frame).toMatch(/ vLLM 0\.17\.0rc1\.dev58 +│ vLLM 0\.17\.0rc1\.dev58/);
    expect(frame).toMatch(/ transformers 5\.2\.0 +≠ transformers 5\.3\.0/);
    expect(frame).toMatch(/ {20,}> flash-attn 2\.8\.1/);
    await app.press(KEYS.enter);
    const whole = await app.waitForText('Run vs record · run_20260301_0930 · head:probe-image');
    expect(whole).toContain('n/N next/previous difference');
    expect(whole).toContain('lines 1–4 of 4');
    await app.press(KEYS.escape);
    await app.waitForText('1 diverged (d: only those)');
    expect(selectedLine(app.frame())).toContain('probe-image');
  });

  it('tells the hosts of a fleet apart in wide terminals, and names the whole host above the outputs', async () => {
    const services = fakeServices();
    const base = RUN_STEPS[1]!;
    services.runSteps = async () => [
      { ...base, role: 'worker', host: 'aurora@10.9.0.1:22', fleet_host: '10.9.0.1:22', output: 'Digest: sha256:aaa\n' },
      { ...base, role: 'worker', host: 'aurora@10.9.0.2:22', fleet_host: '10.9.0.2:22', output: 'Digest: sha256:bbb\n' },
    ];
    const app = renderApp(services, [compare], { columns: 120, rows: 30 });
    const frame = await app.waitForText('worker:pull-image 10.9.0.2:22');
    expect(frame).toContain('worker:pull-image 10.9.0.1:22');
    expect(frame).toContain('worker:pull-image on aurora@10.9.0.1:22');
  });

  it('shows only the diverged steps with d', async () => {
    const app = renderApp(fakeServices(), [compare]);
    await app.waitForText('probe-image');
    await app.press('d');
    const frame = app.frame();
    expect(frame).toContain('showing only those; d: all');
    expect(frame).not.toContain('stop-glm');
    expect(selectedLine(frame)).toContain('probe-image');
  });
});
