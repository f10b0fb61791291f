import { Box } from 'ink';
import { useReducer } from 'react';
import { Line } from '../components/Line.js';
import { ScreenFrame, FRAME_LINES } from '../components/ScreenFrame.js';
import { VirtualList } from '../components/VirtualList.js';
import { fit, oneLine, wrap } from '../format.js';
import { useListKeys } from '../hooks/use-list-keys.js';
import { useServiceCall } from '../hooks/use-service-call.js';
import type { Route } from '../routes.js';
import { seg, type Segment } from '../segments.js';
import { useNavigator, useServices } from '../state/contexts.js';
import { used } from '../state/key-routing.js';
import { position } from '../state/list.js';
import { describeSearch } from '../state/search.js';
import { initialTree, selectedTreeRow, treeReducer, type TreeRow } from '../state/tree-reducer.js';
import { verdictMark } from '../verdicts.js';
import type { ScreenProps } from './screen-props.js';

type TreeRoute = Extract<Route, { screen: 'tree' }>;

/** The detail pane under the list: a third of the screen, so a long reason reads whole. */
function detailHeight(height: number): number {
  return Math.max(4, Math.floor((height - FRAME_LINES - 2) / 3));
}

export function treeRowSegments(row: TreeRow | undefined): Segment[] {
  if (!row) return [seg('…', 'dim')];
  if (row.kind === 'pivot') {
    const { pivot } = row;
    return [seg(`   ↳ pivot at #${pivot.message_ordinal} → `, 'accent'), seg(pivot.to, 'title'), seg(pivot.reason ? `  ${oneLine(pivot.reason)}` : '', 'dim')];
  }
  const { candidate } = row;
  const { mark, tone } = verdictMark(candidate.verdict);
  return [
    seg(`${String(row.step).padStart(2)}. `, 'dim'),
    seg(`${mark} ${fit(candidate.verdict, 9)} `, tone),
    seg(`${fit(candidate.kind, 9)} `, 'dim'),
    seg(candidate.name, 'title'),
    seg(candidate.reason ? `  ${oneLine(candidate.reason)}` : '', 'dim'),
  ];
}

/** The selected row's reason, wrapped whole (cut only past the pane, saying where the rest is), and what Enter does. */
export function detailLines(row: TreeRow | undefined, width: number, height: number): Segment[][] {
  if (!row) return [];
  const [reasonText, footer, rest] = row.kind === 'pivot'
    ? [row.pivot.reason, `from ${row.pivot.from} to ${row.pivot.to} at #${row.pivot.message_ordinal} · Enter: the timeline there`, 'Enter: the message']
    : [row.candidate.reason, `evidence: ${row.candidate.evidence.map((item) => `#${item.message_ordinal}`).join(', ') || 'none recorded'} · Enter: why`, 'Enter: why'];
  const footerLines = wrap(footer, width);
  const room = Math.max(1, height - footerLines.length);
  const reason = reasonText ? wrap(reasonText, width) : [];
  const shown = reason.length > room ? [...reason.slice(0, room - 1), `… (${reason.length - room + 1} more lines: ${rest})`] : reason;
  return [...shown.map((line) => [seg(line)]), ...footerLines.map((line) => [seg(line, 'dim')])];
}

/** Candidates in the order they were tried with their verdicts; pivots where the path turned. */
/** What an empty tree means, said on the screen rather than an empty list. */
const NO_CANDIDATES = 'no candidates: this session deploys nothing';

export function TreeScreen({ width, height, visible, route }: ScreenProps & { route: TreeRoute }) {
  const services = useServices();
  const navigator = useNavigator();
  const detail = detailHeight(height);
  const listHeight = Math.max(1, height - FRAME_LINES - 2 - detail);
  const [state, dispatch] = useReducer(treeReducer, listHeight, initialTree);
  const { sessionId } = route;
  useServiceCall(() => services.tree(sessionId), (result) => dispatch(result.ok ? { type: 'loaded', tree: result.value } : { type: 'failed', message: result.message }), [sessionId]);
  const selected = selectedTreeRow(state);
  useListKeys({
    editing: state.search.editing,
    active: visible,
    height: listHeight,
    dispatch,
    own: (input, key) => {
      if (input === 't') return used(() => navigator.open({ screen: 'timings', sessionId, title: route.title }));
      if (input === 'p') return used(() => navigator.open({ screen: 'output', sessionId, target: { kind: 'plan' }, title: `the replay of ${route.title}` }));
      if (!key.return || !selected) return false;
      if (selected.kind === 'candidate') navigator.open({ screen: 'why', sessionId, candidate: selected.candidate.name, title: route.title });
      else navigator.open({ screen: 'timeline', sessionId, title: route.title, focus: { ordinal: selected.pivot.message_ordinal } });
      return true;
    },
  });
  if (!visible) return null;
  const status = describeSearch(state.search, state.list.cursor) ?? (state.tree ? (state.tree.candidates.length === 0 ? NO_CANDIDATES : `row ${position(state.list)} · p the plan a replay would run`) : state.error ? 'no decision tree' : 'loading…');
  const goal = state.tree?.goal ? `goal: ${oneLine(state.tree.goal)}` : `session ${sessionId}`;
  return (
    <ScreenFrame width={width} height={height} title={`Decision tree · ${route.title}`} status={status} error={state.error} prompt={state.search.editing ? state.search.draft : null}>
      <Line segments={[seg(` ${goal}`, 'dim')]} width={width} />
      <VirtualList list={state.list} width={width} rowAt={(index) => state.rows[index]} renderRow={(row) => treeRowSegments(row)} empty={state.error ? 'no decision tree' : state.tree ? NO_CANDIDATES : 'loading…'} />
      <Line segments={[seg('─'.repeat(width), 'dim')]} width={width} />
      <Box flexDirection="column" height={detail}>
        {detailLines(selected, width - 2, detail).map((segments, index) => (
          <Line key={index} segments={[seg(' '), ...segments]} width={width} />
        ))}
      </Box>
    </ScreenFrame>
  );
}
