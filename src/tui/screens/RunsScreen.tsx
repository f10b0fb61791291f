import { useReducer } from 'react';
import { Line } from '../components/Line.js';
import { ScreenFrame, FRAME_LINES } from '../components/ScreenFrame.js';
import { VirtualList } from '../components/VirtualList.js';
import { dateTime, fit, fitRight } from '../format.js';
import { useListKeys } from '../hooks/use-list-keys.js';
import { useRefresh } from '../hooks/use-refresh.js';
import { useServiceCall } from '../hooks/use-service-call.js';
import { seg, type Segment } from '../segments.js';
import type { RunRow } from '../services.js';
import { useNavigator, useServices } from '../state/contexts.js';
import { position } from '../state/list.js';
import { initialRuns, runsReducer, selectedRun } from '../state/runs-reducer.js';
import { describeSearch } from '../state/search.js';
import { MARK } from '../theme.js';
import { stepStatusMark } from '../verdicts.js';
import type { ScreenProps } from './screen-props.js';

export function runRowSegments(run: RunRow | undefined): Segment[] {
  if (!run) return [seg('…', 'dim')];
  const { mark, tone } = stepStatusMark(run.status === 'aborted' ? 'interrupted' : run.status);
  return [
    seg(`${fit(run.id, 24)} `, 'accent'),
    seg(`${fit(run.mode, 5)}`, run.mode === 'live' ? 'warn' : 'dim'),
    seg(`${mark} ${fit(run.status, 11)}`, tone),
    seg(`${fitRight(String(run.steps), 5)} `),
    seg(run.diverged > 0 ? `${MARK.diverged}${fitRight(String(run.diverged), 3)} ` : '   0 ', run.diverged > 0 ? 'danger' : 'dim'),
    seg(`${dateTime(run.started_at)} `, 'dim'),
    seg(run.plan ?? run.session_id ?? ''),
  ];
}

/** Past dry and live runs; Enter compares one with its record (or watches it, when it is the live one). */
export function RunsScreen({ width, height, visible }: ScreenProps) {
  const services = useServices();
  const navigator = useNavigator();
  const listHeight = Math.max(1, height - FRAME_LINES - 1);
  const [state, dispatch] = useReducer(runsReducer, listHeight, initialRuns);
  // Asked again while shown: a replay running in another terminal appears, and its status moves.
  const generation = useRefresh(visible);
  useServiceCall(() => services.listRuns(), (result) => dispatch(result.ok ? { type: 'loaded', runs: result.value } : { type: 'failed', message: result.message }), [visible, generation]);
  const selected = selectedRun(state);
  useListKeys({
    editing: state.search.editing,
    active: visible,
    height: listHeight,
    dispatch,
    own: (_input, key) => {
      if (!key.return || !selected) return false;
      navigator.open(services.liveRun?.runId === selected.id ? { screen: 'live-run' } : { screen: 'compare', runId: selected.id });
      return true;
    },
  });
  if (!visible) return null;
  const status = describeSearch(state.search, state.list.cursor) ?? (state.runs ? `run ${position(state.list)}` : 'loading…');
  return (
    <ScreenFrame width={width} height={height} title="Runs" status={status} error={state.error} prompt={state.search.editing ? state.search.draft : null}>
      <Line segments={[seg(`  ${fit('run', 25)}${fit('mode', 5)}${fit('  status', 13)}${fitRight('steps', 6)} diff ${fit('started (UTC)', 17)}plan / session`, 'dim')]} width={width} />
      <VirtualList list={state.list} width={width} rowAt={(index) => state.runs?.[index]} renderRow={(row) => runRowSegments(row)} empty={state.error ? 'no runs' : state.runs ? 'no runs yet: `retrace replay` records them' : 'loading…'} />
    </ScreenFrame>
  );
}
