import { reduceCommon, type CommonAction, type ListScreenState } from './common.js';
import { emptyList, jumpTo } from './list.js';
import { NO_SEARCH } from './search.js';

/**
 * The timeline's rows live in the page cache (usePagedRows), not here: the reducer holds only
 * where the user is, so a 10,000-message session costs the same as a short one.
 */
export interface TimelineState extends ListScreenState {
  error: string | null;
  /** A row to show once the row count is known (opened on a message from elsewhere). */
  pendingFocus: number | null;
}

export type TimelineAction = CommonAction | { type: 'failed'; message: string } | { type: 'focus'; index: number };

export function initialTimeline(height: number): TimelineState {
  return { error: null, pendingFocus: null, list: emptyList(height), search: NO_SEARCH };
}

export function timelineReducer(state: TimelineState, action: TimelineAction): TimelineState {
  switch (action.type) {
    case 'failed':
      return { ...state, error: action.message };
    case 'focus':
      return action.index < state.list.total
        ? { ...state, pendingFocus: null, list: jumpTo(state.list, action.index) }
        : { ...state, pendingFocus: action.index };
    case 'total': {
      const counted = reduceCommon(state, action);
      const pending = counted.pendingFocus;
      return pending !== null && pending < counted.list.total ? { ...counted, pendingFocus: null, list: jumpTo(counted.list, pending) } : counted;
    }
    default:
      return reduceCommon(state, action);
  }
}

/** The body splits into the list and, below it, the selected row's detail. */
export function timelineLayout(bodyHeight: number): { listHeight: number; detailHeight: number } {
  const detailHeight = bodyHeight >= 14 ? Math.max(5, Math.floor(bodyHeight * 0.35)) : 0;
  return { listHeight: Math.max(1, bodyHeight - detailHeight), detailHeight };
}
