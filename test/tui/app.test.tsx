import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { App } from '../../src/tui/App.js';
import { fakeServices } from './fake-services.js';
import { SESSION_ID, SESSION_TITLE } from './fake-session.js';
import { KEYS, renderApp, selectedLine } from './render-app.js';

afterEach(cleanup);

const timeline = { screen: 'timeline' as const, sessionId: SESSION_ID, title: SESSION_TITLE };

describe('the app', () => {
  it('shows the keys of the screen on top with ?, and closes them with ? or Esc', async () => {
    const app = renderApp(fakeServices(), [{ screen: 'sessions' }, timeline]);
    await app.waitForText('#12');
    await app.press('?');
    const help = app.frame();
    expect(help).toContain('Keys · Timeline');
    expect(help).toMatch(/Enter +open a call's output \/ a message's text/);
    expect(help).toMatch(/\/ n N +search, next \/ previous match/);
    expect(help).toMatch(/Esc +back/);
    await app.press('j');
    expect(app.frame()).toContain('Keys · Timeline');
    await app.press('?');
    expect(selectedLine(app.frame())).toContain('#12');
    await app.press('?', KEYS.escape);
    expect(app.frame()).toContain('Timeline ·');
  });

  it('goes back one screen with Esc, keeping where each screen was', async () => {
    const app = renderApp(fakeServices(), [{ screen: 'sessions' }, timeline]);
    await app.waitForText('#12');
    await app.press('j', 'j', 'd');
    await app.waitForText('Decision tree ·');
    await app.press(KEYS.escape);
    const frame = await app.waitForText('Timeline ·');
    expect(selectedLine(frame)).toContain('#13');
    await app.press(KEYS.escape);
    await app.waitForText('Sessions');
    await app.press(KEYS.escape);
    expect(app.frame()).toContain('Sessions');
  });

  it('fills exactly the terminal at 80×24 and larger (one row spare)', async () => {
    for (const [columns, rows] of [[80, 24], [120, 40]] as const) {
      const app = renderApp(fakeServices(), [timeline], { columns, rows });
      const frame = await app.waitForText('#12');
      const lines = frame.split('\n');
      expect(lines).toHaveLength(rows - 1);
      expect(Math.max(...lines.map((line) => [...line].length))).toBe(columns);
      app.unmount();
    }
  });

  it('follows a resize of the terminal', async () => {
    const app = render(<App services={fakeServices()} theme={{ colour: false }} start={[timeline]} />);
    const size = { columns: 80, rows: 24 };
    Object.defineProperty(app.stdout, 'columns', { get: () => size.columns });
    Object.defineProperty(app.stdout, 'rows', { get: () => size.rows });
    size.columns = 90;
    size.rows = 30;
    app.stdout.emit('resize');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = (app.lastFrame() ?? '').split('\n');
    expect(lines).toHaveLength(29);
    expect(lines.at(-1)).toMatch(/^row 1\/15 {3,}\? keys · Esc back · q quit$/);
    expect([...(lines.at(-1) ?? '')].length).toBe(90);
  });

  it('asks for a bigger terminal rather than drawing a broken one', () => {
    const app = renderApp(fakeServices(), [timeline], { columns: 50, rows: 12 });
    expect(app.frame()).toContain('retrace needs a terminal of at least 60×16; this one is 50×12');
  });
});

describe('a 10,000-message session', () => {
  it('draws its first screen from one page, and the last from a page or two more', async () => {
    const services = fakeServices({ timelineRows: 20_000 });
    const app = renderApp(services, [timeline]);
    await app.waitForText('step 1: checking the node');
    await app.press('G');
    const frame = await app.waitFor((f) => selectedLine(f).includes('echo 10000'), 'the last row selected');
    expect(frame).toContain('row 20000/20000');
    expect(frame.split('\n')).toHaveLength(23);
    const pages = services.calls.filter((call) => call.name === 'timeline');
    expect(pages.length).toBeLessThanOrEqual(4);
    expect(pages.every((call) => (call.args[2] as number) <= 100)).toBe(true);
    const detail = services.calls.filter((call) => call.name === 'toolOutput');
    expect(detail.every((call) => (call.args[3] as number) <= 7)).toBe(true);
  });
});
