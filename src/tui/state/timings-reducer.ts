import type { TimingRow } from '../services.js';
import { reduceCommon, submitLocalSearch, type CommonAction, type ListScreenState } from './common.js';
import { emptyList, moveTo, setTotal } from './list.js';
import { NO_SEARCH } from './search.js';

/** Attempts at the same thing (kind, subject, host) form a group: a retried pull reads as one story. */
export type TimingLine =
  | { kind: 'group'; label: string; subject: string; host: string | null; attempts: number; totalMs: number; outcome: string }
  | { kind: 'attempt'; row: TimingRow; maxMs: number };

export interface TimingsState extends ListScreenState {
  rows: TimingRow[] | null;
  /** 'all' or one kind (pull, download, probe…); `f` steps through them. */
  filter: string;
  lines: TimingLine[];
  error: string | null;
}

export type TimingsAction = CommonAction | { type: 'loaded'; rows: TimingRow[] } | { type: 'failed'; message: string } | { type: 'next-filter' };

export function initialTimings(height: number): TimingsState {
  return { rows: null, filter: 'all', lines: [], error: null, list: emptyList(height), search: NO_SEARCH };
}

export function timingFilters(rows: readonly TimingRow[]): string[] {
  return ['all', ...[...new Set(rows.map((row) => row.kind))].sort()];
}

export function timingLines(rows: readonly TimingRow[], filter: string): TimingLine[] {
  const shown = rows.filter((row) => filter === 'all' || row.kind === filter);
  const maxMs = Math.max(0, ...shown.map((row) => row.duration_ms ?? 0));
  const groups = new Map<string, TimingRow[]>();
  for (const row of shown) {
    const key = `${row.kind}\u0000${row.subject}\u0000${row.host ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const lines: TimingLine[] = [];
  for (const attempts of groups.values()) {
    const first = attempts[0];
    if (!first) continue;
    const ordered = [...attempts].sort((a, b) => a.attempt - b.attempt);
    const last = ordered[ordered.length - 1] ?? first;
    lines.push({
      kind: 'group',
      label: first.kind,
      subject: first.subject,
      host: first.host,
      attempts: ordered.length,
      totalMs: ordered.reduce((sum, row) => sum + (row.duration_ms ?? 0), 0),
      outcome: last.outcome,
    });
    for (const row of ordered) lines.push({ kind: 'attempt', row, maxMs });
  }
  return lines;
}

function lineText(line: TimingLine): string {
  return line.kind === 'group' ? `${line.label} ${line.subject} ${line.host ?? ''}` : `${line.row.subject} ${line.row.outcome}`;
}

function withLines(state: TimingsState, rows: TimingRow[], filter: string): TimingsState {
  const lines = timingLines(rows, filter);
  return { ...state, rows, filter, lines, list: moveTo(setTotal(state.list, lines.length), 0) };
}

export function timingsReducer(state: TimingsState, action: TimingsAction): TimingsState {
  switch (action.type) {
    case 'loaded':
      return { ...withLines(state, action.rows, state.filter), error: null };
    case 'failed':
      return { ...state, error: action.message };
    case 'next-filter': {
      if (!state.rows) return state;
      const filters = timingFilters(state.rows);
      const next = filters[(filters.indexOf(state.filter) + 1) % filters.length] ?? 'all';
      return withLines(state, state.rows, next);
    }
    case 'search-submit':
      return submitLocalSearch(state, state.lines.map(lineText));
    default:
      return reduceCommon(state, action);
  }
}

export function selectedTimingLine(state: TimingsState): TimingLine | undefined {
  return state.lines[state.list.cursor];
}
