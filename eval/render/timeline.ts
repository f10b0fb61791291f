// Turns a story into a timeline: when each prompt was typed, when each model step started and
// spoke, when each tool call started and ended, and how many tokens each step used. Every agent's
// renderer reads the same timeline, so a story means the same session in every format.
import type { AssistantStep, Call, Story } from '../schema.js';
import { isUserTurn } from '../schema.js';
import type { Random } from './random.js';

export interface Usage {
  /** Tokens of context before this step (what a cache would have read). */
  context: number;
  /** New input since the previous step (tool results, the prompt). */
  fresh: number;
  output: number;
}

export interface TimedCall {
  call: Call;
  start: number;
  end: number;
  /** The subagent's steps of a task call. */
  steps: TimedStep[];
}

/** A model step of the session or of a subagent (whose steps are never sequential). */
export type StepLike = Omit<AssistantStep, 'sequential'> & { sequential?: boolean };

export interface TimedStep {
  kind: 'assistant';
  turn: number;
  step: StepLike;
  start: number;
  reasoningStart: number;
  reasoningEnd: number;
  textAt: number;
  calls: TimedCall[];
  end: number;
  usage: Usage;
  /** The last step before the next prompt (or the end): the model stopped on its own. */
  final: boolean;
}

export interface TimedUser {
  kind: 'user';
  turn: number;
  text: string;
  at: number;
}

export type TimedTurn = TimedUser | TimedStep;

export interface TimelineOptions {
  /** The agent's shell timeout when the model asks for none (ms). */
  defaultTimeoutMs: number;
  /** Tokens of system prompt and tool definitions before the first prompt. */
  baseContext: number;
}

const TOKEN_CHARS = 3.7;

function tokens(text: string): number {
  return Math.ceil(text.length / TOKEN_CHARS);
}

export function callSeconds(call: Call, random: Random, options: TimelineOptions): number {
  if (call.tool === 'bash' && call.timeout) return (call.timeout_ms ?? options.defaultTimeoutMs) / 1000 + random.between(0.05, 0.4);
  if (call.seconds !== undefined) return call.seconds;
  switch (call.tool) {
    case 'bash': return call.rejected ? random.between(2, 9) : random.between(0.3, 2.6);
    case 'read': return random.between(0.02, 0.12);
    case 'edit': case 'write': return random.between(0.05, 0.25);
    case 'todo': return random.between(0.01, 0.04);
    case 'websearch': return random.between(3, 8.5);
    case 'webfetch': return random.between(2, 7);
    case 'task': return 0;
  }
}

function callOutputText(call: Call): string {
  switch (call.tool) {
    case 'bash': return call.output + (call.stderr ?? '');
    case 'read': case 'webfetch': case 'task': return call.output;
    case 'websearch': return call.results.map((result) => result.title + result.url + result.text).join('') + (call.summary ?? '');
    default: return '';
  }
}

class Clock {
  context: number;
  pendingFresh = 0;

  constructor(readonly random: Random, readonly options: TimelineOptions) {
    this.context = options.baseContext;
  }

  /** Lays out one model step starting at `start`. */
  step(step: StepLike, turn: number, start: number): TimedStep {
    const random = this.random;
    const spoken = (step.reasoning ?? '') + (step.text ?? '');
    const think = step.think ?? 1.2 + spoken.length / 140 + random.between(0, 1.8);
    const reasoningStart = start + random.between(300, 900);
    const reasoningEnd = step.reasoning ? reasoningStart + Math.max(800, (think * 1000) * 0.7) : reasoningStart;
    const textAt = Math.max(reasoningEnd + random.between(200, 700), start + think * 1000);
    let cursor = textAt + random.between(150, 600);
    const calls: TimedCall[] = [];
    for (const call of step.calls) {
      const callStart = cursor;
      let steps: TimedStep[] = [];
      let end: number;
      if (call.tool === 'task') {
        let subCursor = callStart + random.between(400, 1200);
        const saved = { context: this.context, fresh: this.pendingFresh };
        this.context = 9000;
        this.pendingFresh = 0;
        steps = call.steps.map((subStep, index) => {
          const timed = this.step(subStep, turn, subCursor);
          timed.final = index === call.steps.length - 1;
          subCursor = timed.end + random.between(600, 2500);
          return timed;
        });
        this.context = saved.context;
        this.pendingFresh = saved.fresh;
        end = Math.max(subCursor + random.between(1500, 4000), callStart + (call.seconds ?? 0) * 1000);
      } else {
        end = callStart + callSeconds(call, random, this.options) * 1000;
      }
      calls.push({ call, start: Math.round(callStart), end: Math.round(end), steps });
      cursor = step.sequential ? end + random.between(80, 300) : callStart + random.between(250, 1100);
    }
    const end = Math.max(textAt + 200, ...calls.map((call) => call.end));
    const output = tokens(spoken) + tokens(JSON.stringify(step.calls)) + random.int(5, 60);
    const usage: Usage = { context: this.context, fresh: this.pendingFresh, output };
    this.context += this.pendingFresh + output;
    this.pendingFresh = calls.reduce((sum, timed) => sum + Math.min(9000, tokens(callOutputText(timed.call))) + 12, 0);
    return {
      kind: 'assistant', turn, step, start: Math.round(start), reasoningStart: Math.round(reasoningStart),
      reasoningEnd: Math.round(reasoningEnd), textAt: Math.round(textAt), calls, end: Math.round(end), usage, final: false,
    };
  }
}

export function buildTimeline(story: Story, random: Random, options: TimelineOptions): TimedTurn[] {
  const clock = new Clock(random, options);
  let cursor = Date.parse(story.session.start);
  const timeline: TimedTurn[] = [];
  story.turns.forEach((turn, index) => {
    if (isUserTurn(turn)) {
      const at = index === 0 ? cursor : cursor + (turn.after ?? random.between(18, 95)) * 1000;
      timeline.push({ kind: 'user', turn: index, text: turn.user, at: Math.round(at) });
      clock.pendingFresh += tokens(turn.user) + 20;
      cursor = at;
      return;
    }
    const start = cursor + (turn.after ?? 0) * 1000 + random.between(250, 1400);
    const timed = clock.step(turn.assistant, index, start);
    timeline.push(timed);
    cursor = timed.end;
  });
  timeline.forEach((turn, index) => {
    if (turn.kind !== 'assistant') return;
    const next = timeline[index + 1];
    turn.final = next === undefined || next.kind === 'user';
  });
  return timeline;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The full command a bash call ran, with its ssh wrapper. */
export function fullCommand(call: Extract<Call, { tool: 'bash' }>): string {
  if (call.ssh === undefined) return call.command;
  const command = call.command;
  // Quote the way people do: single quotes, double quotes when the command has single quotes
  // and nothing a double-quoted string would expand, else single quotes with '\'' escapes.
  if (!command.includes("'")) return `ssh ${call.ssh} '${command}'`;
  if (!/["$`\\]/.test(command)) return `ssh ${call.ssh} "${command}"`;
  return `ssh ${call.ssh} '${command.replaceAll("'", "'\\''")}'`;
}

/** stdout and stderr as one text, the way a terminal shows them. */
export function combinedOutput(call: Extract<Call, { tool: 'bash' }>): string {
  if (call.stderr === undefined || call.stderr === '') return call.output;
  if (call.output === '') return call.stderr;
  return call.output.endsWith('\n') ? call.output + call.stderr : `${call.output}\n${call.stderr}`;
}
