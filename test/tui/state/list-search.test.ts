import { describe, expect, it } from 'vitest';
import { commonActionOfKey, reduceCommon, submitLocalSearch, type ListScreenState } from '../../../src/tui/state/common.js';
import { commandOf, promptKeyOf, splitPresses } from '../../../src/tui/state/key-commands.js';
import { orderLayers, PRIORITY, routeKey, type KeyLayer } from '../../../src/tui/state/key-routing.js';
import { emptyList, jumpTo, move, position, resize, setTotal } from '../../../src/tui/state/list.js';
import { pagesForWindow, pagesToDrop } from '../../../src/tui/state/pages.js';
import { describeSearch, nextMatch, NO_SEARCH, openPrompt, submitPrompt, typeInPrompt, withMatches } from '../../../src/tui/state/search.js';

describe('list cursor', () => {
  const list = setTotal(emptyList(5), 100);

  it('moves and scrolls just enough to keep the cursor in view', () => {
    let state = list;
    for (let i = 0; i < 6; i += 1) state = move(state, 'down');
    expect(state).toMatchObject({ cursor: 6, top: 2 });
    expect(move(state, 'up')).toMatchObject({ cursor: 5, top: 2 });
    expect(move(list, 'up')).toBe(list);
  });

  it('pages, and goes to either end', () => {
    expect(move(list, 'pageDown')).toMatchObject({ cursor: 5, top: 5 });
    expect(move(list, 'bottom')).toMatchObject({ cursor: 99, top: 95 });
    expect(move(move(list, 'bottom'), 'top')).toMatchObject({ cursor: 0, top: 0 });
    expect(position(move(list, 'bottom'))).toBe('100/100');
  });

  it('shows a jump target with context above it', () => {
    expect(jumpTo(setTotal(emptyList(9), 100), 50)).toMatchObject({ cursor: 50, top: 47 });
    expect(jumpTo(setTotal(emptyList(9), 100), 1)).toMatchObject({ cursor: 1, top: 0 });
  });

  it('keeps the cursor visible when the window shrinks, and within a shorter list', () => {
    const low = jumpTo(setTotal(emptyList(20), 100), 30);
    expect(resize(low, 5)).toMatchObject({ cursor: 30, height: 5 });
    expect(resize(low, 5).top).toBeGreaterThan(25);
    expect(setTotal(low, 10)).toMatchObject({ cursor: 9, total: 10, top: 0 });
    expect(move(emptyList(5), 'down')).toMatchObject({ cursor: 0, top: 0 });
  });
});

describe('search', () => {
  it('types a query, submits it, and lands on the first match at or after the cursor', () => {
    let state: ListScreenState = { list: jumpTo(setTotal(emptyList(5), 50), 10), search: NO_SEARCH };
    for (const action of [{ type: 'search-open' }, { type: 'search-type', text: 'pu' }, { type: 'search-type', text: 'll' }, { type: 'search-erase' }] as const) {
      state = reduceCommon(state, action);
    }
    expect(state.search).toMatchObject({ editing: true, draft: 'pul' });
    state = reduceCommon(state, { type: 'search-submit' });
    expect(state.search).toEqual({ editing: false, draft: '', query: 'pul', matches: null });
    expect(describeSearch(state.search, 0)).toBe('searching for "pul"…');
    state = reduceCommon(state, { type: 'search-results', query: 'pul', matches: [30, 4, 12] });
    expect(state.list.cursor).toBe(12);
    expect(describeSearch(state.search, 12)).toBe('match 2/3 for "pul"');
    state = reduceCommon(state, { type: 'search-step', direction: 1 });
    expect(state.list.cursor).toBe(30);
    state = reduceCommon(state, { type: 'search-step', direction: 1 });
    expect(state.list.cursor).toBe(4);
    state = reduceCommon(state, { type: 'search-step', direction: -1 });
    expect(state.list.cursor).toBe(30);
  });

  it('ignores results of a query that was replaced, and says when nothing matched', () => {
    const searching = submitPrompt(typeInPrompt(openPrompt(NO_SEARCH), 'b'));
    expect(withMatches(searching, 'a', [1])).toBe(searching);
    const none = withMatches(searching, 'b', []);
    expect(nextMatch(none, 0, 1)).toBeNull();
    expect(describeSearch(none, 0)).toBe('no match for "b"');
  });

  it('repeats the last query on an empty Enter', () => {
    const first = withMatches(submitPrompt(typeInPrompt(openPrompt(NO_SEARCH), 'pull')), 'pull', [3]);
    expect(submitPrompt(openPrompt(first)).query).toBe('pull');
  });

  it('matches short in-memory lists without a service', () => {
    const state = submitLocalSearch({ list: setTotal(emptyList(5), 3), search: typeInPrompt(openPrompt(NO_SEARCH), 'GB10') }, ['Deploy Qwen', 'check gb10 tags', 'other']);
    expect(state.list.cursor).toBe(1);
    expect(state.search.matches).toEqual([1]);
  });
});

describe('keys', () => {
  it('maps vi, less and arrow keys to the same commands', () => {
    expect(commandOf('j', {})).toBe('down');
    expect(commandOf('', { downArrow: true })).toBe('down');
    expect(commandOf('k', {})).toBe('up');
    expect(commandOf(' ', {})).toBe('pageDown');
    expect(commandOf('f', { ctrl: true })).toBe('pageDown');
    expect(commandOf('', { pageUp: true })).toBe('pageUp');
    expect(commandOf('g', {})).toBe('top');
    expect(commandOf('G', {})).toBe('bottom');
    expect(commandOf('', { return: true })).toBe('open');
    expect(commandOf('', { escape: true })).toBe('back');
    expect(commandOf('/', {})).toBe('search');
    expect(commandOf('n', {})).toBe('next');
    expect(commandOf('N', {})).toBe('previous');
    expect(commandOf('?', {})).toBe('help');
    expect(commandOf('q', {})).toBe('quit');
    expect(commandOf('x', {})).toBeNull();
  });

  it('sends every key to the prompt while it is open', () => {
    expect(commonActionOfKey('q', {}, true)).toEqual({ type: 'search-type', text: 'q' });
    expect(commonActionOfKey('', { return: true }, true)).toEqual({ type: 'search-submit' });
    expect(commonActionOfKey('', { escape: true }, true)).toEqual({ type: 'search-cancel' });
    expect(promptKeyOf('', { backspace: true })).toEqual({ kind: 'erase' });
    expect(commonActionOfKey('q', {}, false)).toBeNull();
    expect(commonActionOfKey('G', {}, false)).toEqual({ type: 'move', how: 'bottom' });
  });

  it('splits a run of typed keys into presses, Enter and Backspace included', () => {
    expect(splitPresses('jj\r', {})).toEqual([{ input: 'j', key: {} }, { input: 'j', key: {} }, { input: '', key: { return: true } }]);
    expect(splitPresses('a\x7f', {})).toEqual([{ input: 'a', key: {} }, { input: '', key: { backspace: true } }]);
    expect(splitPresses('j', {})).toEqual([{ input: 'j', key: {} }]);
    expect(splitPresses('[A', { upArrow: true })).toEqual([{ input: '[A', key: { upArrow: true } }]);
  });

  it('routes a key to the highest layer first, and down only when unused', () => {
    const seen: string[] = [];
    const layer = (id: number, priority: number, uses: boolean): KeyLayer => ({ id, priority, handle: () => (seen.push(`${id}`), uses) });
    const layers = [layer(0, PRIORITY.global, true), layer(1, PRIORITY.screen, false), layer(2, PRIORITY.dialog, false), layer(3, PRIORITY.screen, false)];
    expect(orderLayers(layers).map((l) => l.id)).toEqual([2, 3, 1, 0]);
    expect(routeKey(layers, 'x', {})).toBe(true);
    expect(seen).toEqual(['2', '3', '1', '0']);
    seen.length = 0;
    expect(routeKey([layer(5, PRIORITY.dialog, true), layer(6, PRIORITY.screen, true)], 'y', {})).toBe(true);
    expect(seen).toEqual(['5']);
  });
});

describe('pages around the window', () => {
  it('holds the pages under the window and half a page either side', () => {
    expect(pagesForWindow(0, 20, 100, null)).toEqual([0]);
    expect(pagesForWindow(95, 20, 100, 1_000)).toEqual([0, 1]);
    expect(pagesForWindow(9_990, 20, 100, 10_000)).toEqual([99]);
    expect(pagesForWindow(0, 20, 100, 0)).toEqual([0]);
  });

  it('drops pages far from the window', () => {
    expect(pagesToDrop([0, 1, 2, 50, 51], [50, 51])).toEqual([0, 1, 2]);
    expect(pagesToDrop([0, 1], [])).toEqual([]);
  });
});
