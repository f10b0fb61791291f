import { Box } from 'ink';
import { useEffect, useReducer, useState } from 'react';
import { Line } from '../components/Line.js';
import { ScreenFrame, FRAME_LINES } from '../components/ScreenFrame.js';
import { VirtualList } from '../components/VirtualList.js';
import { useListKeys } from '../hooks/use-list-keys.js';
import { usePagedRows } from '../hooks/use-paged-rows.js';
import { useServiceCall } from '../hooks/use-service-call.js';
import type { Route } from '../routes.js';
import type { OutputPage, TuiServices } from '../services.js';
import { useNavigator, useServices } from '../state/contexts.js';
import { used } from '../state/key-routing.js';
import { position } from '../state/list.js';
import { describeSearch } from '../state/search.js';
import { initialTimeline, timelineLayout, timelineReducer } from '../state/timeline-reducer.js';
import { copyCallCommand } from './OutputScreen.js';
import type { ScreenProps } from './screen-props.js';
import { timelineDetailLines, timelineRowSegments } from './timeline-rows.js';

type TimelineRoute = Extract<Route, { screen: 'timeline' }>;

export function TimelineScreen({ width, height, visible, route }: ScreenProps & { route: TimelineRoute }) {
  const services = useServices();
  const navigator = useNavigator();
  const { listHeight, detailHeight } = timelineLayout(height - FRAME_LINES);
  const [state, dispatch] = useReducer(timelineReducer, listHeight, initialTimeline);
  const { sessionId } = route;
  const rows = usePagedRows(sessionId, (offset, limit) => services.timeline(sessionId, offset, limit), state.list.top, listHeight, {
    onTotal: (total) => dispatch({ type: 'total', total }),
  });
  const selected = rows.rowAt(state.list.cursor);
  const [head, setHead] = useState<OutputPage | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => setNotice(null), [state.list.cursor]);

  useEffect(() => {
    if (rows.error) dispatch({ type: 'failed', message: rows.error });
  }, [rows.error]);

  // Opened from evidence or a timing: start on that message (or on that call of it).
  const focus = route.focus;
  useServiceCall(
    focus ? () => focusIndex(services, sessionId, focus) : null,
    (result) => (result.ok && result.value !== null ? dispatch({ type: 'focus', index: result.value }) : undefined),
    [sessionId, focus?.ordinal, focus?.callId],
  );
  const { query, matches } = state.search;
  useServiceCall(
    query !== '' && matches === null ? () => services.searchTimeline(sessionId, query) : null,
    (result) => dispatch(result.ok ? { type: 'search-results', query, matches: result.value } : { type: 'failed', message: result.message }),
    [sessionId, query, matches === null],
  );
  const selectedCall = selected?.kind === 'call' ? selected.call_id : null;
  useServiceCall(
    selectedCall && detailHeight > 0 ? () => services.toolOutput(sessionId, selectedCall, 0, detailHeight) : null,
    (result) => setHead(result.ok ? result.value : null),
    [sessionId, selectedCall, detailHeight],
  );

  useListKeys({
    editing: state.search.editing,
    active: visible,
    height: listHeight,
    dispatch,
    own: (input, key) => {
      if (key.return && selected) {
        const target = selected.kind === 'call' ? { kind: 'call' as const, callId: selected.call_id } : { kind: 'message' as const, ordinal: selected.ordinal };
        const title = selected.kind === 'call' ? selected.summary : `#${selected.ordinal} ${selected.role}`;
        navigator.open({ screen: 'output', sessionId, target, title });
        return true;
      }
      if (input === 'c' && selected?.kind === 'call') return used(() => navigator.open({ screen: 'output', sessionId, target: { kind: 'command', callId: selected.call_id }, title: selected.summary }));
      if (input === 'y' && selected?.kind === 'call') return used(() => void copyCallCommand(services, sessionId, selected.call_id).then(setNotice, (error: unknown) => setNotice(`not copied: ${String(error)}`)));
      if (input === 'd') return used(() => navigator.open({ screen: 'tree', sessionId, title: route.title }));
      if (input === 't') return used(() => navigator.open({ screen: 'timings', sessionId, title: route.title }));
      return false;
    },
  });
  if (!visible) return null;
  const status = notice ?? describeSearch(state.search, state.list.cursor) ?? (rows.total === null ? 'loading…' : `row ${position(state.list)}`);
  const detail = timelineDetailLines(selected, selectedCall && head?.call_id === selectedCall ? head : null, width - 2, detailHeight);
  return (
    <ScreenFrame width={width} height={height} title={`Timeline · ${route.title}`} status={status} error={state.error} prompt={state.search.editing ? state.search.draft : null}>
      <VirtualList list={state.list} width={width} rowAt={rows.rowAt} renderRow={(row) => timelineRowSegments(row)} empty={rows.total === null ? 'loading…' : 'no messages'} />
      <Box flexDirection="column" height={detailHeight}>
        {detail.map((segments, index) => (
          <Line key={index} segments={[{ text: ' ' }, ...segments]} width={width} />
        ))}
      </Box>
    </ScreenFrame>
  );
}

/** The row of a message ordinal, or of one of its calls when the call is named. */
async function focusIndex(services: TuiServices, sessionId: string, focus: { ordinal: number; callId?: string }): Promise<number | null> {
  const messageIndex = await services.timelineIndexOf(sessionId, focus.ordinal);
  if (messageIndex === null || !focus.callId) return messageIndex;
  const page = await services.timeline(sessionId, messageIndex, 64);
  const call = page.rows.find((row) => row.kind === 'call' && row.call_id === focus.callId);
  return call ? call.index : messageIndex;
}
