import type { RunRow } from '../services.js';
import { reduceCommon, submitLocalSearch, type CommonAction, type ListScreenState } from './common.js';
import { emptyList, setTotal } from './list.js';
import { NO_SEARCH } from './search.js';

export interface RunsState extends ListScreenState {
  runs: RunRow[] | null;
  error: string | null;
}

export type RunsAction = CommonAction | { type: 'loaded'; runs: RunRow[] } | { type: 'failed'; message: string };

export function initialRuns(height: number): RunsState {
  return { runs: null, error: null, list: emptyList(height), search: NO_SEARCH };
}

export function runsReducer(state: RunsState, action: RunsAction): RunsState {
  switch (action.type) {
    case 'loaded':
      return { ...state, runs: action.runs, error: null, list: setTotal(state.list, action.runs.length) };
    case 'failed':
      return { ...state, error: action.message };
    case 'search-submit':
      return submitLocalSearch(state, (state.runs ?? []).map((run) => `${run.id} ${run.plan ?? ''} ${run.session_id ?? ''} ${run.status} ${run.mode}`));
    default:
      return reduceCommon(state, action);
  }
}

export function selectedRun(state: RunsState): RunRow | undefined {
  return state.runs?.[state.list.cursor];
}
