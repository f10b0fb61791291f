import type { ZodError } from 'zod';
import type { HeldMessage, HeldMessages } from '../jsonl/held-messages.js';
import { isJsonObject, type JsonObject } from '../jsonl/parse-line.js';
import { extraJson, extraOf, joinText, withExtra } from '../jsonl/values.js';
import { emptyMessage, type IngestItem, type Location, type ToolCallRecord } from '../../core/model.js';
import { describeIssues } from '../validation.js';
import { IGNORED_RESPONSE_ITEMS } from './known-kinds.js';
import type { ExecEndFacts } from './run-time.js';
import type { CodexSessionState } from './session-state.js';
import {
  callOutputSchema,
  customToolCallSchema,
  functionCallSchema,
  INJECTED_USER_TEXT,
  localShellCallSchema,
  messageItemSchema,
  reasoningItemSchema,
  webSearchCallSchema,
} from './schema.js';
import {
  asPoll, commandOf, commandOfArgv, completeCall, finishFromEnd, finishRunningCommand, mergeEnd, parseArguments, startCall, stillRunning,
} from './tool-calls.js';

export interface ItemContext {
  at: number | null;
  location: Location;
  raw: string;
}

type ContentItems = string | { type: string; text?: string | undefined }[];

export function textOf(content: ContentItems): string {
  if (typeof content === 'string') return content;
  return content
    .map((item) => (typeof item.text === 'string' ? item.text : item.type === 'input_image' ? '[image]' : ''))
    .filter((text) => text.length > 0)
    .join('\n\n');
}

/**
 * The `response_item`s of a rollout (also the bare items of the legacy format). Consecutive items
 * of one model response form one assistant message; an output of a call ends it, since the next
 * reasoning or call belongs to the model's next response.
 */
export class ResponseItems {
  private response: HeldMessage | null = null;
  private responseAnswered = false;
  private lastResponse: HeldMessage | null = null;
  /** Unified exec: the `exec_command` call a still-running process belongs to, by its session id. */
  private readonly running = new Map<number, string>();
  /** Processes an `exec_command_end` finished before a poll said so: the poll then only reports. */
  private readonly endedSessions = new Map<number, string>();
  /** `exec_command_end` events that came before their call's output (the usual order), by call id. */
  private readonly execEnds = new Map<string, ExecEndFacts>();

  constructor(
    private readonly held: HeldMessages,
    private readonly state: CodexSessionState,
    /** When resuming: the last prompt before the resume point. */
    private lastPromptId: string | null = null,
  ) {}

  sealResponse(): void {
    this.held.seal(this.response);
    this.response = null;
  }

  /** The response a token_count belongs to: the open one, or the last one if it has no tokens yet. */
  tokenTarget(): HeldMessage | null {
    if (this.response) return this.response;
    const last = this.lastResponse;
    return last && this.held.isHeld(last) && last.message.tokensOutput === null ? last : null;
  }

  onItem(item: JsonObject, context: ItemContext): IngestItem[] {
    const problem = (what: string, error: ZodError): IngestItem[] => [
      { kind: 'problem', message: `${what}: ${describeIssues(error)}`, location: context.location },
    ];
    const sessionId = this.state.sessionId();
    switch (item['type']) {
      case 'message': {
        const parsed = messageItemSchema.safeParse(item);
        return parsed.success ? this.onMessage(parsed.data.role, textOf(parsed.data.content), parsed.data.phase, context) : problem('message', parsed.error);
      }
      case 'reasoning': {
        const parsed = reasoningItemSchema.safeParse(item);
        if (!parsed.success) return problem('reasoning', parsed.error);
        const summary = textOf(parsed.data.summary ?? []);
        const response = this.open(context);
        response.message.reasoning = joinText(response.message.reasoning, summary || textOf(parsed.data.content ?? []));
        return [];
      }
      case 'function_call': {
        const parsed = functionCallSchema.safeParse(item);
        if (!parsed.success) return problem('function_call', parsed.error);
        const args = parseArguments(parsed.data.arguments);
        const { name, call_id: callId } = parsed.data;
        return this.issue(startCall({ sessionId, messageId: '', callId, tool: name, input: args, command: commandOf(name, args), at: context.at }), context);
      }
      case 'local_shell_call': {
        const parsed = localShellCallSchema.safeParse(item);
        if (!parsed.success) return problem('local_shell_call', parsed.error);
        const callId = parsed.data.call_id ?? parsed.data.id ?? `local_shell-line-${context.location.line ?? 0}`;
        const command = commandOfArgv(parsed.data.action.command ?? []);
        return this.issue(startCall({ sessionId, messageId: '', callId, tool: 'local_shell', input: parsed.data.action, command, at: context.at }), context);
      }
      case 'custom_tool_call': {
        const parsed = customToolCallSchema.safeParse(item);
        if (!parsed.success) return problem('custom_tool_call', parsed.error);
        const { name, call_id: callId, input } = parsed.data;
        return this.issue(startCall({ sessionId, messageId: '', callId, tool: name, input: { input: input ?? '' }, command: null, at: context.at }), context);
      }
      case 'web_search_call': {
        const parsed = webSearchCallSchema.safeParse(item);
        if (!parsed.success) return problem('web_search_call', parsed.error);
        const action = parsed.data.action ?? {};
        const callId = parsed.data.id ?? `web_search-line-${context.location.line ?? 0}`;
        const call = startCall({ sessionId, messageId: '', callId, tool: 'web_search', input: action, command: null, title: action.query ?? action.url ?? null, at: context.at });
        // Searched by the model's provider: no output ever reaches the rollout.
        return this.issue({ ...call, status: parsed.data.status ?? 'completed', endedAt: context.at }, context, false);
      }
      case 'image_generation_call': {
        const callId = typeof item['id'] === 'string' ? item['id'] : `image_generation-line-${context.location.line ?? 0}`;
        const prompt = typeof item['revised_prompt'] === 'string' ? item['revised_prompt'] : null;
        // Generated by the provider; the image itself (base64 `result`) is not kept.
        const call = startCall({ sessionId, messageId: '', callId, tool: 'image_generation', input: { revised_prompt: prompt }, command: null, title: prompt, at: context.at });
        const status = typeof item['status'] === 'string' ? item['status'] : 'completed';
        return this.issue({ ...call, status, endedAt: context.at }, context, false);
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const parsed = callOutputSchema.safeParse(item);
        return parsed.success ? this.onOutput(parsed.data.call_id, parsed.data.output, context, item['type']) : problem(item['type'], parsed.error);
      }
      default:
        if (IGNORED_RESPONSE_ITEMS.has(String(item['type']))) return [];
        return [{ kind: 'unknown', sessionId: this.state.id, what: `response_item:${String(item['type'])}`, raw: context.raw, location: context.location }];
    }
  }

  private onMessage(role: string, text: string, phase: string | null | undefined, context: ItemContext): IngestItem[] {
    if (role === 'assistant') {
      const response = this.open(context);
      response.message.text = joinText(response.message.text, text);
      if (phase) response.message.extra = extraJson({ phase });
      return [];
    }
    this.sealResponse();
    const injected = role !== 'user' || INJECTED_USER_TEXT.test(text);
    // A prompt starts a turn: what the last one left unanswered will stay so.
    const flushed = injected ? [] : this.held.flush();
    const message = emptyMessage(this.state.sessionId(), `line-${context.location.line ?? 0}`, injected ? 'system' : 'user');
    message.text = text;
    message.createdAt = context.at;
    message.completedAt = context.at;
    message.extra = extraJson({ kind: injected ? (role === 'user' ? 'context' : role) : 'prompt' });
    this.held.hold(message, context.location, false);
    if (!injected) {
      this.lastPromptId = message.id;
      this.state.notePrompt(text);
    }
    return flushed;
  }

  /** The response being read, or a new one when none is open or the last one's calls were answered. */
  private open(context: ItemContext): HeldMessage {
    if (this.response && !this.responseAnswered) {
      this.response.message.completedAt = context.at ?? this.response.message.completedAt;
      return this.response;
    }
    this.sealResponse();
    const message = emptyMessage(this.state.sessionId(), `line-${context.location.line ?? 0}`, 'assistant');
    message.parentId = this.lastPromptId;
    message.createdAt = context.at;
    message.completedAt = context.at;
    message.model = this.state.model;
    message.provider = this.state.provider;
    this.response = this.held.hold(message, context.location, true);
    this.responseAnswered = false;
    this.lastResponse = this.response;
    return this.response;
  }

  private issue(call: ToolCallRecord, context: ItemContext, waits = true): IngestItem[] {
    const response = this.open(context);
    if (response.calls.some((existing) => existing.callId === call.callId)) return [];
    this.held.addCall(response, { ...call, messageId: response.message.id }, waits);
    return [];
  }

  /**
   * An `exec_command_end`: stashed for its call's output when that has not come yet, else it ends
   * a process still running, or fills in what the output did not say.
   */
  onExecEnd(callId: string, end: ExecEndFacts, context: ItemContext): IngestItem[] {
    const call = this.held.findCall(callId) ?? this.held.findAnswered(callId);
    if (!call) {
      // A command the user ran (`!cmd`) has no call to attach to: kept raw, on purpose.
      return [{ kind: 'unknown', sessionId: this.state.id, what: 'exec_command_end:orphan', raw: context.raw, location: context.location, expected: end.source === 'user_shell' }];
    }
    const session = [...this.running].find(([, owner]) => owner === callId)?.[0];
    if (session !== undefined) {
      this.running.delete(session);
      this.endedSessions.set(session, callId);
      return this.held.update(callId, (command) => finishFromEnd(command, end)) ?? [];
    }
    if (this.held.isWaiting(callId) && call.output === null) {
      this.execEnds.set(callId, end);
      return [];
    }
    return this.held.amend(callId, (answered) => mergeEnd(answered, end)) ?? [];
  }

  /** End of input: a command whose end event came but whose output never did still ends. */
  finish(): IngestItem[] {
    const items: IngestItem[] = [];
    for (const [callId, end] of this.execEnds) items.push(...(this.held.update(callId, (call) => finishFromEnd(call, end)) ?? []));
    this.execEnds.clear();
    return items;
  }

  private onOutput(callId: string, output: unknown, context: ItemContext, type: string): IngestItem[] {
    if (this.response) this.responseAnswered = true;
    const call = this.held.findCall(callId);
    if (!call) return [{ kind: 'unknown', sessionId: this.state.id, what: `${type}:orphan`, raw: context.raw, location: context.location }];
    const end = this.execEnds.get(callId) ?? null;
    this.execEnds.delete(callId);
    const done = completeCall(call, output, context.at, end);
    if (call.tool === 'exec_command' && done.runningSession !== null && end === null) {
      this.running.set(done.runningSession, callId);
      return this.held.update(callId, () => stillRunning(done.call), false) ?? [];
    }
    if (call.tool !== 'write_stdin') return this.held.update(callId, () => done.call) ?? [];
    return this.onPoll(call, done.call, done.runningSession);
  }

  /**
   * A `write_stdin` poll: when its output says the process exited, the `exec_command` that started
   * it is finished too. A poll that failed (`write_stdin failed: stdin is closed…`, no exec
   * headers) says nothing of the process, which keeps running and can still be joined.
   */
  private onPoll(poll: ToolCallRecord, answered: ToolCallRecord, stillRunningIn: number | null): IngestItem[] {
    const args = parseArguments(poll.input);
    const session = isJsonObject(args) && typeof args['session_id'] === 'number' ? args['session_id'] : null;
    const target = session !== null ? (this.running.get(session) ?? null) : null;
    const ended = session !== null ? (this.endedSessions.get(session) ?? null) : null;
    const reportsExit = stillRunningIn === null && extraOf(answered)['outputStyle'] === 'unified';
    const items: IngestItem[] = [];
    let updated = answered;
    if (session !== null && target !== null && reportsExit) {
      this.running.delete(session);
      items.push(...(this.held.update(target, (command) => finishRunningCommand(command, answered, answered.exitCode)) ?? []));
      updated = asPoll(answered, target, answered.exitCode);
    } else if (session !== null && ended !== null && reportsExit) {
      // Its `exec_command_end` already finished the command: the poll only reports the exit.
      this.endedSessions.delete(session);
      updated = asPoll(answered, ended, answered.exitCode);
    } else if (target !== null) {
      updated = withExtra(answered, { polls: target });
    }
    items.push(...(this.held.update(poll.callId, () => updated) ?? []));
    return items;
  }
}
