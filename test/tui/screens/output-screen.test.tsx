import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { fakeServices } from '../fake-services.js';
import { SESSION_ID } from '../fake-session.js';
import { KEYS, renderApp } from '../render-app.js';

afterEach(cleanup);

const probe = { screen: 'output' as const, sessionId: SESSION_ID, target: { kind: 'call' as const, callId: 'call-probe-scitrera' }, title: '10.1.230.180: docker run --rm scitrera/dgx-spark-sglang:0.5.10rc0' };

describe('Output pager', () => {
  it('shows the first screen of lines with their numbers and where it is', async () => {
    const app = renderApp(fakeServices(), [probe]);
    const frame = await app.waitForText('lines 1–21 of 41');
    expect(frame.split('\n')[0]).toBe(' retrace Output · 10.1.230.180: docker run --rm scitrera/dgx-spark-sglang:0.5.1…');
    expect(frame).toContain('  6  NVIDIA Release 26.02 (build 269443100)');
    expect(frame).not.toContain('Transformers: 4.57.6');
  });

  it('scrolls by line, page and to the end', async () => {
    const app = renderApp(fakeServices(), [probe]);
    await app.waitForText('lines 1–21 of 41');
    await app.press('j', 'j');
    expect(app.frame()).toContain('lines 3–23 of 41');
    await app.press(' ');
    expect(app.frame()).toContain('lines 21–41 of 41');
    await app.press('G');
    const end = await app.waitForText(' 38  Transformers: 4.57.6');
    expect(end).toContain('lines 21–41 of 41');
    await app.press('g');
    expect(app.frame()).toContain('lines 1–21 of 41');
  });

  it('finds a line with / and marks it', async () => {
    const app = renderApp(fakeServices(), [probe]);
    await app.waitForText('lines 1–21 of 41');
    await app.press('/', 'transformers', KEYS.enter);
    const frame = await app.waitForText('match 1/1 for "transformers"');
    expect(frame).toContain(' 38› Transformers: 4.57.6');
  });

  it('scrolls sideways with l and h', async () => {
    const app = renderApp(fakeServices(), [probe]);
    await app.waitForText('lines 1–21 of 41');
    await app.press('l');
    const frame = app.frame();
    expect(frame).toContain('column 21');
    expect(frame).toContain('  6   (build 269443100)');
    await app.press('h');
    expect(app.frame()).not.toContain('column');
  });

  it('scrolls sideways to a match past the right edge, and wraps with w', async () => {
    const services = fakeServices();
    const wide = ['short line', `${'x'.repeat(150)} NEEDLE-AT-150 tail`, 'last'];
    services.toolOutput = async (_s, callId, offset, limit) => ({ call_id: callId, title: '', lines: wide.slice(offset, offset + limit), total_lines: wide.length, offset });
    services.searchText = async (_s, _t, query) => wide.flatMap((line, i) => (line.toLowerCase().includes(query.toLowerCase()) ? [i] : []));
    const app = renderApp(services, [probe]);
    await app.waitForText('lines 1–3 of 3');
    expect(app.frame()).not.toContain('NEEDLE');
    await app.press('/', 'needle', KEYS.enter);
    const frame = await app.waitForText('NEEDLE-AT-150');
    expect(frame).toMatch(/column \d+/);
    await app.press('w');
    const wrapped = await app.waitFor((f) => !/column \d+/.test(f), 'the wrapped lines');
    expect(wrapped).toContain('NEEDLE-AT-150');
    expect(wrapped).toMatch(/^ {5}x+$/m);
  });

  it('wraps a message\'s prose from the start', async () => {
    const services = fakeServices();
    const prose = `${'word '.repeat(40)}END-OF-PROSE`;
    services.messageText = async (_s, ordinal, offset, limit) => ({ call_id: `#${ordinal}`, title: '', lines: [prose].slice(offset, offset + limit), total_lines: 1, offset });
    const app = renderApp(services, [{ ...probe, target: { kind: 'message', ordinal: 18 }, title: '#18' }]);
    const frame = await app.waitForText('END-OF-PROSE');
    expect(frame.split('\n')[0]).toContain('Message · #18');
  });

  it('closes with q (like less), back to the screen below', async () => {
    const app = renderApp(fakeServices(), [{ screen: 'sessions' }, probe]);
    await app.waitForText('lines 1–21 of 41');
    await app.press('q');
    await app.waitForText('Sessions');
  });

  it('says when a call printed nothing', async () => {
    const empty = { ...probe, target: { kind: 'call' as const, callId: 'call-empty' } };
    const services = fakeServices();
    services.toolOutput = async (_s, callId, offset) => ({ call_id: callId, title: '', lines: [], total_lines: 0, offset });
    const app = renderApp(services, [empty]);
    await app.waitForText('(no output)');
  });

  it('fetches only the lines around the screen from a 100,000-line output', async () => {
    const services = fakeServices({ timelineRows: 10 });
    const app = renderApp(services, [{ ...probe, target: { kind: 'call', callId: 'call-big' } }]);
    await app.waitForText('lines 1–21 of 100000');
    await app.press('G');
    await app.waitForText('lines 99980–100000 of 100000');
    const fetched = services.calls.filter((call) => call.name === 'toolOutput').map((call) => call.args[3] as number);
    expect(fetched.reduce((sum, limit) => sum + limit, 0)).toBeLessThanOrEqual(1_000);
  });
});
