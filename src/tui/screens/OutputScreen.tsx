import { useEffect, useMemo, useReducer } from 'react';
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
  const [state, dispatch] = useReducer(pagerReducer, bodyHeight, initialPager);
  const { sessionId, target } = route;
  const source = target.kind === 'call' ? `call:${target.callId}` : `message:${target.ordinal}`;
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
    <ScreenFrame width={width} height={height} title={`Output · ${oneLine(route.title)}`} status={pagerStatus(state)} error={lines.error} prompt={state.search.editing ? state.search.draft : null}>
      <Pager lineAt={lines.rowAt} top={state.top} height={bodyHeight} width={width} total={lines.total} left={state.left} matches={matchSet} current={state.current} />
    </ScreenFrame>
  );
}
