import type { RunEvent, StepStatus, StepTarget, Verdict } from '../../core/run/events.js';
import { reduceCommon, type CommonAction, type ListScreenState } from './common.js';
import { emptyList, moveTo, setTotal } from './list.js';
import { NO_SEARCH } from './search.js';

/** Lines of output kept per step: the screen shows a tail, never a whole log. */
export const OUTPUT_KEEP = 200;

export interface LiveStep {
  stepId: string;
  role: string;
  host: string;
  command: string | null;
  destructive: boolean;
  status: StepStatus;
  exitCode: number | null;
  durationMs: number | null;
  startedAt: number | null;
  verdict: Verdict | null;
  detail: string | null;
  output: string[];
  partial: string;
  outputLines: number;
}

export interface LiveRunState extends ListScreenState {
  runId: string | null;
  mode: 'dry' | 'live' | null;
  steps: LiveStep[];
  paused: boolean;
  pauseRequested: boolean;
  confirm: { stepId: string; host: string; command: string } | null;
  askingAbort: boolean;
  finished: { status: string; diverged: number } | null;
  /** The cursor follows the running step until the user moves it; `f` follows again. */
  follow: boolean;
  note: string | null;
}

export type LiveRunAction =
  | CommonAction
  | { type: 'events'; events: RunEvent[]; now: number }
  | { type: 'ask-abort' }
  | { type: 'cancel-abort' }
  | { type: 'pause-requested' }
  | { type: 'confirm-answered' }
  | { type: 'follow' }
  | { type: 'note'; text: string };

export function initialLiveRun(height: number): LiveRunState {
  return {
    runId: null, mode: null, steps: [], paused: false, pauseRequested: false, confirm: null, askingAbort: false,
    finished: null, follow: true, note: null, list: emptyList(height), search: NO_SEARCH,
  };
}

function newStep(target: StepTarget): LiveStep {
  return {
    stepId: target.stepId, role: target.role, host: target.host, command: null, destructive: false, status: 'pending',
    exitCode: null, durationMs: null, startedAt: null, verdict: null, detail: null, output: [], partial: '', outputLines: 0,
  };
}

function appendOutput(step: LiveStep, chunk: string): LiveStep {
  const pieces = (step.partial + chunk).split('\n');
  const partial = pieces.pop() ?? '';
  const output = pieces.length === 0 ? step.output : [...step.output, ...pieces].slice(-OUTPUT_KEEP);
  return { ...step, output, partial, outputLines: step.outputLines + pieces.length };
}

/** A step runs once per host of each of its roles (a pull on the head and on every worker): each makes a row. */
function sameStep(step: LiveStep, target: StepTarget): boolean {
  return step.stepId === target.stepId && step.role === target.role && step.host === target.host;
}

function updateStep(state: LiveRunState, target: StepTarget, change: (step: LiveStep) => LiveStep): LiveRunState {
  const index = state.steps.findIndex((step) => sameStep(step, target));
  const steps = index >= 0 ? [...state.steps] : [...state.steps, newStep(target)];
  const at = index >= 0 ? index : steps.length - 1;
  steps[at] = change(steps[at] ?? newStep(target));
  return { ...state, steps, list: setTotal(state.list, steps.length) };
}

function follow(state: LiveRunState, target: StepTarget): LiveRunState {
  if (!state.follow) return state;
  const index = state.steps.findIndex((step) => sameStep(step, target));
  return index < 0 ? state : { ...state, list: moveTo(state.list, index) };
}

export function applyRunEvent(state: LiveRunState, event: RunEvent, now: number): LiveRunState {
  switch (event.type) {
    case 'run-started':
      return { ...state, runId: event.runId, mode: event.mode, steps: event.steps.map(newStep), list: setTotal(state.list, event.steps.length) };
    case 'step-started': {
      const started = updateStep(state, event.target, (step) => ({
        ...step, command: event.command, destructive: event.destructive, status: 'running', startedAt: now,
        exitCode: null, durationMs: null, verdict: null, detail: null, output: [], partial: '', outputLines: 0,
      }));
      return follow(started, event.target);
    }
    case 'guard':
      return updateStep(state, event.target, (step) => ({ ...step, detail: event.satisfied ? 'guard satisfied: already done' : step.detail }));
    case 'output':
      return updateStep(state, event.target, (step) => appendOutput(step, event.chunk));
    case 'confirm':
      return follow({ ...state, confirm: { stepId: event.target.stepId, host: event.target.host, command: event.command } }, event.target);
    case 'step-finished': {
      const { result } = event;
      const finished = updateStep(state, result, (step) => ({
        ...step, status: result.status, exitCode: result.exitCode, durationMs: result.durationMs, verdict: result.verdict,
        detail: result.detail ?? step.detail, output: step.partial ? [...step.output, step.partial].slice(-OUTPUT_KEEP) : step.output, partial: '',
      }));
      return finished.confirm?.stepId === result.stepId ? { ...finished, confirm: null } : finished;
    }
    case 'paused':
      return { ...state, paused: true, pauseRequested: false };
    case 'resumed':
      return { ...state, paused: false, pauseRequested: false };
    case 'run-finished':
      return { ...state, finished: { status: event.status, diverged: event.diverged }, confirm: null, askingAbort: false, paused: false };
  }
}

export function liveRunReducer(state: LiveRunState, action: LiveRunAction): LiveRunState {
  switch (action.type) {
    case 'events':
      return action.events.reduce((next, event) => applyRunEvent(next, event, action.now), state);
    case 'ask-abort':
      return state.finished ? state : { ...state, askingAbort: true };
    case 'cancel-abort':
      return { ...state, askingAbort: false };
    case 'pause-requested':
      return { ...state, pauseRequested: true };
    case 'confirm-answered':
      return { ...state, confirm: null };
    case 'follow': {
      const running = state.steps.findIndex((step) => step.status === 'running');
      return { ...state, follow: true, list: running >= 0 ? moveTo(state.list, running) : state.list };
    }
    case 'note':
      return { ...state, note: action.text };
    case 'move':
    case 'jump':
      return { ...reduceCommon(state, action), follow: false };
    default:
      return reduceCommon(state, action);
  }
}

export function selectedLiveStep(state: LiveRunState): LiveStep | undefined {
  return state.steps[state.list.cursor];
}

/** Only a step that has not started (or waits for its confirmation) can be skipped. */
export function canSkip(state: LiveRunState, step: LiveStep): boolean {
  return !state.finished && (step.status === 'pending' || state.confirm?.stepId === step.stepId);
}

/** Only a failed step is retried, and only on request. */
export function canRetry(state: LiveRunState, step: LiveStep): boolean {
  return !state.finished && (step.status === 'failed' || step.status === 'timeout' || step.status === 'interrupted');
}
