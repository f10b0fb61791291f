import { oneLine, wrap } from '../format.js';
import { seg, segmentsText, type Segment } from '../segments.js';
import type { WhyView } from '../services.js';
import { verdictMark } from '../verdicts.js';
import { reduceCommon, submitLocalSearch, type CommonAction, type ListScreenState } from './common.js';
import { emptyList, moveTo, setTotal } from './list.js';
import { NO_SEARCH } from './search.js';

/** A line of the why view; evidence and reasoning lines know the message they came from. */
export interface WhyLine {
  segments: Segment[];
  evidence: number | null;
  ordinal: number | null;
  callId: string | null;
}

export interface WhyState extends ListScreenState {
  why: WhyView | null;
  width: number;
  lines: WhyLine[];
  error: string | null;
}

export type WhyAction = CommonAction | { type: 'loaded'; why: WhyView } | { type: 'failed'; message: string } | { type: 'width'; width: number };

export function initialWhy(height: number, width: number): WhyState {
  return { why: null, width, lines: [], error: null, list: emptyList(height), search: NO_SEARCH };
}

function plain(segments: Segment[], ordinal: number | null = null, evidence: number | null = null, callId: string | null = null): WhyLine {
  return { segments, evidence, ordinal, callId };
}

/** The verdict and its reason, each piece of evidence with its decisive lines, then the reasoning. */
export function whyLines(why: WhyView, width: number): WhyLine[] {
  const text = Math.max(10, width - 6);
  const { mark, tone } = verdictMark(why.verdict);
  const lines: WhyLine[] = [plain([seg(`${mark} ${why.verdict}`, tone), seg('  '), seg(why.candidate, 'title')])];
  for (const line of why.reason ? wrap(why.reason, text) : []) lines.push(plain([seg(`  ${line}`)]));
  lines.push(plain([]), plain([seg(`Evidence (${why.evidence.length})`, 'title')]));
  why.evidence.forEach((item, index) => {
    lines.push(plain([seg(`#${item.message_ordinal}`, 'accent'), seg(` ${oneLine(item.command)}`)], item.message_ordinal, index, item.call_id));
    for (const decisive of item.decisive_lines) {
      for (const line of wrap(decisive, text)) lines.push(plain([seg(`    ${line}`, 'match')], item.message_ordinal, index, item.call_id));
    }
  });
  if (why.reasoning.length > 0) lines.push(plain([]), plain([seg('Reasoning', 'title')]));
  for (const item of why.reasoning) {
    wrap(item.text, text - 2).forEach((line, index) => {
      lines.push(plain([seg(index === 0 ? `#${item.message_ordinal}` : '', 'accent'), seg(`${index === 0 ? ' ' : '    '}${line}`, 'dim')], item.message_ordinal));
    });
  }
  return lines;
}

function withLines(state: WhyState, why: WhyView, width: number): WhyState {
  const lines = whyLines(why, width);
  return { ...state, why, width, lines, list: setTotal(state.list, lines.length) };
}

export function whyReducer(state: WhyState, action: WhyAction): WhyState {
  switch (action.type) {
    case 'loaded': {
      // The cursor starts on the first evidence: Enter there is what a reader wants next.
      const loaded = withLines(state, action.why, state.width);
      const firstEvidence = loaded.lines.findIndex((line) => line.evidence !== null);
      return { ...loaded, error: null, list: moveTo(loaded.list, Math.max(0, firstEvidence)) };
    }
    case 'failed':
      return { ...state, error: action.message };
    case 'width':
      return state.why && action.width !== state.width ? withLines(state, state.why, action.width) : { ...state, width: action.width };
    case 'search-submit':
      return submitLocalSearch(state, state.lines.map((line) => segmentsText(line.segments)));
    default:
      return reduceCommon(state, action);
  }
}

export function selectedWhyLine(state: WhyState): WhyLine | undefined {
  return state.lines[state.list.cursor];
}
