import type { SessionRow } from '../services.js';
import { reduceCommon, submitLocalSearch, type CommonAction, type ListScreenState } from './common.js';
import { emptyList, setTotal } from './list.js';
import { NO_SEARCH } from './search.js';

export interface SessionsState extends ListScreenState {
  sessions: SessionRow[] | null;
  error: string | null;
}

export type SessionsAction = CommonAction | { type: 'loaded'; sessions: SessionRow[] } | { type: 'failed'; message: string };

export function initialSessions(height: number): SessionsState {
  return { sessions: null, error: null, list: emptyList(height), search: NO_SEARCH };
}

/** What `/` looks in: the title, the id and the agent (the list is short, so it is searched here). */
function searchText(session: SessionRow): string {
  return `${session.title ?? ''} ${session.id} ${session.agent}`;
}

export function sessionsReducer(state: SessionsState, action: SessionsAction): SessionsState {
  switch (action.type) {
    case 'loaded':
      return { ...state, sessions: action.sessions, error: null, list: setTotal(state.list, action.sessions.length) };
    case 'failed':
      return { ...state, error: action.message };
    case 'search-submit':
      return submitLocalSearch(state, (state.sessions ?? []).map(searchText));
    default:
      return reduceCommon(state, action);
  }
}

export function selectedSession(state: SessionsState): SessionRow | undefined {
  return state.sessions?.[state.list.cursor];
}
