import { useReducer } from 'react';
import { Line } from '../components/Line.js';
import { ScreenFrame, FRAME_LINES } from '../components/ScreenFrame.js';
import { VirtualList } from '../components/VirtualList.js';
import { bar, duration, fit, fitRight, plural } from '../format.js';
import { useListKeys } from '../hooks/use-list-keys.js';
import { useServiceCall } from '../hooks/use-service-call.js';
import type { Route } from '../routes.js';
import { seg, type Segment } from '../segments.js';
import { useNavigator, useServices } from '../state/contexts.js';
import { used } from '../state/key-routing.js';
import { position } from '../state/list.js';
import { describeSearch } from '../state/search.js';
import { initialTimings, selectedTimingLine, timingsReducer, type TimingLine } from '../state/timings-reducer.js';
import { verdictMark } from '../verdicts.js';
import type { ScreenProps } from './screen-props.js';

type TimingsRoute = Extract<Route, { screen: 'timings' }>;

/**
 * A probe's outcome in the tree's words: one that rejected its candidate reads `rejected`, one
 * that confirmed it `confirmed` (the store says negative/positive), so a rejecting probe never
 * reads as a success.
 */
export function timingOutcome(kind: string, outcome: string): string {
  if (kind !== 'probe') return outcome;
  return outcome === 'negative' ? 'rejected' : outcome === 'positive' ? 'confirmed' : outcome;
}

/** Group lines name the thing; attempt lines draw its duration as a bar on a shared scale. */
export function timingLineSegments(line: TimingLine | undefined, width: number): Segment[] {
  if (!line) return [seg('…', 'dim')];
  if (line.kind === 'group') {
    const outcome = timingOutcome(line.label, line.outcome);
    const { mark, tone } = verdictMark(outcome);
    const attempts = line.attempts > 1 ? ` · ${plural(line.attempts, 'attempt')}` : '';
    return [
      seg(`${fit(line.label, 9)}`, 'accent'),
      seg(line.subject, 'title'),
      seg(`${line.host ? ` @${line.host}` : ''}${attempts} · ${duration(line.totalMs)} `, 'dim'),
      seg(`${mark} ${outcome}`, tone),
    ];
  }
  const { row } = line;
  const outcome = timingOutcome(row.kind, row.outcome);
  const { mark, tone } = verdictMark(outcome);
  const speed = row.mb_per_s ? ` ${row.mb_per_s.toFixed(1)} MB/s` : '';
  // The same width on every row: the bars share one scale.
  const barWidth = Math.max(4, width - 46);
  return [
    seg(`   #${fit(String(row.attempt), 3)}`, 'dim'),
    seg(bar(row.duration_ms ?? 0, line.maxMs, barWidth), tone === 'danger' || tone === 'warn' ? tone : 'accent'),
    seg(`${fitRight(duration(row.duration_ms), 7)} `),
    seg(`${mark} ${fit(outcome, 9)}`, tone),
    seg(speed, 'dim'),
  ];
}

/** Pulls, downloads and probes with their durations as bars; retries sit under one heading. */
export function TimingsScreen({ width, height, visible, route }: ScreenProps & { route: TimingsRoute }) {
  const services = useServices();
  const navigator = useNavigator();
  const listHeight = Math.max(1, height - FRAME_LINES - 1);
  const [state, dispatch] = useReducer(timingsReducer, listHeight, initialTimings);
  const { sessionId } = route;
  useServiceCall(() => services.timings(sessionId), (result) => dispatch(result.ok ? { type: 'loaded', rows: result.value } : { type: 'failed', message: result.message }), [sessionId]);
  const selected = selectedTimingLine(state);
  useListKeys({
    editing: state.search.editing,
    active: visible,
    height: listHeight,
    dispatch,
    own: (input, key) => {
      if (input === 'f') return used(() => dispatch({ type: 'next-filter' }));
      if (!key.return || selected?.kind !== 'attempt' || !sessionId) return false;
      const ordinal = selected.row.message_ordinal;
      if (ordinal === null || ordinal === undefined) return false;
      const focus = selected.row.call_id ? { ordinal, callId: selected.row.call_id } : { ordinal };
      navigator.open({ screen: 'timeline', sessionId, title: route.title, focus });
      return true;
    },
  });
  if (!visible) return null;
  // The scale of the bars shown: the longest attempt in this filter, not in the whole session.
  const longest = Math.max(0, ...state.lines.map((line) => (line.kind === 'attempt' ? (line.row.duration_ms ?? 0) : 0)));
  const status = describeSearch(state.search, state.list.cursor) ?? (state.rows ? `row ${position(state.list)}` : 'loading…');
  return (
    <ScreenFrame width={width} height={height} title={`Timings · ${route.title}`} status={status} error={state.error} prompt={state.search.editing ? state.search.draft : null}>
      <Line segments={[seg(` showing: ${state.filter} (f: next filter) · bars on one scale, longest ${duration(longest)}`, 'dim')]} width={width} />
      <VirtualList list={state.list} width={width} rowAt={(index) => state.lines[index]} renderRow={(line) => timingLineSegments(line, width - 2)} empty={state.error ? 'no timings' : state.rows ? 'nothing timed: no pull, download, probe or build in this filter' : 'loading…'} />
    </ScreenFrame>
  );
}
