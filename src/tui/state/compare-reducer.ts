import type { RunStepRow } from '../services.js';
import { reduceCommon, submitLocalSearch, type CommonAction, type ListScreenState } from './common.js';
import { emptyList, moveTo, setTotal } from './list.js';
import { NO_SEARCH } from './search.js';

/** A run beside its record: every step with what the transcript recorded and what happened today. */
export interface CompareState extends ListScreenState {
  steps: RunStepRow[] | null;
  /** `d` shows only the steps whose verdict is `diverged`. */
  onlyDiverged: boolean;
  shown: RunStepRow[];
  error: string | null;
  /** Enter opens the selected step's outputs (recorded beside this run's) at this scroll line; null: the list. */
  outputsScroll: number | null;
}

export type CompareAction =
  | CommonAction
  | { type: 'loaded'; steps: RunStepRow[] }
  | { type: 'failed'; message: string }
  | { type: 'toggle-diverged' }
  | { type: 'outputs-open'; at: number }
  | { type: 'outputs-scroll'; to: number; lines: number; page: number }
  | { type: 'outputs-close' };

export function initialCompare(height: number): CompareState {
  return { steps: null, onlyDiverged: false, shown: [], error: null, outputsScroll: null, list: emptyList(height), search: NO_SEARCH };
}

export function isDiverged(step: RunStepRow): boolean {
  return step.verdict === 'diverged';
}

function show(state: CompareState, steps: RunStepRow[], onlyDiverged: boolean): CompareState {
  const shown = onlyDiverged ? steps.filter(isDiverged) : steps;
  return { ...state, steps, onlyDiverged, shown, list: moveTo(setTotal(state.list, shown.length), 0) };
}

export function compareReducer(state: CompareState, action: CompareAction): CompareState {
  switch (action.type) {
    case 'loaded':
      return { ...show(state, action.steps, state.onlyDiverged), error: null, outputsScroll: null };
    case 'failed':
      return { ...state, error: action.message };
    case 'toggle-diverged':
      return state.steps ? show(state, state.steps, !state.onlyDiverged) : state;
    case 'outputs-open':
      return selectedStep(state) ? { ...state, outputsScroll: Math.max(0, action.at) } : state;
    case 'outputs-scroll':
      // Clamped so the last page stays full: scrolling past the end shows nothing new.
      return state.outputsScroll === null ? state : { ...state, outputsScroll: Math.max(0, Math.min(action.to, action.lines - action.page)) };
    case 'outputs-close':
      return { ...state, outputsScroll: null };
    case 'search-submit':
      return submitLocalSearch(state, state.shown.map((step) => `${step.step_id} ${step.command} ${step.detail ?? ''}`));
    default:
      return reduceCommon(state, action);
  }
}

export function selectedStep(state: CompareState): RunStepRow | undefined {
  return state.shown[state.list.cursor];
}
