import { Box } from 'ink';
import { useMemo, useReducer } from 'react';
import { Line } from '../components/Line.js';
import { ScreenFrame, FRAME_LINES } from '../components/ScreenFrame.js';
import { VirtualList } from '../components/VirtualList.js';
import { duration, fit } from '../format.js';
import { useKeys } from '../hooks/use-keys.js';
import { useListKeys } from '../hooks/use-list-keys.js';
import { useServiceCall } from '../hooks/use-service-call.js';
import type { Route } from '../routes.js';
import { seg, type Segment } from '../segments.js';
import type { RunStepRow } from '../services.js';
import { compareReducer, initialCompare, isDiverged, selectedStep } from '../state/compare-reducer.js';
import { useServices } from '../state/contexts.js';
import { PRIORITY, used } from '../state/key-routing.js';
import { position } from '../state/list.js';
import { describeSearch } from '../state/search.js';
import { MARK } from '../theme.js';
import { stepStatusMark, verdictMark } from '../verdicts.js';
import { nextDifference, outputsLayout, type OutputsLayout } from './compare-outputs.js';
import type { ScreenProps } from './screen-props.js';

type CompareRoute = Extract<Route, { screen: 'compare' }>;

/** `role:step`, cut to fit. */
const STEP_LABEL = 17;

/** The step column: 17 characters at 80 columns, wider (to 40) as the terminal is, for a fleet's host. */
export function stepLabelWidth(width: number): number {
  return Math.max(STEP_LABEL, Math.min(40, width - 63));
}

/** Width of the recorded and this-run columns: what the step, the verdict (10) and the rules (9) leave. */
export function compareColumn(width: number): number {
  return Math.max(12, Math.floor((width - stepLabelWidth(width) - 19) / 2));
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
    // A role of several hosts has a row per host: the label names it (the heading below, whole).
    seg(`${fit(`${step.role}:${step.step_id}${step.fleet_host ? ` ${step.fleet_host}` : ''}`, stepLabelWidth(width))} │ `, diverged ? 'danger' : 'plain'),
    seg(`${fit(recorded, column)} │ `, 'dim'),
    seg(`${fit(runCell(step), column)} │ `, tone),
    seg(`${diverged ? MARK.diverged : verdict === 'same' ? MARK.same : MARK.unknown} ${verdict}`, diverged ? 'danger' : verdictMark(verdict).tone),
  ];
}

/** The step's command, and what differed in a line (the verdict's detail), above its outputs. */
function stepHeading(step: RunStepRow, width: number): Segment[][] {
  // A role of several hosts has a row per host: the heading says which one.
  const lines: Segment[][] = [[seg(fit(`${step.role}:${step.step_id} on ${step.host ?? '?'}  $ ${step.command}`, width), 'accent')]];
  if (step.detail) lines.push([seg(fit(`${isDiverged(step) ? `${MARK.diverged} ` : ''}${step.detail}`, width), isDiverged(step) ? 'danger' : 'dim')]);
  return lines;
}

/** A window of the outputs: the sticky header, then `height` lines from `scroll`. */
function outputsWindow(step: RunStepRow, layout: OutputsLayout, width: number, height: number, scroll: number): Segment[][] {
  const top = [...stepHeading(step, width), ...layout.header];
  return [...top, ...layout.lines.slice(scroll, scroll + Math.max(0, height - top.length))];
}

/** Where the preview of a step starts: the top when all fits, else a line above its first difference. */
function previewScroll(layout: OutputsLayout, room: number): number {
  return layout.lines.length <= room ? 0 : Math.max(0, (layout.differences[0] ?? 0) - 1);
}

/** A run beside its record, step by step; diverged steps stand out (also as ≠ without colour). Enter: the step's outputs. */
export function CompareScreen({ width, height, visible, route }: ScreenProps & { route: CompareRoute }) {
  const services = useServices();
  const body = Math.max(6, height - FRAME_LINES - 2);
  const listHeight = Math.max(2, Math.floor(body * 0.4));
  const previewHeight = body - listHeight;
  const [state, dispatch] = useReducer(compareReducer, listHeight, initialCompare);
  useServiceCall(() => services.runSteps(route.runId), (result) => dispatch(result.ok ? { type: 'loaded', steps: result.value } : { type: 'failed', message: result.message }), [route.runId]);
  const selected = selectedStep(state);
  const inner = width - 2;
  const layout = useMemo(() => (selected ? outputsLayout(selected, inner) : null), [selected, inner]);
  const outputsOpen = state.outputsScroll !== null && selected !== undefined && layout !== null;
  // The outputs view takes the whole body; its heading and column titles stay, the rest scrolls.
  const outputsHeight = body + 2;
  const page = Math.max(1, outputsHeight - (selected && layout ? stepHeading(selected, inner).length + layout.header.length : 0));
  useListKeys({
    editing: state.search.editing,
    active: visible && !outputsOpen,
    height: listHeight,
    dispatch,
    own: (input, key) => {
      if (key.return && layout) return used(() => dispatch({ type: 'outputs-open', at: previewScroll(layout, page) }));
      return input === 'd' && used(() => dispatch({ type: 'toggle-diverged' }));
    },
  });
  useKeys(
    (input, key) => {
      if (!layout || state.outputsScroll === null) return false;
      const scroll = state.outputsScroll;
      const to = (line: number) => used(() => dispatch({ type: 'outputs-scroll', to: line, lines: layout.lines.length, page }));
      if (key.escape) return used(() => dispatch({ type: 'outputs-close' }));
      if (input === 'j' || key.downArrow) return to(scroll + 1);
      if (input === 'k' || key.upArrow) return to(scroll - 1);
      if (input === ' ' || key.pageDown) return to(scroll + page);
      if (key.pageUp) return to(scroll - page);
      if (input === 'g') return to(0);
      if (input === 'G') return to(layout.lines.length);
      if (input === 'n' || input === 'N') {
        const next = nextDifference(layout.differences, scroll, input === 'n' ? 1 : -1);
        return next === null ? used(() => undefined) : to(next);
      }
      return false;
    },
    { priority: PRIORITY.screen, active: visible && outputsOpen },
  );
  if (!visible) return null;
  const diverged = (state.steps ?? []).filter(isDiverged).length;
  const summary = state.steps ? `${position(state.list)} · ${diverged} diverged${state.onlyDiverged ? ' (showing only those; d: all)' : ' (d: only those)'}` : 'loading…';
  const column = compareColumn(width - 2);
  const differing = layout ? `${layout.differing} differing line${layout.differing === 1 ? '' : 's'}` : '';
  const ruleLabel = selected && layout ? ` ${differing} · Enter: whole outputs ` : '';
  if (outputsOpen) {
    const scroll = state.outputsScroll ?? 0;
    const shownTo = Math.min(layout.lines.length, scroll + page);
    return (
      <ScreenFrame width={width} height={height} title={`Run vs record · ${route.runId} · ${selected.role}:${selected.step_id}`} status={`lines ${Math.min(scroll + 1, shownTo)}–${shownTo} of ${layout.lines.length} · ${differing} · n/N next/previous difference`} hint=" ? keys · Esc the steps">
        <Box flexDirection="column" height={outputsHeight}>
          {outputsWindow(selected, layout, inner, outputsHeight, scroll).map((segments, index) => (
            <Line key={index} segments={[seg(' '), ...segments]} width={width} />
          ))}
        </Box>
      </ScreenFrame>
    );
  }
  return (
    <ScreenFrame width={width} height={height} title={`Run vs record · ${route.runId}`} status={describeSearch(state.search, state.list.cursor) ?? summary} error={state.error} prompt={state.search.editing ? state.search.draft : null}>
      <Line segments={[seg(`  ${fit('role:step', stepLabelWidth(width - 2))} │ ${fit('recorded', column)} │ ${fit('this run', column)} │ verdict`, 'dim')]} width={width} />
      <VirtualList list={state.list} width={width} rowAt={(index) => state.shown[index]} renderRow={(step) => compareRowSegments(step, width - 2)} empty={state.error ? 'no steps' : state.steps ? 'no steps: this run recorded none (or none diverged; d: all)' : 'loading…'} />
      <Line segments={[seg(`${'─'.repeat(Math.max(0, width - ruleLabel.length))}${ruleLabel}`, 'dim')]} width={width} />
      <Box flexDirection="column" height={previewHeight}>
        {selected && layout
          ? outputsWindow(selected, layout, inner, previewHeight, previewScroll(layout, previewHeight - stepHeading(selected, inner).length - layout.header.length)).map((segments, index) => <Line key={index} segments={[seg(' '), ...segments]} width={width} />)
          : null}
      </Box>
    </ScreenFrame>
  );
}
