/**
 * `/` search with `n`/`N`, shared by every list and the pager. Pure: the screen's reducer owns
 * one SearchState; the screen asks its service for matches once a query is submitted.
 */
export interface SearchState {
  /** The prompt is open and takes the keys. */
  editing: boolean;
  draft: string;
  /** The submitted query; '' when none. */
  query: string;
  /** Row indexes that match, ascending; null while the service is looking. */
  matches: number[] | null;
}

export const NO_SEARCH: SearchState = { editing: false, draft: '', query: '', matches: [] };

export function openPrompt(state: SearchState): SearchState {
  return { ...state, editing: true, draft: '' };
}

export function cancelPrompt(state: SearchState): SearchState {
  return { ...state, editing: false };
}

export function typeInPrompt(state: SearchState, text: string): SearchState {
  return { ...state, draft: state.draft + text.replace(/[\r\n\t]/g, '') };
}

export function eraseInPrompt(state: SearchState): SearchState {
  return { ...state, draft: [...state.draft].slice(0, -1).join('') };
}

/** Enter in the prompt: the draft becomes the query (an empty draft repeats the last query). */
export function submitPrompt(state: SearchState): SearchState {
  const query = state.draft.trim() === '' ? state.query : state.draft;
  return { editing: false, draft: '', query, matches: query === '' ? [] : null };
}

export function withMatches(state: SearchState, query: string, matches: number[]): SearchState {
  return query === state.query ? { ...state, matches: [...matches].sort((a, b) => a - b) } : state;
}

/** The next match after `from` (wrapping), or the previous one before it; null when none. */
export function nextMatch(state: SearchState, from: number, direction: 1 | -1): number | null {
  const matches = state.matches;
  if (!matches || matches.length === 0) return null;
  if (direction === 1) return matches.find((index) => index > from) ?? matches[0] ?? null;
  return [...matches].reverse().find((index) => index < from) ?? matches[matches.length - 1] ?? null;
}

/** The first match at or after `from` (wrapping): where a fresh search lands. */
export function firstMatchFrom(state: SearchState, from: number): number | null {
  return nextMatch(state, from - 1, 1);
}

/** For the status line: "match 2/5 for "pull"", "no match for "x"", "searching…". */
export function describeSearch(state: SearchState, cursor: number): string | null {
  if (state.query === '') return null;
  if (state.matches === null) return `searching for "${state.query}"…`;
  if (state.matches.length === 0) return `no match for "${state.query}"`;
  const at = state.matches.indexOf(cursor);
  return at >= 0 ? `match ${at + 1}/${state.matches.length} for "${state.query}"` : `${state.matches.length} matches for "${state.query}" (n/N)`;
}
