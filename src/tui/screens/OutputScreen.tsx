import { useEffect, useMemo, useReducer, useState } from 'react';
import { Pager, pagerTextWidth } from '../components/Pager.js';
import { ScreenFrame, FRAME_LINES } from '../components/ScreenFrame.js';
import { cleanLine, oneLine } from '../format.js';
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
    if (target.kind === 'plan') {
      const { yaml } = await services.plan(sessionId);
      return { rows: yaml.slice(offset, offset + limit), total: yaml.length };
    }
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

const TITLES: Record<TextTarget['kind'], string> = { call: 'Output', command: 'Command', message: 'Message', plan: 'Plan' };

function sourceName(target: TextTarget): string {
  if (target.kind === 'message') return `message:${target.ordinal}`;
  if (target.kind === 'plan') return 'plan';
  return `${target.kind}:${target.callId}`;
}

/** The column (in characters) where `needle` starts in `text`, case-insensitive; -1 when absent. */
export function columnOf(text: string, needle: string): number {
  const at = text.toLowerCase().indexOf(needle.toLowerCase());
  return at < 0 ? -1 : [...text.slice(0, at)].length;
}

/** Where each decisive line is in the text (a decisive line is a trimmed output line, or part of one). */
async function decisiveLineNumbers(services: TuiServices, sessionId: string, target: TextTarget, decisive: readonly string[]): Promise<number[][]> {
  return Promise.all(decisive.filter((line) => line.trim() !== '').map((line) => services.searchText(sessionId, target, line.trim())));
}

/** A tool call's output (or a message's text) in a pager: only the lines on screen are fetched. */
export function OutputScreen({ width, height, visible, route }: ScreenProps & { route: OutputRoute }) {
  const services = useServices();
  const navigator = useNavigator();
  const bodyHeight = Math.max(1, height - FRAME_LINES);
  const { sessionId, target } = route;
  // A command and a message's prose are read whole: they wrap from the start (`w` cuts them
  // again); a tool's output and a plan's YAML keep their columns, as a terminal or an editor shows them.
  const [state, dispatch] = useReducer(pagerReducer, bodyHeight, (height) => initialPager(height, target.kind === 'command' || target.kind === 'message'));
  const source = sourceName(target);
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
  const decisive = route.decisive ?? [];
  useServiceCall(
    decisive.length > 0 ? () => decisiveLineNumbers(services, sessionId, target, decisive) : null,
    (result) => result.ok && dispatch({ type: 'decisive', lines: result.value.flat(), ...(result.value[0]?.[0] === undefined ? {} : { open: result.value[0][0] }) }),
    [sessionId, source, decisive.join('\n')],
  );
  // A match (or the decisive text) past the right edge of a cut line is scrolled into view.
  const currentText = state.current === null ? undefined : lines.rowAt(state.current);
  useEffect(() => {
    if (currentText === undefined || state.wrap) return;
    const needle = query !== '' ? query : decisive.find((line) => cleanLine(currentText).toLowerCase().includes(line.toLowerCase()));
    if (!needle) return;
    const column = columnOf(cleanLine(currentText), needle);
    dispatch({ type: 'reveal', column, length: [...needle].length, width: pagerTextWidth(width, lines.total) });
  }, [currentText, state.current, query, state.wrap, width, lines.total]);
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
  const decisiveSet = useMemo(() => new Set(state.decisive), [state.decisive]);
  if (!visible) return null;
  return (
    <ScreenFrame width={width} height={height} title={`${TITLES[target.kind]} · ${oneLine(route.title)}`} status={notice ?? pagerStatus(state)} error={lines.error} prompt={state.search.editing ? state.search.draft : null}>
      <Pager lineAt={lines.rowAt} top={state.top} height={bodyHeight} width={width} total={lines.total} left={state.left} wrap={state.wrap} matches={matchSet} current={state.current} decisive={decisiveSet} />
    </ScreenFrame>
  );
}

/** The selected call's command as recorded, whole, for `y`; a message has no command. */
async function copyCommand(services: TuiServices, sessionId: string, target: TextTarget): Promise<string> {
  if (target.kind === 'message') return 'a message has no command to copy (y copies a tool call\'s command)';
  if (target.kind === 'plan') return 'a plan is not one command (y copies a tool call\'s command; `retrace plan SESSION -o FILE` writes the plan)';
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
