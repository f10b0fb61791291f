import type { HostOfStep, RunEvent, StepStatus, StepTarget, Verdict } from '../../core/run/events.js';
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
  /** The failed targets the run holds on (it waits for r, s or q); empty while it is not holding. */
  held: StepTarget[];
  /** `s` on a step of several hosts asks: this host, or all of them. */
  choosingSkip: { stepId: string; on: HostOfStep; hosts: number } | null;
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
  | { type: 'ask-skip'; stepId: string; on: HostOfStep; hosts: number }
  | { type: 'skip-answered' }
  | { type: 'note'; text: string };

export function initialLiveRun(height: number): LiveRunState {
  return {
    runId: null, mode: null, steps: [], paused: false, pauseRequested: false, confirm: null, askingAbort: false, held: [], choosingSkip: null,
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
    case 'run-started': {
      // A resumed run: what finished before is shown finished (it is not run again).
      const earlier = event.earlier ?? [];
      const steps = event.steps.map((target) => {
        const before = earlier.find((done) => sameStep(newStep(done.target), target));
        return before ? { ...newStep(target), status: before.status, detail: 'finished in an earlier attempt of this run' } : newStep(target);
      });
      return { ...state, runId: event.runId, mode: event.mode, steps, list: setTotal(state.list, steps.length) };
    }
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
    case 'confirmed':
      return state.confirm?.stepId === event.target.stepId ? { ...state, confirm: null } : state;
    case 'step-finished': {
      const { result } = event;
      const finished = updateStep(state, result, (step) => ({
        ...step, status: result.status, exitCode: result.exitCode, durationMs: result.durationMs, verdict: result.verdict,
        detail: result.detail ?? step.detail, output: step.partial ? [...step.output, step.partial].slice(-OUTPUT_KEEP) : step.output, partial: '',
      }));
      return finished.confirm?.stepId === result.stepId ? { ...finished, confirm: null } : finished;
    }
    case 'paused': {
      const held = event.failed ?? [];
      const paused = { ...state, paused: true, pauseRequested: false, held };
      // The cursor goes to the failure, unless the user is already on one of the failed hosts.
      const onHeld = held.some((target) => sameStep(state.steps[state.list.cursor] ?? newStep(target), target));
      const first = held[0];
      return first && !onHeld ? { ...paused, list: moveTo(paused.list, paused.steps.findIndex((step) => sameStep(step, first))) } : paused;
    }
    case 'resumed':
      return { ...state, paused: false, pauseRequested: false, held: [], choosingSkip: null };
    case 'run-finished':
      return { ...state, finished: { status: event.status, diverged: event.diverged }, confirm: null, askingAbort: false, paused: false, held: [], choosingSkip: null };
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
    case 'ask-skip':
      return state.finished ? state : { ...state, choosingSkip: { stepId: action.stepId, on: action.on, hosts: action.hosts } };
    case 'skip-answered':
      return { ...state, choosingSkip: null };
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

/** A failed target the run holds on. */
export function isHeld(state: LiveRunState, step: LiveStep): boolean {
  return state.held.some((target) => sameStep(step, target));
}

/** The failure the panel shows and r/s act on: the selected step when it is one, else the first. */
export function heldStep(state: LiveRunState): LiveStep | undefined {
  const selected = selectedLiveStep(state);
  if (selected && isHeld(state, selected)) return selected;
  return state.steps.find((step) => isHeld(state, step));
}

/** The rows of one step: one per host of each of its roles. */
export function hostsOfStep(state: LiveRunState, stepId: string): LiveStep[] {
  return state.steps.filter((step) => step.stepId === stepId);
}

/** Only a step that has not started, waits for its confirmation, or failed and holds the run can be skipped. */
export function canSkip(state: LiveRunState, step: LiveStep): boolean {
  return !state.finished && (step.status === 'pending' || state.confirm?.stepId === step.stepId || isHeld(state, step));
}

/** What `s` on a step does: refuse (and say why), skip it on its one host, or ask this host / all hosts. */
export type SkipRequest = { kind: 'refuse'; note: string } | { kind: 'skip'; stepId: string; on: HostOfStep } | { kind: 'ask'; stepId: string; on: HostOfStep; hosts: number };

export function skipRequest(state: LiveRunState, step: LiveStep): SkipRequest {
  if (!canSkip(state, step)) return { kind: 'refuse', note: `${step.stepId} is ${step.status}: too late to skip it` };
  const on = { role: step.role, host: step.host };
  // Only the hosts where skipping still means something count: a pending row, or a held failure.
  const hosts = hostsOfStep(state, step.stepId).filter((other) => canSkip(state, other)).length;
  return hosts > 1 ? { kind: 'ask', stepId: step.stepId, on, hosts } : { kind: 'skip', stepId: step.stepId, on };
}

/** Only a failed step is retried, and only on request. */
export function canRetry(state: LiveRunState, step: LiveStep): boolean {
  return !state.finished && (isHeld(state, step) || step.status === 'failed' || step.status === 'timeout' || step.status === 'interrupted' || step.status === 'unknown');
}
