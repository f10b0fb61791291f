import { commandOf, isListMove, promptKeyOf, type KeyInfo } from './key-commands.js';
import { jumpTo, move, resize, setTotal, type ListMove, type ListState } from './list.js';
import {
  cancelPrompt,
  eraseInPrompt,
  firstMatchFrom,
  nextMatch,
  openPrompt,
  submitPrompt,
  typeInPrompt,
  withMatches,
  type SearchState,
} from './search.js';

/** `/` search with n/N, the same in every list and in the pager. */
export type SearchAction =
  | { type: 'search-open' }
  | { type: 'search-type'; text: string }
  | { type: 'search-erase' }
  | { type: 'search-cancel' }
  | { type: 'search-submit' }
  | { type: 'search-results'; query: string; matches: number[] }
  | { type: 'search-step'; direction: 1 | -1 };

/**
 * What every list screen does the same way: move, resize, and `/` search with n/N. Each
 * screen's reducer handles its own actions and passes these to `reduceCommon`.
 */
export type CommonAction =
  | { type: 'move'; how: ListMove }
  | { type: 'jump'; index: number }
  | { type: 'resize'; height: number }
  | { type: 'total'; total: number }
  | SearchAction;

export interface ListScreenState {
  list: ListState;
  search: SearchState;
}

export function reduceCommon<S extends ListScreenState>(state: S, action: CommonAction): S {
  switch (action.type) {
    case 'move':
      return { ...state, list: move(state.list, action.how) };
    case 'jump':
      return { ...state, list: jumpTo(state.list, action.index) };
    case 'resize':
      return { ...state, list: resize(state.list, action.height) };
    case 'total':
      return { ...state, list: setTotal(state.list, action.total) };
    case 'search-open':
      return { ...state, search: openPrompt(state.search) };
    case 'search-type':
      return { ...state, search: typeInPrompt(state.search, action.text) };
    case 'search-erase':
      return { ...state, search: eraseInPrompt(state.search) };
    case 'search-cancel':
      return { ...state, search: cancelPrompt(state.search) };
    case 'search-submit':
      return { ...state, search: submitPrompt(state.search) };
    case 'search-results': {
      const search = withMatches(state.search, action.query, action.matches);
      if (search === state.search) return state;
      const target = firstMatchFrom(search, state.list.cursor);
      return { ...state, search, list: target === null ? state.list : jumpTo(state.list, target) };
    }
    case 'search-step': {
      const target = nextMatch(state.search, state.list.cursor, action.direction);
      return target === null ? state : { ...state, list: jumpTo(state.list, target) };
    }
  }
}

/** Keys while a search prompt is open edit the query; null for a key the prompt ignores. */
export function searchPromptAction(input: string, key: KeyInfo): SearchAction | null {
  const prompt = promptKeyOf(input, key);
  switch (prompt.kind) {
    case 'submit':
      return { type: 'search-submit' };
    case 'cancel':
      return { type: 'search-cancel' };
    case 'erase':
      return { type: 'search-erase' };
    case 'type':
      return { type: 'search-type', text: prompt.text };
    case 'ignore':
      return null;
  }
}

/** The common action a key means, or null when the screen should look at it itself. */
export function commonActionOfKey(input: string, key: KeyInfo, editing: boolean): CommonAction | null {
  // A key the prompt ignores is still the prompt's: it must not reach the list behind it.
  if (editing) return searchPromptAction(input, key) ?? { type: 'search-type', text: '' };
  const command = commandOf(input, key);
  if (isListMove(command)) return { type: 'move', how: command };
  if (command === 'search') return { type: 'search-open' };
  if (command === 'next') return { type: 'search-step', direction: 1 };
  if (command === 'previous') return { type: 'search-step', direction: -1 };
  return null;
}

/** Enter in the prompt of a short list held in memory: matched here, no service asked. */
export function submitLocalSearch<S extends ListScreenState>(state: S, texts: readonly string[]): S {
  const submitted = reduceCommon(state, { type: 'search-submit' });
  const query = submitted.search.query;
  if (query === '') return submitted;
  const needle = query.toLowerCase();
  const matches = texts.flatMap((text, index) => (text.toLowerCase().includes(needle) ? [index] : []));
  return reduceCommon(submitted, { type: 'search-results', query, matches });
}
