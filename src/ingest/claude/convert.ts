import type { ZodError } from 'zod';
import type { Line } from '../io/line-reader.js';
import { HeldMessages, type HeldMessage } from '../jsonl/held-messages.js';
import type { LineConverter } from '../jsonl/jsonl-source.js';
import { isJsonObject, type JsonObject } from '../jsonl/parse-line.js';
import { extraJson, timeOf } from '../jsonl/values.js';
import { emptyMessage, type IngestItem, type Location } from '../../core/model.js';
import { describeIssues } from '../validation.js';
import { addBlocks, applyUsage, assistantExtra, newAssistantMessage, SYNTHETIC_MODEL } from './assistant.js';
import { CLAUDE_LINE_TYPES, COMPACTION_SUBTYPES } from './detect.js';
import type { ReplayFilter } from './replay.js';
import type { ClaudeResumeContext } from './resume-context.js';
import { ClaudeSessionState } from './session-state.js';
import {
  aiTitleSchema,
  assistantMessageSchema,
  attachmentSchema,
  customTitleSchema,
  recordSchema,
  summarySchema,
  userMessageSchema,
  type ClaudeRecord,
  type SubagentMeta,
} from './schema.js';
import { completeCall, resultText } from './tool-result.js';

export interface ClaudeFileContext {
  file: string;
  /** Set when reading resumes mid-file: what the lines before say. */
  resumed: ClaudeResumeContext | null;
  /** Session and agent ids the path implies, used until a record names them. */
  pathSessionId: string | null;
  pathAgentId: string | null;
  meta: SubagentMeta | null;
  /** A subagent forked with its parent's context: tells the replayed parent records (replay.ts). */
  replay?: ReplayFilter | null;
}

const RECENT_ASSISTANT_MESSAGES = 64;

/**
 * One Claude Code transcript (a main session or a subagent's) into normalised items. Assistant
 * lines are grouped by `message.id` (one line per content block), tool results are matched to
 * their call by `tool_use_id`, and every line type retrace does not model is kept raw.
 */
export class ClaudeConverter implements LineConverter {
  private readonly held = new HeldMessages();
  private readonly state: ClaudeSessionState;
  private readonly recent = new Map<string, HeldMessage>();
  private current: HeldMessage | null = null;
  private lastPromptId: string | null;

  constructor(private readonly context: ClaudeFileContext) {
    this.state = new ClaudeSessionState(context);
    this.lastPromptId = context.resumed?.lastPromptId ?? null;
  }

  onLine(value: JsonObject, line: Line): IngestItem[] {
    const location: Location = { file: this.context.file, line: line.number };
    if (!('type' in value)) return [this.unknown('line:untyped', line.text, location)];
    const parsed = recordSchema.safeParse(value);
    if (!parsed.success) return [{ kind: 'problem', message: describeIssues(parsed.error), location }];
    const record = parsed.data;
    // The parent's records a forked subagent replays are the parent's: stored once, with it.
    if (this.context.replay?.isReplay(record, value)) return this.held.release();
    const at = timeOf(record.timestamp);
    this.state.noteRecord(record, value, at);
    // Lines of one API response share `message.id`; a line without one stands alone.
    const apiId = isJsonObject(value['message']) ? value['message']['id'] : undefined;
    const messageId = record.type === 'assistant' ? (typeof apiId === 'string' && apiId ? apiId : (record.uuid ?? `line-${line.number}`)) : null;
    if (this.current && this.current.message.id !== messageId) {
      this.held.seal(this.current);
      this.current = null;
    }
    const items = this.dispatch(record, value, line, at, location, messageId);
    items.push(...this.held.release());
    return items;
  }

  idle(): boolean {
    return this.held.idle();
  }

  finish(): IngestItem[] {
    this.held.seal(this.current);
    this.current = null;
    return [...this.held.flush(), ...this.state.finish(this.context.replay?.replayed ?? 0)];
  }

  private dispatch(record: ClaudeRecord, value: JsonObject, line: Line, at: number | null, location: Location, messageId: string | null): IngestItem[] {
    switch (record.type) {
      case 'assistant':
        return this.onAssistant(record, value, messageId ?? `line-${line.number}`, at, location);
      case 'user':
        return this.onUser(record, value, at, location);
      case 'summary':
        return this.onTitle(summarySchema.safeParse(value), (v) => this.state.setTitle('summary', v.summary, line.text), location);
      case 'ai-title':
        return this.onTitle(aiTitleSchema.safeParse(value), (v) => this.state.setTitle('ai', v.aiTitle), location);
      case 'custom-title':
        return this.onTitle(customTitleSchema.safeParse(value), (v) => this.state.setTitle('custom', v.customTitle), location);
      case 'attachment':
        return this.onAttachment(record, value, line, at, location);
      default: {
        const subtype = value['subtype'];
        if (record.type === 'system' && typeof subtype === 'string' && COMPACTION_SUBTYPES.has(subtype)) return this.onCompaction(record, value, at, location);
        // The end of a turn: calls still unanswered will not be answered any more.
        const flushed = record.type === 'system' && subtype === 'turn_duration' ? this.held.flush() : [];
        return [...flushed, this.unknown(`line:${record.type}`, line.text, location, CLAUDE_LINE_TYPES.has(record.type))];
      }
    }
  }

  private onAssistant(record: ClaudeRecord, value: JsonObject, id: string, at: number | null, location: Location): IngestItem[] {
    const parsed = assistantMessageSchema.safeParse(value['message']);
    if (!parsed.success) return [{ kind: 'problem', message: `assistant message: ${describeIssues(parsed.error)}`, location }];
    const message = parsed.data;
    const sessionId = this.state.sessionId();
    if (!this.current) {
      const known = this.recent.get(id);
      if (known && this.held.isHeld(known)) known.open = true;
      else if (known) this.held.rehold(known);
      this.current = known ?? this.held.hold(newAssistantMessage(sessionId, id, message, this.lastPromptId, at), location, true);
      this.remember(this.current);
    }
    const entry = this.current;
    entry.message.completedAt = at ?? entry.message.completedAt;
    if (message.model && message.model !== SYNTHETIC_MODEL) this.state.noteModel(message.model);
    applyUsage(entry.message, message.usage);
    entry.message.extra = assistantExtra(message, record.requestId);
    return addBlocks(message, { held: this.held, entry, sessionId, at, location, isApiError: record.isApiErrorMessage === true });
  }

  private onUser(record: ClaudeRecord, value: JsonObject, at: number | null, location: Location): IngestItem[] {
    const parsed = userMessageSchema.safeParse(value['message']);
    if (!parsed.success) return [{ kind: 'problem', message: `user message: ${describeIssues(parsed.error)}`, location }];
    const content = parsed.data.content;
    if (typeof content === 'string') return this.prompt(record, content, at, location, 'prompt');
    const items: IngestItem[] = [];
    const texts: string[] = [];
    content.forEach((block, index) => {
      if (block.type === 'tool_result') {
        const sessionId = this.state.sessionId();
        const callId = block.tool_use_id ?? '';
        const done = this.held.update(callId, (call) => completeCall(call, block, value['toolUseResult'], at, sessionId));
        if (done) items.push(...done);
        else items.push(this.unknown('tool_result:orphan', JSON.stringify(block), { ...location, path: `$.message.content[${index}]` }));
      } else if (block.type === 'text' && block.text) texts.push(block.text);
      else if (block.type === 'image') texts.push('[image]');
    });
    // Text beside a tool result is said mid-turn: it must not end the turn's waiting calls.
    const kind = content.some((block) => block.type === 'tool_result') ? 'beside_tool_result' : 'prompt';
    if (texts.length > 0) items.push(...this.prompt(record, texts.join('\n\n'), at, location, kind));
    return items;
  }

  private onAttachment(record: ClaudeRecord, value: JsonObject, line: Line, at: number | null, location: Location): IngestItem[] {
    const parsed = attachmentSchema.safeParse(value);
    if (parsed.success && parsed.data.attachment.type === 'queued_command') {
      // A prompt typed while the agent was busy, handed to it at this point.
      return this.prompt(record, resultText(parsed.data.attachment.prompt), at, location, 'queued_command');
    }
    return [this.unknown('line:attachment', line.text, location, true)];
  }

  /**
   * A compaction boundary (`system` `compact_boundary`, `compactMetadata {trigger, preTokens}`): a
   * message of role `compaction` that `show` and the TUI list; the summary the conversation
   * continues from follows as an `isCompactSummary` user record (kept as a system message).
   */
  private onCompaction(record: ClaudeRecord, value: JsonObject, at: number | null, location: Location): IngestItem[] {
    const meta = isJsonObject(value['compactMetadata']) ? value['compactMetadata'] : {};
    const trigger = typeof meta['trigger'] === 'string' ? meta['trigger'] : null;
    const preTokens = typeof meta['preTokens'] === 'number' ? meta['preTokens'] : null;
    const how = [trigger, preTokens !== null ? `${preTokens.toLocaleString('en-US')} tokens before` : null].filter(Boolean).join(', ');
    const message = emptyMessage(this.state.sessionId(), record.uuid ?? `line-${location.line ?? 0}`, 'compaction');
    message.text = `Context compacted${how ? ` (${how})` : ''}`;
    message.createdAt = at;
    message.completedAt = at;
    message.extra = extraJson({ kind: String(value['subtype']), trigger, preTokens, logicalParentUuid: value['logicalParentUuid'] });
    this.held.hold(message, location, false);
    return [];
  }

  private prompt(record: ClaudeRecord, text: string, at: number | null, location: Location, kind: string): IngestItem[] {
    const injected = record.isMeta === true || record.isCompactSummary === true;
    const role = injected ? 'system' : 'user';
    const flushed = role === 'user' && kind === 'prompt' ? this.held.flush() : [];
    const message = emptyMessage(this.state.sessionId(), record.uuid ?? `line-${location.line ?? 0}`, role);
    message.text = text;
    message.createdAt = at;
    message.completedAt = at;
    message.extra = extraJson({
      kind: record.isCompactSummary ? 'compact_summary' : record.isMeta ? 'meta' : kind,
      promptId: record.promptId,
    });
    this.held.hold(message, location, false);
    if (role === 'user') {
      this.lastPromptId = message.id;
      this.state.notePrompt(text);
    }
    return flushed;
  }

  private onTitle<T>(parsed: { success: true; data: T } | { success: false; error: ZodError }, apply: (value: T) => void, location: Location): IngestItem[] {
    if (!parsed.success) return [{ kind: 'problem', message: describeIssues(parsed.error), location }];
    apply(parsed.data);
    return [];
  }

  private remember(entry: HeldMessage): void {
    this.recent.delete(entry.message.id);
    this.recent.set(entry.message.id, entry);
    if (this.recent.size > RECENT_ASSISTANT_MESSAGES) this.recent.delete(this.recent.keys().next().value as string);
  }

  /** A record kept raw; `expected` for kinds Claude Code is known to write (detect.ts), not drift. */
  private unknown(what: string, raw: string, location: Location, expected = false): IngestItem {
    return { kind: 'unknown', sessionId: this.state.sessionIdOrNull(), what, raw, location, ...(expected ? { expected } : {}) };
  }
}
