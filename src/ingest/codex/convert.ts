import type { Line } from '../io/line-reader.js';
import { HeldMessages, type HeldMessage } from '../jsonl/held-messages.js';
import type { LineConverter } from '../jsonl/jsonl-source.js';
import { isJsonObject, type JsonObject } from '../jsonl/parse-line.js';
import { extraJson, joinText, numberOrNull, timeOf, withExtra } from '../jsonl/values.js';
import { emptyMessage, type IngestItem, type Location } from '../../core/model.js';
import { describeIssues } from '../validation.js';
import { ResponseItems } from './items.js';
import type { CodexResumeContext } from './resume-context.js';
import { CodexSessionState } from './session-state.js';
import { IGNORED_EVENTS, IGNORED_LINE_TYPES, TURN_COMPLETE_EVENTS, TURN_STARTED_EVENTS } from './known-kinds.js';
import { execEndFacts } from './run-time.js';
import {
  compactedSchema,
  execCommandEndSchema,
  legacyHeaderSchema,
  rolloutLineSchema,
  sessionMetaSchema,
  tokenCountSchema,
  turnContextSchema,
  type TokenUsage,
} from './schema.js';

export interface CodexFileContext {
  file: string;
  /** Set when reading resumes mid-file: what the lines before say. */
  resumed: CodexResumeContext | null;
}

/**
 * One Codex rollout (wrapped `{timestamp, type, payload}` lines, or the older unwrapped items
 * after a bare header) into normalised items. An assistant message is one model response: the
 * reasoning, text and calls it produced, up to its `token_count`; calls wait for their outputs.
 */
export class CodexConverter implements LineConverter {
  private readonly held = new HeldMessages();
  private readonly state: CodexSessionState;
  private readonly items: ResponseItems;
  private previousTotal: TokenUsage | null = null;
  private seenFirstLine = false;
  /** A `compacted` line made the boundary its `context_compacted` event would otherwise make. */
  private compactionShown = false;

  constructor(private readonly context: CodexFileContext) {
    const resumed = context.resumed;
    this.state = new CodexSessionState(context.file);
    this.items = new ResponseItems(this.held, this.state, resumed?.lastPromptId ?? null);
    if (resumed) {
      this.seenFirstLine = true;
      if (resumed.firstLine) this.prime(resumed.firstLine);
      this.state.primeResumed(resumed.firstModel, resumed.lastPromptId !== null);
      const turn = turnContextSchema.safeParse(resumed.turnContext);
      if (turn.success) this.state.noteModel(turn.data.model, turn.data.cwd);
    }
  }

  onLine(value: JsonObject, line: Line): IngestItem[] {
    const location: Location = { file: this.context.file, line: line.number };
    const first = !this.seenFirstLine;
    this.seenFirstLine = true;
    const out = this.dispatch(value, line, location, first);
    out.push(...this.held.release());
    return out;
  }

  idle(): boolean {
    return this.held.idle();
  }

  finish(): IngestItem[] {
    this.items.sealResponse();
    const ended = this.items.finish();
    return [...ended, ...this.held.flush(), ...this.state.finish()];
  }

  private prime(value: JsonObject): void {
    if ('payload' in value && value['type'] === 'session_meta') {
      const meta = sessionMetaSchema.safeParse(value['payload']);
      if (meta.success) this.state.fromMeta(meta.data);
    } else if (!('type' in value)) {
      const header = legacyHeaderSchema.safeParse(value);
      if (header.success) this.state.fromLegacyHeader(header.data.id, header.data.timestamp, header.data.git);
    }
  }

  private dispatch(value: JsonObject, line: Line, location: Location, first: boolean): IngestItem[] {
    const problem = (message: string): IngestItem[] => [{ kind: 'problem', message, location }];
    if (!('type' in value)) {
      if ('record_type' in value) {
        // Legacy marker between turns.
        this.items.sealResponse();
        return [];
      }
      const header = legacyHeaderSchema.safeParse(value);
      if (first && header.success) {
        this.state.fromLegacyHeader(header.data.id, header.data.timestamp, header.data.git);
        return [];
      }
      return [this.unknown('line:untyped', line.text, location)];
    }
    if (!('payload' in value)) return this.items.onItem(value, { at: null, location, raw: line.text }); // legacy bare item
    const parsed = rolloutLineSchema.safeParse(value);
    if (!parsed.success) return problem(describeIssues(parsed.error));
    const at = timeOf(parsed.data.timestamp);
    this.state.noteTime(at);
    const payload = parsed.data.payload;
    switch (parsed.data.type) {
      case 'session_meta': {
        const meta = sessionMetaSchema.safeParse(payload);
        if (!meta.success) return problem(`session_meta: ${describeIssues(meta.error)}`);
        this.state.fromMeta(meta.data);
        return [];
      }
      case 'turn_context': {
        const turn = turnContextSchema.safeParse(payload);
        if (!turn.success) return problem(`turn_context: ${describeIssues(turn.error)}`);
        this.items.sealResponse();
        this.state.noteModel(turn.data.model, turn.data.cwd);
        return [];
      }
      case 'response_item':
        this.compactionShown = false;
        if (!isJsonObject(payload) || typeof payload['type'] !== 'string') return problem('response_item: payload must be an object with a string "type"');
        return this.items.onItem(payload, { at, location, raw: line.text });
      case 'event_msg':
        if (!isJsonObject(payload) || typeof payload['type'] !== 'string') return problem('event_msg: payload must be an object with a string "type"');
        return this.onEvent(payload, payload['type'], at, location, line.text);
      case 'compacted':
        return this.onCompacted(payload, at, location);
      default:
        return IGNORED_LINE_TYPES.has(parsed.data.type) ? [] : [this.unknown(`line:${parsed.data.type}`, line.text, location)];
    }
  }

  private onEvent(payload: JsonObject, type: string, at: number | null, location: Location, raw: string): IngestItem[] {
    if (TURN_STARTED_EVENTS.has(type)) {
      this.items.sealResponse();
      return [];
    }
    if (TURN_COMPLETE_EVENTS.has(type)) {
      // The turn is over: calls still unanswered (a server left running) will not be answered in it.
      this.items.sealResponse();
      return this.held.flush();
    }
    switch (type) {
      case 'token_count': {
        const parsed = tokenCountSchema.safeParse(payload);
        if (!parsed.success) return [{ kind: 'problem', message: `token_count: ${describeIssues(parsed.error)}`, location }];
        const info = parsed.data.info;
        if (info) this.applyTokens(info.last_token_usage ?? null, info.total_token_usage ?? null);
        return [];
      }
      case 'exec_command_end': {
        const parsed = execCommandEndSchema.safeParse(payload);
        if (!parsed.success) return [{ kind: 'problem', message: `exec_command_end: ${describeIssues(parsed.error)}`, location }];
        return this.items.onExecEnd(parsed.data.call_id, execEndFacts(parsed.data, at), { at, location, raw });
      }
      case 'context_compacted':
        // Follows the `compacted` line of the same compaction; a boundary of its own only without one.
        if (!this.compactionShown) return this.compactionBoundary(null, at, location);
        this.compactionShown = false;
        return [];
      case 'turn_aborted': {
        const reason = typeof payload['reason'] === 'string' ? payload['reason'] : 'aborted';
        this.items.sealResponse();
        this.held.settleAll((call) => withExtra({ ...call, status: 'error', endedAt: at ?? call.endedAt }, { aborted: reason }));
        return this.held.flush();
      }
      case 'thread_name_updated': {
        const name = payload['thread_name'] ?? payload['name'];
        if (typeof name === 'string') this.state.setThreadName(name);
        return [];
      }
      default:
        return IGNORED_EVENTS.has(type) ? [] : [this.unknown(`event_msg:${type}`, raw, location)];
    }
  }

  /** `last_token_usage` of one model response (or the growth of the running total in old files). */
  private applyTokens(last: TokenUsage | null, total: TokenUsage | null): void {
    const delta = last ?? (total ? subtractUsage(total, this.previousTotal) : null);
    if (total) this.previousTotal = total;
    const target: HeldMessage | null = this.items.tokenTarget();
    this.items.sealResponse();
    if (!delta || !target) return;
    const message = target.message;
    const input = numberOrNull(delta.input_tokens);
    const cached = numberOrNull(delta.cached_input_tokens);
    // OpenAI counts cached tokens inside input_tokens; the store keeps input without cache reads.
    message.tokensInput = input !== null ? input - (cached ?? 0) : null;
    message.tokensCacheRead = cached;
    message.tokensOutput = numberOrNull(delta.output_tokens);
    message.tokensReasoning = numberOrNull(delta.reasoning_output_tokens);
  }

  private onCompacted(payload: unknown, at: number | null, location: Location): IngestItem[] {
    const parsed = compactedSchema.safeParse(payload);
    if (!parsed.success) return [{ kind: 'problem', message: `compacted: ${describeIssues(parsed.error)}`, location }];
    return this.compactionBoundary(parsed.data, at, location);
  }

  /**
   * A compaction boundary, kept as a message of role `compaction` that `show` and the TUI list:
   * the model's history restarts here from the summary (the `compacted` line's `message`).
   */
  private compactionBoundary(compacted: { message?: string | undefined; replacement_history?: unknown[] | null | undefined } | null, at: number | null, location: Location): IngestItem[] {
    this.items.sealResponse();
    const message = emptyMessage(this.state.sessionId(), `line-${location.line ?? 0}`, 'compaction');
    const summary = compacted?.message ?? '';
    // The summary the model's history restarts from follows the boundary's own line.
    message.text = joinText('Context compacted', summary);
    message.createdAt = at;
    message.completedAt = at;
    message.extra = extraJson({ kind: 'compaction', replacementHistoryItems: compacted?.replacement_history?.length });
    this.held.hold(message, location, false);
    this.compactionShown = compacted !== null;
    return [];
  }

  private unknown(what: string, raw: string, location: Location): IngestItem {
    return { kind: 'unknown', sessionId: this.state.id, what, raw, location };
  }
}

function subtractUsage(total: TokenUsage, previous: TokenUsage | null): TokenUsage {
  const minus = (key: keyof TokenUsage): number | null => {
    const now = numberOrNull(total[key]);
    return now === null ? null : now - (numberOrNull(previous?.[key]) ?? 0);
  };
  return {
    input_tokens: minus('input_tokens'),
    cached_input_tokens: minus('cached_input_tokens'),
    output_tokens: minus('output_tokens'),
    reasoning_output_tokens: minus('reasoning_output_tokens'),
  };
}
