import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { fakeServices } from '../fake-services.js';
import { SESSION_ID, SESSION_TITLE } from '../fake-session.js';
import { KEYS, renderApp, selectedLine } from '../render-app.js';

afterEach(cleanup);

const timeline = (focus?: { ordinal: number; callId?: string }) =>
  [{ screen: 'sessions' as const }, { screen: 'timeline' as const, sessionId: SESSION_ID, title: SESSION_TITLE, ...(focus ? { focus } : {}) }];

describe('Timeline screen', () => {
  it('shows messages and their calls in order, a parallel group drawn as one, the timeout marked', async () => {
    const app = renderApp(fakeServices(), timeline());
    const frame = await app.waitForText('#12');
    const lines = frame.split('\n');
    expect(lines[0]).toBe(' retrace Timeline · Deploy Qwen3.5-122B-A10B-FP8 on dual DGX Spark');
    expect(lines[1]).toMatch(/^› #12 +assistant 13:43:12 No containers left/);
    expect(frame).toMatch(/┌ exa_web_s… +4\.8s \{"query"/);
    expect(frame).toMatch(/├ bash +2m00s ! TIMEOUT 10\.1\.230\.180: docker pull lmsysorg\/sglang:spar…/);
    expect(frame).toMatch(/└ bash +1\.3s 10\.1\.230\.180: which huggingface-cli/);
    expect(frame).toContain('row 1/15');
  });

  it('steps with j to the timed-out pull and shows its command and output head below', async () => {
    const app = renderApp(fakeServices(), timeline());
    await app.waitForText('#12');
    await app.press('j', 'j', 'j', 'j');
    const frame = await app.waitForText('bash tool terminated');
    expect(selectedLine(frame)).toContain('! TIMEOUT');
    expect(frame).toContain('bash · ! TIMEOUT · no exit code · 2m00s');
    expect(frame).toContain('$ 10.1.230.180: docker pull lmsysorg/sglang:spark');
  });

  it('opens the selected call\'s output with Enter, and Esc comes back to the same row', async () => {
    const app = renderApp(fakeServices(), timeline());
    await app.waitForText('#12');
    await app.press(KEYS.down, KEYS.down, KEYS.down, KEYS.down, KEYS.enter);
    const output = await app.waitForText('lines 1–5 of 5');
    expect(output).toContain('Output · 10.1.230.180: docker pull');
    expect(output).toContain('4  bash tool terminated command after exceeding timeout 120000 ms');
    expect(output).toContain('lines 1–5 of 5');
    await app.press(KEYS.escape);
    const back = await app.waitForText('Timeline ·');
    expect(selectedLine(back)).toContain('! TIMEOUT');
  });

  it('searches with / and steps through matches with n and N', async () => {
    const app = renderApp(fakeServices(), timeline());
    await app.waitForText('#12');
    await app.press('/', 'docker pull', KEYS.enter);
    let frame = await app.waitForText('match 1/');
    expect(selectedLine(frame)).toContain('docker pull lmsysorg/sglang:spar');
    await app.press('n');
    frame = app.frame();
    expect(frame).toMatch(/match 2\/\d+ for "docker pull"/);
    await app.press('N');
    expect(app.frame()).toMatch(/match 1\/\d+ for "docker pull"/);
  });

  it('shows the prompt while typing a search, and Esc cancels it', async () => {
    const app = renderApp(fakeServices(), timeline());
    await app.waitForText('#12');
    await app.press('/', 'scit');
    expect(app.frame().split('\n').at(-1)).toMatch(/^\/scit▏ +Enter search · Esc cancel/);
    await app.press(KEYS.escape);
    expect(app.frame()).toContain('row 1/15');
  });

  it('goes to the first and last rows with g and G', async () => {
    const app = renderApp(fakeServices(), timeline());
    await app.waitForText('#12');
    await app.press('G');
    expect(selectedLine(app.frame())).toContain('#18');
    await app.press('g');
    expect(selectedLine(app.frame())).toContain('#12');
  });

  it('opens on a message (and call) named by the screen that opened it', async () => {
    const app = renderApp(fakeServices(), timeline({ ordinal: 17, callId: 'call-probe-scitrera' }));
    const frame = await app.waitFor((f) => selectedLine(f).includes('docker run --rm scitrera'), 'the probe selected');
    expect(frame).toContain('row 14/15');
  });

  it('opens the decision tree with d and the timings with t', async () => {
    const app = renderApp(fakeServices(), timeline());
    await app.waitForText('#12');
    await app.press('d');
    await app.waitForText('Decision tree · Deploy Qwen');
    await app.press(KEYS.escape, 't');
    await app.waitForText('Timings · Deploy Qwen');
  });
});
