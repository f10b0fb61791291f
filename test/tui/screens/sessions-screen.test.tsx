import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { fakeServices } from '../fake-services.js';
import { SESSION_ID } from '../fake-session.js';
import { KEYS, renderApp, selectedLine } from '../render-app.js';

afterEach(cleanup);

describe('Sessions screen', () => {
  it('lists agent, title, dates, messages, tool calls and candidates', async () => {
    const app = renderApp(fakeServices(), [{ screen: 'sessions' }]);
    const frame = await app.waitForText('Deploy Qwen');
    expect(frame).toContain('agent    title');
    expect(selectedLine(frame)).toBe('› opencode Deploy Qwen3.5-122B-A10B-… 2026-02-26 13:41–14:52     42     45     5');
    expect(frame).toContain('↳ Check the GB10 image ta…');
    expect(frame).toMatch(/claude .* 2026-02-27 09:12–09:15 +12 +6 +–/);
    expect(frame).toContain(`${SESSION_ID} · Deploy Qwen3.5-122B-A10B-FP8 on dual DGX Spa…`);
    expect(frame).toContain('session 1/2');
    expect(frame.split('\n')).toHaveLength(23);
  });

  it('opens the selected session with Enter and comes back with Esc', async () => {
    const app = renderApp(fakeServices(), [{ screen: 'sessions' }]);
    await app.waitForText('Deploy Qwen');
    await app.press(KEYS.enter);
    await app.waitForText('Timeline · Deploy Qwen3.5');
    await app.press(KEYS.escape);
    const frame = await app.waitForText('Sessions');
    expect(selectedLine(frame)).toContain('opencode');
  });

  it('moves with j/k and finds a title with /', async () => {
    const app = renderApp(fakeServices(), [{ screen: 'sessions' }]);
    await app.waitForText('Deploy Qwen');
    await app.press('j');
    expect(selectedLine(app.frame())).toContain('claude');
    await app.press('k');
    expect(selectedLine(app.frame())).toContain('opencode');
    await app.press('/', 'GB10', KEYS.enter);
    const frame = await app.waitForText('match 1/1 for "GB10"');
    expect(selectedLine(frame)).toContain('GB10');
  });

  it("shows the selected session's newest replay: its run id, mode and status", async () => {
    const services = fakeServices();
    const sessions = await services.listSessions();
    services.listSessions = async () => sessions.map((row, index) => (index === 0 ? { ...row, last_run: { id: 'run_20260301_0930', mode: 'live', status: 'interrupted', started_at: '2026-03-01T09:30:00Z' }, runs: 2 } : row));
    const app = renderApp(services, [{ screen: 'sessions' }], { columns: 120 });
    const frame = await app.waitForText('last run');
    expect(frame).toContain(`${SESSION_ID} · last run run_20260301_0930 live ✗ interrupted (of 2 runs)`);
    await app.press('j');
    expect(app.frame()).not.toContain('last run');
  });

  it('says so when the store cannot be read', async () => {
    const app = renderApp(fakeServices({ failing: { listSessions: 'no store at /tmp/x.duckdb' } }), [{ screen: 'sessions' }]);
    await app.waitForText('✗ no store at /tmp/x.duckdb');
  });
});
