import { searchPromptAction, type SearchAction } from './common.js';
import { commandOf, type KeyInfo } from './key-commands.js';
import { cancelPrompt, eraseInPrompt, nextMatch, firstMatchFrom, NO_SEARCH, openPrompt, submitPrompt, typeInPrompt, withMatches, type SearchState } from './search.js';

/** A window over a long text: `top` is its first line shown, `left` its first column. */
export interface PagerState {
  top: number;
  left: number;
  total: number | null;
  height: number;
  search: SearchState;
  /** The line of the match the user stepped to, marked on screen. */
  current: number | null;
  /** Long lines wrap onto the rows below (`w`) instead of being cut at the right edge. */
  wrap: boolean;
  /** The lines that decided a verdict (opened from Why), marked; the first is where the pager opens. */
  decisive: number[];
}

export type PagerAction =
  | { type: 'scroll'; by: number }
  | { type: 'scroll-to'; line: number }
  | { type: 'pan'; by: number }
  | { type: 'resize'; height: number }
  | { type: 'total'; total: number }
  | { type: 'toggle-wrap' }
  /** `open`: the line to open at (the one the reader chose), else the first. */
  | { type: 'decisive'; lines: number[]; open?: number }
  /** Brings columns [column, column + length) of the current line into view when lines are cut. */
  | { type: 'reveal'; column: number; length: number; width: number }
  | SearchAction;

export function initialPager(height: number, wrap = false): PagerState {
  return { top: 0, left: 0, total: null, height: Math.max(1, height), search: NO_SEARCH, current: null, wrap, decisive: [] };
}

function maxTop(state: PagerState): number {
  return Math.max(0, (state.total ?? 0) - state.height);
}

function scrollTo(state: PagerState, line: number): PagerState {
  return { ...state, top: Math.min(Math.max(0, line), maxTop(state)) };
}

/** A match is shown a few lines below the top, so the lines before it give context. */
function showMatch(state: PagerState, line: number | null): PagerState {
  if (line === null) return state;
  return { ...scrollTo(state, line - Math.min(3, Math.floor(state.height / 4))), current: line };
}

export function pagerReducer(state: PagerState, action: PagerAction): PagerState {
  switch (action.type) {
    case 'scroll':
      return scrollTo(state, state.top + action.by);
    case 'scroll-to':
      return scrollTo(state, action.line);
    case 'pan':
      return state.wrap ? state : { ...state, left: Math.max(0, state.left + action.by) };
    case 'toggle-wrap':
      return { ...state, wrap: !state.wrap, left: 0 };
    case 'decisive': {
      const lines = [...new Set(action.lines)].sort((a, b) => a - b);
      return showMatch({ ...state, decisive: lines }, action.open ?? lines[0] ?? null);
    }
    case 'reveal': {
      if (state.wrap || action.column < 0) return state;
      const width = Math.max(1, action.width);
      const inView = action.column >= state.left && action.column + action.length <= state.left + width;
      // A quarter of the width of context before the match, as a match scrolled to vertically gets lines above.
      return inView ? state : { ...state, left: Math.max(0, action.column - Math.floor(width / 4)) };
    }
    case 'resize':
      return scrollTo({ ...state, height: Math.max(1, action.height) }, state.top);
    case 'total':
      return scrollTo({ ...state, total: action.total }, state.top);
    case 'search-open':
      return { ...state, search: openPrompt(state.search) };
    case 'search-type':
      return { ...state, search: typeInPrompt(state.search, action.text) };
    case 'search-erase':
      return { ...state, search: eraseInPrompt(state.search) };
    case 'search-cancel':
      return { ...state, search: cancelPrompt(state.search) };
    case 'search-submit':
      return { ...state, search: submitPrompt(state.search), current: null };
    case 'search-results': {
      const search = withMatches(state.search, action.query, action.matches);
      return search === state.search ? state : showMatch({ ...state, search }, firstMatchFrom(search, state.top));
    }
    case 'search-step':
      return showMatch(state, nextMatch(state.search, state.current ?? state.top - 1, action.direction));
  }
}

/** Keys outside the search prompt: less habits (space, b, g, G) and vi ones (j, k, h, l). */
export function pagerActionOfKey(input: string, key: KeyInfo, state: PagerState): PagerAction | null {
  const command = commandOf(input, key);
  const page = Math.max(1, state.height - 1);
  switch (command) {
    case 'up':
      return { type: 'scroll', by: -1 };
    case 'down':
      return { type: 'scroll', by: 1 };
    case 'pageUp':
      return { type: 'scroll', by: -page };
    case 'pageDown':
      return { type: 'scroll', by: page };
    case 'top':
      return { type: 'scroll-to', line: 0 };
    case 'bottom':
      return { type: 'scroll-to', line: Number.MAX_SAFE_INTEGER };
    case 'left':
      return { type: 'pan', by: -20 };
    case 'right':
      return { type: 'pan', by: 20 };
    case 'search':
      return { type: 'search-open' };
    case 'next':
      return { type: 'search-step', direction: 1 };
    case 'previous':
      return { type: 'search-step', direction: -1 };
    default:
      if (input === 'w') return { type: 'toggle-wrap' };
      return input === 'b' ? { type: 'scroll', by: -page } : null;
  }
}

/** Keys while the search prompt is open: they edit the query. */
export function pagerPromptAction(input: string, key: KeyInfo): PagerAction | null {
  return searchPromptAction(input, key);
}
