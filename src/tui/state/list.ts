/**
 * A cursor over a long list seen through a window of `height` rows. Pure: every screen's
 * reducer keeps one and moves it with these functions; only rows [top, top + height) are drawn.
 */
export interface ListState {
  cursor: number;
  top: number;
  total: number;
  height: number;
}

export type ListMove = 'up' | 'down' | 'pageUp' | 'pageDown' | 'top' | 'bottom';

export function emptyList(height: number, total = 0): ListState {
  return { cursor: 0, top: 0, total, height: Math.max(1, height) };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high));
}

/** Puts the cursor on `index` (clamped) and scrolls just enough to show it. */
export function moveTo(state: ListState, index: number): ListState {
  const cursor = state.total === 0 ? 0 : clamp(index, 0, state.total - 1);
  let top = state.top;
  if (cursor < top) top = cursor;
  if (cursor >= top + state.height) top = cursor - state.height + 1;
  top = clamp(top, 0, state.total - state.height);
  return cursor === state.cursor && top === state.top ? state : { ...state, cursor, top };
}

export function move(state: ListState, how: ListMove): ListState {
  switch (how) {
    case 'up':
      return moveTo(state, state.cursor - 1);
    case 'down':
      return moveTo(state, state.cursor + 1);
    case 'pageUp':
      return moveTo({ ...state, top: Math.max(0, state.top - state.height) }, state.cursor - state.height);
    case 'pageDown':
      return moveTo({ ...state, top: Math.min(Math.max(0, state.total - state.height), state.top + state.height) }, state.cursor + state.height);
    case 'top':
      return moveTo(state, 0);
    case 'bottom':
      return moveTo(state, state.total - 1);
  }
}

/** Shows `index` with a little context above it (a jump target reads better mid-screen). */
export function jumpTo(state: ListState, index: number): ListState {
  const moved = moveTo(state, index);
  const context = Math.floor(state.height / 3);
  const top = clamp(moved.cursor - context, 0, moved.total - moved.height);
  return { ...moved, top: Math.min(top, moved.cursor) };
}

export function resize(state: ListState, height: number): ListState {
  const next = { ...state, height: Math.max(1, height) };
  return moveTo({ ...next, top: clamp(next.top, 0, next.total - next.height) }, next.cursor);
}

export function setTotal(state: ListState, total: number): ListState {
  if (total === state.total) return state;
  return moveTo({ ...state, total: Math.max(0, total) }, state.cursor);
}

/** Where the window is, for the status line: `24/87`. */
export function position(state: ListState): string {
  return state.total === 0 ? '0/0' : `${state.cursor + 1}/${state.total}`;
}
