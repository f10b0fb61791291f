import type { Route } from '../routes.js';

/** A screen on the stack; `id` keeps it mounted (and its state kept) while screens above it come and go. */
export interface StackEntry {
  id: number;
  route: Route;
}

/** The screens the user came through (the last one is shown) and whether `?` is open. */
export interface NavigationState {
  stack: StackEntry[];
  nextId: number;
  helpOpen: boolean;
}

export type NavigationAction =
  | { type: 'open'; route: Route }
  | { type: 'back' }
  | { type: 'toggle-help' }
  | { type: 'close-help' };

export function initialNavigation(routes: readonly Route[]): NavigationState {
  const start = routes.length > 0 ? routes : [{ screen: 'sessions' } satisfies Route];
  return { stack: start.map((route, id) => ({ id, route })), nextId: start.length, helpOpen: false };
}

/** Deep stacks lose their oldest screens: a long chain of jumps never grows without end. */
const MAX_DEPTH = 24;

export function navigationReducer(state: NavigationState, action: NavigationAction): NavigationState {
  switch (action.type) {
    case 'open': {
      const stack = [...state.stack, { id: state.nextId, route: action.route }];
      return { stack: stack.slice(Math.max(0, stack.length - MAX_DEPTH)), nextId: state.nextId + 1, helpOpen: false };
    }
    case 'back':
      if (state.helpOpen) return { ...state, helpOpen: false };
      return state.stack.length > 1 ? { ...state, stack: state.stack.slice(0, -1) } : state;
    case 'toggle-help':
      return { ...state, helpOpen: !state.helpOpen };
    case 'close-help':
      return state.helpOpen ? { ...state, helpOpen: false } : state;
  }
}

export function currentRoute(state: NavigationState): Route {
  const entry = state.stack[state.stack.length - 1];
  if (!entry) throw new Error('navigation: the screen stack is empty');
  return entry.route;
}
