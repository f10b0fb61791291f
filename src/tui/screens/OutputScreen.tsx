import { useEffect, useMemo, useReducer, useState } from 'react';
import { Pager } from '../components/Pager.js';
import { ScreenFrame, FRAME_LINES } from '../components/ScreenFrame.js';
import { oneLine } from '../format.js';
import { useKeys } from '../hooks/use-keys.js';
import { usePagedRows } from '../hooks/use-paged-rows.js';
import { useServiceCall } from '../hooks/use-service-call.js';
import type { Route } from '../routes.js';
import type { TextTarget, TuiServices } from '../services.js';
import { useNavigator, useServices } from '../state/contexts.js';
import { PRIORITY, used } from '../state/key-routing.js';
import { initialPager, pagerActionOfKey, pagerPromptAction, pagerReducer, type PagerState } from '../state/pager-reducer.js';
import { describeSearch } from '../state/search.js';
import type { ScreenProps } from './screen-props.js';

type OutputRoute = Extract<Route, { screen: 'output' }>;

function fetchLines(services: TuiServices, sessionId: string, target: TextTarget) {
  return async (offset: number, limit: number) => {
    const page = target.kind === 'call'
      ? await services.toolOutput(sessionId, target.callId, offset, limit)
      : target.kind === 'command'
        ? await services.commandText(sessionId, target.callId, offset, limit)
        : await services.messageText(sessionId, target.ordinal, offset, limit);
    return { rows: page.lines, total: page.total_lines };
  };
}

function pagerStatus(state: PagerState): string {
  if (state.total === null) return 'loading…';
  const last = Math.min(state.total, state.top + state.height);
  const where = state.total === 0 ? 'empty' : `lines ${state.top + 1}–${last} of ${state.total}`;
  const search = describeSearch(state.search, state.current ?? -1);
  return `${where}${state.left > 0 ? ` · column ${state.left + 1}` : ''}${search ? ` · ${search}` : ''}`;
}

/** A tool call's output (or a message's text) in a pager: only the lines on screen are fetched. */
export function OutputScreen({ width, height, visible, route }: ScreenProps & { route: OutputRoute }) {
  const services = useServices();
  const navigator = useNavigator();
  const bodyHeight = Math.max(1, height - FRAME_LINES);
  const { sessionId, target } = route;
  // A command is read whole: it wraps from the start (`w` cuts it again).
  const [state, dispatch] = useReducer(pagerReducer, bodyHeight, (height) => initialPager(height, target.kind === 'command'));
  const source = target.kind === 'message' ? `message:${target.ordinal}` : `${target.kind}:${target.callId}`;
  const [notice, setNotice] = useState<string | null>(null);
  const lines = usePagedRows(`${sessionId}/${source}`, fetchLines(services, sessionId, target), state.top, bodyHeight, {
    pageSize: 200,
    onTotal: (total) => dispatch({ type: 'total', total }),
  });

  useEffect(() => dispatch({ type: 'resize', height: bodyHeight }), [bodyHeight]);
  const { query, matches } = state.search;
  useServiceCall(
    query !== '' && matches === null ? () => services.searchText(sessionId, target, query) : null,
    (result) => dispatch({ type: 'search-results', query, matches: result.ok ? result.value : [] }),
    [sessionId, source, query, matches === null],
  );
  useKeys(
    (input, key) => {
      if (state.search.editing) {
        const action = pagerPromptAction(input, key);
        if (action) dispatch(action);
        return true;
      }
      if (input === 'q' || key.escape) return used(() => navigator.back());
      if (input === 'y') return used(() => void copyCommand(services, sessionId, target).then(setNotice, (error: unknown) => setNotice(`not copied: ${String(error)}`)));
      if (input === 'c' && target.kind === 'call') {
        return used(() => navigator.open({ screen: 'output', sessionId, target: { kind: 'command', callId: target.callId }, title: route.title }));
      }
      setNotice(null);
      const action = pagerActionOfKey(input, key, state);
      if (!action) return false;
      dispatch(action);
      return true;
    },
    { priority: PRIORITY.screen, active: visible, text: state.search.editing ? (run) => (dispatch({ type: 'search-type', text: run }), true) : undefined },
  );
  const matchSet = useMemo(() => new Set(state.search.matches ?? []), [state.search.matches]);
  if (!visible) return null;
  return (
    <ScreenFrame width={width} height={height} title={`${target.kind === 'command' ? 'Command' : 'Output'} · ${oneLine(route.title)}`} status={notice ?? pagerStatus(state)} error={lines.error} prompt={state.search.editing ? state.search.draft : null}>
      <Pager lineAt={lines.rowAt} top={state.top} height={bodyHeight} width={width} total={lines.total} left={state.left} wrap={state.wrap} matches={matchSet} current={state.current} />
    </ScreenFrame>
  );
}

/** The selected call's command as recorded, whole, for `y`; a message has no command. */
async function copyCommand(services: TuiServices, sessionId: string, target: TextTarget): Promise<string> {
  if (target.kind === 'message') return 'a message has no command to copy (y copies a tool call\'s command)';
  return copyCallCommand(services, sessionId, target.callId);
}

/** Reads the whole recorded command of a call and puts it on the clipboard. */
export async function copyCallCommand(services: TuiServices, sessionId: string, callId: string): Promise<string> {
  const first = await services.commandText(sessionId, callId, 0, 1_000);
  const rest = first.total_lines > first.lines.length ? await services.commandText(sessionId, callId, first.lines.length, first.total_lines) : null;
  const text = [...first.lines, ...(rest?.lines ?? [])].join('\n');
  if (text.trim() === '') return 'this call recorded no command';
  return services.copy(text);
}
