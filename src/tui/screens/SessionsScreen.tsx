import { useReducer } from 'react';
import { Line } from '../components/Line.js';
import { ScreenFrame } from '../components/ScreenFrame.js';
import { VirtualList } from '../components/VirtualList.js';
import { dateRange, fit, fitRight, oneLine } from '../format.js';
import { useListKeys } from '../hooks/use-list-keys.js';
import { useRefresh } from '../hooks/use-refresh.js';
import { useServiceCall } from '../hooks/use-service-call.js';
import { seg, type Segment } from '../segments.js';
import type { SessionRow } from '../services.js';
import { useNavigator, useServices } from '../state/contexts.js';
import { used } from '../state/key-routing.js';
import { position } from '../state/list.js';
import { describeSearch } from '../state/search.js';
import { initialSessions, selectedSession, sessionsReducer } from '../state/sessions-reducer.js';
import { stepStatusMark } from '../verdicts.js';
import type { ScreenProps } from './screen-props.js';

/** agent, title, dates, messages, calls, candidates: the title takes what the others leave. */
export function sessionRowSegments(session: SessionRow, width: number): Segment[] {
  const fixed = 9 + 23 + 7 + 7 + 6;
  const title = `${session.parent_id ? '↳ ' : ''}${oneLine(session.title ?? session.id)}`;
  return [
    seg(fit(session.agent, 9), 'accent'),
    seg(fit(title, Math.max(8, width - fixed))),
    seg(fit(` ${dateRange(session.started_at, session.ended_at)}`, 23), 'dim'),
    seg(fitRight(String(session.messages), 7)),
    seg(fitRight(String(session.tool_calls), 7)),
    seg(fitRight(session.candidates === null ? '–' : String(session.candidates), 6)),
  ];
}

export function sessionsHeader(width: number): Segment[] {
  const fixed = 9 + 23 + 7 + 7 + 6;
  return [seg(`  ${fit('agent', 9)}${fit('title', Math.max(8, width - fixed))}${fit(' dates (UTC)', 23)}${fitRight('msgs', 7)}${fitRight('calls', 7)}${fitRight('cand', 6)}`, 'dim')];
}

/** The selected session in full: its id, whose sub-agent it is, its newest run, where it came from, its whole title. */
export function sessionFooter(session: SessionRow): Segment[] {
  const parent = session.parent_id ? ` · sub-agent of ${session.parent_id}` : '';
  const origin = [session.machine ? `@${session.machine}` : null, session.directory ? oneLine(session.directory) : null].filter(Boolean).join(' ');
  return [
    seg(`  ${session.id}${parent}`, 'dim'),
    ...lastRunSegments(session),
    ...(origin ? [seg(` · ${origin}`, 'accent')] : []),
    seg(session.title ? ` · ${oneLine(session.title)}` : ''),
  ];
}

/** What became of the session's replays: the newest run's id, mode and status (r lists them all). */
export function lastRunSegments(session: SessionRow): Segment[] {
  const run = session.last_run;
  if (!run) return [];
  const { mark, tone } = stepStatusMark(run.status);
  const more = (session.runs ?? 1) > 1 ? ` (of ${session.runs} runs)` : '';
  return [seg(` · last run ${run.id} ${run.mode} `, 'dim'), seg(`${mark} ${run.status}`, tone), seg(more, 'dim')];
}

export function SessionsScreen({ width, height, visible }: ScreenProps) {
  const services = useServices();
  const navigator = useNavigator();
  const listHeight = Math.max(1, height - 4);
  const [state, dispatch] = useReducer(sessionsReducer, listHeight, initialSessions);
  // Asked again while shown: sessions an ingest adds meanwhile appear without a restart.
  const generation = useRefresh(visible);
  useServiceCall(() => services.listSessions(), (result) => dispatch(result.ok ? { type: 'loaded', sessions: result.value } : { type: 'failed', message: result.message }), [generation]);
  const selected = selectedSession(state);
  useListKeys({
    editing: state.search.editing,
    active: visible,
    height: listHeight,
    dispatch,
    own: (input, key) => {
      if (input === 'r') return used(() => navigator.open({ screen: 'runs' }));
      if (!selected) return false;
      const title = selected.title ?? selected.id;
      // The timeline's header names the machine the session came from (a lake holds many).
      if (key.return) navigator.open({ screen: 'timeline', sessionId: selected.id, title: selected.machine ? `${title} @${selected.machine}` : title });
      else if (input === 'd') navigator.open({ screen: 'tree', sessionId: selected.id, title });
      else if (input === 't') navigator.open({ screen: 'timings', sessionId: selected.id, title });
      else return false;
      return true;
    },
  });
  if (!visible) return null;
  const status = describeSearch(state.search, state.list.cursor) ?? (state.sessions ? `session ${position(state.list)}` : 'loading…');
  return (
    <ScreenFrame width={width} height={height} title="Sessions" status={status} error={state.error} prompt={state.search.editing ? state.search.draft : null}>
      <Line segments={sessionsHeader(width - 2)} width={width} />
      <VirtualList
        list={state.list}
        width={width}
        rowAt={(index) => state.sessions?.[index]}
        renderRow={(row) => (row ? sessionRowSegments(row, width - 2) : [seg('…', 'dim')])}
        empty={state.sessions ? 'no sessions in this store: run `retrace ingest` first' : 'loading…'}
      />
      <Line segments={selected ? sessionFooter(selected) : []} width={width} />
    </ScreenFrame>
  );
}
