import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { fakeServices } from './fake-services.js';
import { SESSION_ID, SESSION_TITLE } from './fake-session.js';
import { renderApp } from './render-app.js';
import { leadingText, splitPresses } from '../../src/tui/state/key-commands.js';

afterEach(cleanup);

const timeline = { screen: 'timeline' as const, sessionId: SESSION_ID, title: SESSION_TITLE };
const QUERY = 'docker/pull-image';

/** Keys reach the focused input in order however they are chunked (issue 17.2). */
describe('a burst of keys', () => {
  it('written as one chunk goes into the search prompt, never to the screen behind it', async () => {
    const app = renderApp(fakeServices(), [timeline]);
    await app.waitForText('#12');
    app.stdin.write(`/${QUERY}`);
    const frame = await app.waitForText(`/${QUERY}`);
    expect(frame).toContain('Timeline ·');
  });

  it('written one character per chunk with no pause goes into the search prompt too', async () => {
    const app = renderApp(fakeServices(), [timeline]);
    await app.waitForText('#12');
    for (const char of `/${QUERY}`) app.stdin.write(char);
    const frame = await app.waitForText(`/${QUERY}`);
    expect(frame).toContain('Timeline ·');
  });

  it('written before the screen has loaded still arrives whole', async () => {
    const app = renderApp(fakeServices(), [timeline]);
    for (const char of `/${QUERY}`) app.stdin.write(char);
    const frame = await app.waitForText(`/${QUERY}`);
    expect(frame).toContain('Timeline ·');
  });
});

describe('leadingText', () => {
  it('takes the typed characters up to the first Enter, Esc or control key', () => {
    expect(leadingText(splitPresses('pull-image\rn', {}))).toEqual({ count: 10, text: 'pull-image' });
    expect(leadingText([{ input: 'a', key: { ctrl: true } }, { input: 'b', key: {} }])).toEqual({ count: 0, text: '' });
  });
});
