import type { TreeView } from '../services.js';
import { reduceCommon, submitLocalSearch, type CommonAction, type ListScreenState } from './common.js';
import { emptyList, setTotal } from './list.js';
import { NO_SEARCH } from './search.js';

type Candidate = TreeView['candidates'][number];
type Pivot = TreeView['pivots'][number];

/** The tree as rows: candidates in the order they were tried, each pivot under the candidate it left. */
export type TreeRow = { kind: 'candidate'; candidate: Candidate; step: number } | { kind: 'pivot'; pivot: Pivot };

export interface TreeState extends ListScreenState {
  tree: TreeView | null;
  rows: TreeRow[];
  error: string | null;
}

export type TreeAction = CommonAction | { type: 'loaded'; tree: TreeView } | { type: 'failed'; message: string };

export function initialTree(height: number): TreeState {
  return { tree: null, rows: [], error: null, list: emptyList(height), search: NO_SEARCH };
}

export function treeRows(tree: TreeView): TreeRow[] {
  const rows: TreeRow[] = [];
  const placed = new Set<Pivot>();
  tree.candidates.forEach((candidate, step) => {
    rows.push({ kind: 'candidate', candidate, step: step + 1 });
    for (const pivot of tree.pivots) {
      if (pivot.from === candidate.name && !placed.has(pivot)) {
        rows.push({ kind: 'pivot', pivot });
        placed.add(pivot);
      }
    }
  });
  for (const pivot of tree.pivots) if (!placed.has(pivot)) rows.push({ kind: 'pivot', pivot });
  return rows;
}

function rowText(row: TreeRow): string {
  return row.kind === 'candidate'
    ? `${row.candidate.name} ${row.candidate.kind} ${row.candidate.verdict} ${row.candidate.reason ?? ''}`
    : `${row.pivot.from} ${row.pivot.to} ${row.pivot.reason ?? ''}`;
}

export function treeReducer(state: TreeState, action: TreeAction): TreeState {
  switch (action.type) {
    case 'loaded': {
      const rows = treeRows(action.tree);
      return { ...state, tree: action.tree, rows, error: null, list: setTotal(state.list, rows.length) };
    }
    case 'failed':
      return { ...state, error: action.message };
    case 'search-submit':
      return submitLocalSearch(state, state.rows.map(rowText));
    default:
      return reduceCommon(state, action);
  }
}

export function selectedTreeRow(state: TreeState): TreeRow | undefined {
  return state.rows[state.list.cursor];
}
