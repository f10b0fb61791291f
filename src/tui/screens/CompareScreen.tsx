import { Box } from 'ink';
import { useReducer } from 'react';
import { Line } from '../components/Line.js';
import { ScreenFrame, FRAME_LINES } from '../components/ScreenFrame.js';
import { VirtualList } from '../components/VirtualList.js';
import { duration, fit, wrap } from '../format.js';
import { useListKeys } from '../hooks/use-list-keys.js';
import { useServiceCall } from '../hooks/use-service-call.js';
import type { Route } from '../routes.js';
import { seg, type Segment } from '../segments.js';
import type { RunStepRow } from '../services.js';
import { compareReducer, initialCompare, isDiverged, selectedStep } from '../state/compare-reducer.js';
import { useServices } from '../state/contexts.js';
import { used } from '../state/key-routing.js';
import { position } from '../state/list.js';
import { describeSearch } from '../state/search.js';
import { MARK } from '../theme.js';
import { stepStatusMark, verdictMark } from '../verdicts.js';
import type { ScreenProps } from './screen-props.js';

type CompareRoute = Extract<Route, { screen: 'compare' }>;

const DETAIL_LINES = 6;

/** `role:step`, cut to fit. */
const STEP_LABEL = 17;

/** Width of the recorded and this-run columns: what the step, the verdict (10) and the rules (9) leave. */
export function compareColumn(width: number): number {
  return Math.max(12, Math.floor((width - STEP_LABEL - 19) / 2));
}

/** What happened today, in a cell: a dry run's planned steps have no exit code or duration. */
function runCell(step: RunStepRow): string {
  const { mark } = stepStatusMark(step.status);
  return step.status === 'planned' ? `${mark} planned, not run` : `${mark} ${step.status} ${exitText(step.exit_code)} ${duration(step.duration_ms)}`;
}

function exitText(exit: number | null): string {
  return exit === null ? 'exit —' : `exit ${exit}`;
}

/** step │ recorded │ this run │ verdict; a diverged step is marked ≠ and drawn in the danger tone. */
export function compareRowSegments(step: RunStepRow | undefined, width: number): Segment[] {
  if (!step) return [seg('…', 'dim')];
  const column = compareColumn(width);
  const recorded = step.recorded ? `${exitText(step.recorded.exit_code)} ${duration(step.recorded.duration_ms)}` : 'not recorded';
  const { tone } = stepStatusMark(step.status);
  const verdict = step.verdict ?? 'unknown';
  const diverged = isDiverged(step);
  return [
    seg(`${fit(`${step.role}:${step.step_id}`, STEP_LABEL)} │ `, diverged ? 'danger' : 'plain'),
    seg(`${fit(recorded, column)} │ `, 'dim'),
    seg(`${fit(runCell(step), column)} │ `, tone),
    seg(`${diverged ? MARK.diverged : verdict === 'same' ? MARK.same : MARK.unknown} ${verdict}`, diverged ? 'danger' : verdictMark(verdict).tone),
  ];
}

function sideBySide(step: RunStepRow | undefined, width: number): Segment[][] {
  if (!step) return [];
  const half = Math.floor((width - 3) / 2);
  const left = ['Recorded', ...wrap(step.recorded?.output_excerpt ?? '(nothing recorded)', half)];
  const right = ['This run', ...wrap(step.detail ?? `${step.status} on ${step.host ?? '?'}`, half)];
  // A role of several hosts has a row per host: the pane says which one.
  const lines: Segment[][] = [[seg(fit(`${step.fleet_host ? `${step.fleet_host} ` : ''}$ ${step.command}`, width), 'accent')]];
  for (let index = 0; index < DETAIL_LINES - 1; index += 1) {
    const tone = index === 0 ? 'title' : 'plain';
    lines.push([seg(fit(left[index] ?? '', half), tone), seg(' │ ', 'dim'), seg(fit(right[index] ?? '', half), index === 0 ? 'title' : isDiverged(step) ? 'danger' : 'plain')]);
  }
  return lines;
}

/** A run beside its record, step by step; diverged steps stand out (also as ≠ without colour). */
export function CompareScreen({ width, height, visible, route }: ScreenProps & { route: CompareRoute }) {
  const services = useServices();
  const listHeight = Math.max(1, height - FRAME_LINES - 2 - DETAIL_LINES);
  const [state, dispatch] = useReducer(compareReducer, listHeight, initialCompare);
  useServiceCall(() => services.runSteps(route.runId), (result) => dispatch(result.ok ? { type: 'loaded', steps: result.value } : { type: 'failed', message: result.message }), [route.runId]);
  useListKeys({
    editing: state.search.editing,
    active: visible,
    height: listHeight,
    dispatch,
    own: (input) => input === 'd' && used(() => dispatch({ type: 'toggle-diverged' })),
  });
  if (!visible) return null;
  const diverged = (state.steps ?? []).filter(isDiverged).length;
  const summary = state.steps ? `${position(state.list)} · ${diverged} diverged${state.onlyDiverged ? ' (showing only those; d: all)' : ' (d: only those)'}` : 'loading…';
  const column = compareColumn(width - 2);
  return (
    <ScreenFrame width={width} height={height} title={`Run vs record · ${route.runId}`} status={describeSearch(state.search, state.list.cursor) ?? summary} error={state.error} prompt={state.search.editing ? state.search.draft : null}>
      <Line segments={[seg(`  ${fit('role:step', STEP_LABEL)} │ ${fit('recorded', column)} │ ${fit('this run', column)} │ verdict`, 'dim')]} width={width} />
      <VirtualList list={state.list} width={width} rowAt={(index) => state.shown[index]} renderRow={(step) => compareRowSegments(step, width - 2)} empty={state.error ? 'no steps' : state.steps ? 'no steps: this run recorded none (or none diverged; d: all)' : 'loading…'} />
      <Line segments={[seg('─'.repeat(width), 'dim')]} width={width} />
      <Box flexDirection="column" height={DETAIL_LINES}>
        {sideBySide(selectedStep(state), width - 2).map((segments, index) => (
          <Line key={index} segments={[seg(' '), ...segments]} width={width} />
        ))}
      </Box>
    </ScreenFrame>
  );
}
