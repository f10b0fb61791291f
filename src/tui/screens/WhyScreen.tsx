import { useEffect, useReducer } from 'react';
import { ScreenFrame, FRAME_LINES } from '../components/ScreenFrame.js';
import { VirtualList } from '../components/VirtualList.js';
import { useListKeys } from '../hooks/use-list-keys.js';
import { useServiceCall } from '../hooks/use-service-call.js';
import type { Route } from '../routes.js';
import { seg } from '../segments.js';
import { useNavigator, useServices } from '../state/contexts.js';
import { describeSearch } from '../state/search.js';
import { initialWhy, selectedWhyLine, whyReducer } from '../state/why-reducer.js';
import type { ScreenProps } from './screen-props.js';

type WhyRoute = Extract<Route, { screen: 'why' }>;

/** Why a candidate got its verdict: the probes that decided it, their decisive lines, the reasoning. */
export function WhyScreen({ width, height, visible, route }: ScreenProps & { route: WhyRoute }) {
  const services = useServices();
  const navigator = useNavigator();
  const listHeight = Math.max(1, height - FRAME_LINES);
  const [state, dispatch] = useReducer(whyReducer, undefined, () => initialWhy(listHeight, width - 2));
  const { sessionId, candidate } = route;
  useServiceCall(() => services.why(sessionId, candidate), (result) => dispatch(result.ok ? { type: 'loaded', why: result.value } : { type: 'failed', message: result.message }), [sessionId, candidate]);
  useEffect(() => dispatch({ type: 'width', width: width - 2 }), [width]);
  // The accepted candidate's why lists its winning path: the plan a replay would run.
  const accepted = state.why?.verdict === 'accepted';
  useServiceCall(accepted ? () => services.plan(sessionId) : null, (result) => dispatch({ type: 'plan', plan: result.ok ? result.value : `no plan: ${result.message}` }), [sessionId, accepted]);
  const selected = selectedWhyLine(state);
  useListKeys({
    editing: state.search.editing,
    active: visible,
    height: listHeight,
    dispatch,
    own: (input, key) => {
      if (!selected || selected.ordinal === null) return false;
      if (key.return) {
        const focus = selected.callId ? { ordinal: selected.ordinal, callId: selected.callId } : { ordinal: selected.ordinal };
        navigator.open({ screen: 'timeline', sessionId, title: route.title, focus });
        return true;
      }
      if (input === 'o' && selected.callId) {
        const evidence = selected.evidence === null ? undefined : state.why?.evidence[selected.evidence];
        // The output opens at the decisive line under the cursor (else the step's first), all of them marked.
        const decisive = evidence ? [...(selected.decisiveLine ? [selected.decisiveLine] : []), ...evidence.decisive_lines.filter((line) => line !== selected.decisiveLine)] : [];
        const title = evidence ? `${evidence.host ? `${evidence.host}: ` : ''}${evidence.command}` : selected.callId;
        navigator.open({ screen: 'output', sessionId, target: { kind: 'call', callId: selected.callId }, title, decisive });
        return true;
      }
      return false;
    },
  });
  if (!visible) return null;
  const hint = selected?.ordinal !== null && selected?.ordinal !== undefined ? `#${selected.ordinal}: Enter timeline${selected.callId ? ` · o output${selected.evidence !== null ? ' at the decisive line' : ''}` : ''}` : '';
  const status = describeSearch(state.search, state.list.cursor) ?? (state.why ? hint : 'loading…');
  return (
    <ScreenFrame width={width} height={height} title={`Why · ${candidate}`} status={status} error={state.error} prompt={state.search.editing ? state.search.draft : null}>
      <VirtualList list={state.list} width={width} rowAt={(index) => state.lines[index]} renderRow={(line) => line?.segments ?? [seg('')]} empty={state.error ? 'no explanation' : 'loading…'} />
    </ScreenFrame>
  );
}
