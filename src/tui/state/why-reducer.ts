import { oneLine, wrap } from '../format.js';
import { seg, segmentsText, type Segment } from '../segments.js';
import type { PlanView, WhyView } from '../services.js';
import { duration } from '../format.js';
import { MARK } from '../theme.js';
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
  /** On a decisive output line: that line, so `o` opens the output there. */
  decisiveLine?: string;
}

export interface WhyState extends ListScreenState {
  why: WhyView | null;
  /** The winning path, shown under an accepted candidate; a string says why there is none. */
  plan: PlanView | string | null;
  width: number;
  lines: WhyLine[];
  error: string | null;
}

export type WhyAction =
  | CommonAction
  | { type: 'loaded'; why: WhyView }
  | { type: 'failed'; message: string }
  | { type: 'width'; width: number }
  | { type: 'plan'; plan: PlanView | string };

export function initialWhy(height: number, width: number): WhyState {
  return { why: null, plan: null, width, lines: [], error: null, list: emptyList(height), search: NO_SEARCH };
}

function plain(segments: Segment[], ordinal: number | null = null, evidence: number | null = null, callId: string | null = null): WhyLine {
  return { segments, evidence, ordinal, callId };
}

/** An evidence step's header, as `retrace why` prints it: kind → outcome, the decisive mark, host, time. */
function stepHeader(item: WhyView['evidence'][number]): Segment[] {
  const { mark, tone } = verdictMark(item.outcome);
  return [
    seg(`#${item.message_ordinal}`, 'accent'),
    seg(` ${item.kind} → `),
    seg(`${mark} ${item.outcome}`, tone),
    seg(item.decisive ? `  ${MARK.decisive} decisive` : '', 'match'),
    seg(item.host ? `  on ${item.host}` : '', 'dim'),
    seg(item.duration_ms === null ? '' : `  ${duration(item.duration_ms)}`, 'dim'),
  ];
}

/** The verdict and its reason, each evidence step with its outcome and decisive lines, the winning path, then the reasoning. */
export function whyLines(why: WhyView, width: number, plan: PlanView | string | null = null): WhyLine[] {
  const text = Math.max(10, width - 6);
  const { mark, tone } = verdictMark(why.verdict);
  const lines: WhyLine[] = [plain([seg(`${mark} ${why.verdict}`, tone), seg('  '), seg(why.candidate, 'title')])];
  for (const line of why.reason ? wrap(why.reason, text) : []) lines.push(plain([seg(`  ${line}`)]));
  lines.push(plain([]), plain([seg(`Evidence (${why.evidence.length})`, 'title')]));
  why.evidence.forEach((item, index) => {
    const at = (segments: Segment[], decisiveLine?: string): WhyLine => ({ ...plain(segments, item.message_ordinal, index, item.call_id), ...(decisiveLine ? { decisiveLine } : {}) });
    lines.push(at(stepHeader(item)));
    lines.push(at([seg(`    $ ${oneLine(item.command)}`, 'dim')]));
    for (const decisive of item.decisive_lines) {
      wrap(decisive, text).forEach((line, part) => lines.push(at([seg(part === 0 ? '    │ ' : '      ', 'dim'), seg(line, 'match')], decisive)));
    }
  });
  if (why.verdict === 'accepted') lines.push(...winningPath(plan, text));
  if (why.reasoning.length > 0) lines.push(plain([]), plain([seg('Reasoning', 'title')]));
  for (const item of why.reasoning) {
    wrap(item.text, text - 2).forEach((line, index) => {
      lines.push(plain([seg(index === 0 ? `#${item.message_ordinal}` : '', 'accent'), seg(`${index === 0 ? ' ' : '    '}${line}`, 'dim')], item.message_ordinal));
    });
  }
  return lines;
}

/** Every step of the plan a replay would run: what the accepted candidate's path was, in order. */
function winningPath(plan: PlanView | string | null, width: number): WhyLine[] {
  if (plan === null) return [plain([]), plain([seg('Winning path: loading…', 'dim')])];
  if (typeof plan === 'string') return [plain([]), plain([seg('Winning path', 'title')]), ...wrap(plan, width).map((line) => plain([seg(`  ${line}`, 'dim')]))];
  const lines: WhyLine[] = [plain([]), plain([seg(`Winning path (${plan.steps.length} steps; p on the tree shows the plan)`, 'title')])];
  plan.steps.forEach((step, index) => {
    lines.push(
      plain(
        [
          seg(`${String(index + 1).padStart(3)}. `, 'dim'),
          seg(step.id, 'title'),
          seg(` [${step.roles.join(', ')}]`, 'dim'),
          seg(step.destructive ? ' destructive' : '', 'warn'),
          seg(step.message_ordinal === null ? '' : `  #${step.message_ordinal}`, 'accent'),
          seg(`  ${oneLine(step.command)}`),
        ],
        step.message_ordinal,
        null,
        step.call_id,
      ),
    );
  });
  return lines;
}

function withLines(state: WhyState, why: WhyView, width: number, plan = state.plan): WhyState {
  const lines = whyLines(why, width, plan);
  return { ...state, why, width, lines, list: setTotal(state.list, lines.length) };
}

export function whyReducer(state: WhyState, action: WhyAction): WhyState {
  switch (action.type) {
    case 'loaded': {
      // The cursor starts on the step that decided (else the first evidence): `o` there opens
      // the output at the line that decided, what a reader wants next.
      const loaded = withLines(state, action.why, state.width);
      const decisive = action.why.evidence.findIndex((item) => item.decisive);
      const start = loaded.lines.findIndex((line) => line.evidence !== null && (decisive < 0 || line.evidence === decisive));
      return { ...loaded, error: null, list: moveTo(loaded.list, Math.max(0, start)) };
    }
    case 'failed':
      return { ...state, error: action.message };
    case 'plan':
      // Lines are added below the cursor's: it stays on the line it was on.
      return state.why ? withLines({ ...state, plan: action.plan }, state.why, state.width, action.plan) : { ...state, plan: action.plan };
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
