import { emptyMessage, type IngestItem, type Location, type MessageRecord, type ToolCallRecord } from '../../core/model.js';
import { assignParallelGroups } from '../parallel-groups.js';
import { convertV2Message, type V2MessageRow } from './convert-v2.js';
import {
  KNOWN_MESSAGE_FIELDS,
  KNOWN_PART_TYPES,
  KNOWN_SESSION_FIELDS,
  messageInfoSchema,
  partSchema,
  sessionInfoSchema,
  type MessageInfo,
  type Part,
  type SessionInfo,
} from './schema.js';
import { SHELL_TOOLS, STOPPED_ERROR, timeoutMarked } from './tool-outcome.js';
import { errorText, numberOrNull } from './values.js';
import { describeIssues, pickUnknown } from '../validation.js';

export interface RawMessage {
  info: unknown;
  parts: unknown[];
}

function toolCallOf(sessionId: string, messageId: string, part: Part): ToolCallRecord {
  const state = part.state;
  const input = state?.input ?? {};
  const metadata = state?.metadata ?? {};
  const output = state?.output ?? state?.error ?? (typeof metadata['output'] === 'string' ? metadata['output'] : null);
  const start = numberOrNull(state?.time?.start);
  const end = numberOrNull(state?.time?.end);
  const command =
    SHELL_TOOLS.has(part.tool ?? '') && typeof (input as { command?: unknown }).command === 'string'
      ? (input as { command: string }).command
      : null;
  const timedOut = timeoutMarked(output) || (state?.status === 'error' && STOPPED_ERROR.test(state.error ?? ''));
  const extra = pickUnknown(part, new Set(['id', 'type', 'sessionID', 'messageID', 'callID', 'tool', 'state']));
  const stateExtra = state ? pickUnknown(state, new Set(['status', 'input', 'output', 'error', 'title', 'time', 'raw'])) : null;
  return {
    sessionId,
    messageId,
    callId: part.callID ?? part.id,
    tool: part.tool ?? 'unknown',
    status: state?.status ?? 'unknown',
    input: JSON.stringify(input),
    command,
    output,
    title: state?.title ?? null,
    startedAt: start,
    endedAt: end,
    durationMs: start !== null && end !== null ? Math.max(0, end - start) : null,
    exitCode: numberOrNull(metadata['exit']),
    timedOut,
    truncated: metadata['truncated'] === true,
    parallelGroup: null,
    extra: extra || stateExtra ? JSON.stringify({ ...(extra ?? {}), ...(stateExtra ? { state: stateExtra } : {}) }) : null,
  };
}

/**
 * Turns one opencode session (info, then its messages with their parts, in order) into
 * normalised items. The same builder serves the export, the storage tree and the SQLite layouts.
 */
export class OpencodeSessionBuilder {
  private info: SessionInfo | null = null;
  private infoLocation: Location | null = null;
  private sessionId: string | null = null;
  private firstModel: string | null = null;
  private lastTime: number | null = null;
  private readonly unknownFields = new Map<string, number>();

  constructor(private readonly file: string) {}

  setInfo(raw: unknown, location: Location): IngestItem[] {
    const parsed = sessionInfoSchema.safeParse(raw);
    if (!parsed.success) {
      return [{ kind: 'problem', message: `session info: ${describeIssues(parsed.error)}`, location }];
    }
    this.info = parsed.data;
    this.infoLocation = location;
    this.sessionId = parsed.data.id;
    this.countUnknown('session', parsed.data, KNOWN_SESSION_FIELDS);
    return [];
  }

  /** One message and its parts; a message too deeply nested to handle is reported, never fatal. */
  addMessage(raw: RawMessage, location: Location): IngestItem[] {
    try {
      return this.convertMessage(raw, location);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      return [{ kind: 'problem', message: `message skipped: its JSON is nested too deeply (${error.message})`, location }];
    }
  }

  private convertMessage(raw: RawMessage, location: Location): IngestItem[] {
    const parsedInfo = messageInfoSchema.safeParse(raw.info);
    if (!parsedInfo.success) {
      return [{ kind: 'problem', message: `message info: ${describeIssues(parsedInfo.error)}`, location }];
    }
    const info = parsedInfo.data;
    const sessionId = this.sessionId ?? info.sessionID ?? null;
    if (!sessionId) return [{ kind: 'problem', message: `message ${info.id} names no session`, location }];
    this.sessionId = sessionId;
    const items: IngestItem[] = [];
    const message = this.messageRecord(sessionId, info);
    const calls: ToolCallRecord[] = [];
    const texts: string[] = [];
    const reasoning: string[] = [];
    const summarised: unknown[] = [];
    raw.parts.forEach((rawPart, index) => {
      const partLocation: Location = { ...location, path: `${location.path ?? '$'}.parts[${index}]` };
      const parsed = partSchema.safeParse(rawPart);
      if (!parsed.success) {
        items.push({ kind: 'problem', message: `part: ${describeIssues(parsed.error)}`, location: partLocation });
        return;
      }
      const part = parsed.data;
      if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
      else if (part.type === 'reasoning' && typeof part.text === 'string') reasoning.push(part.text);
      else if (part.type === 'tool') calls.push(toolCallOf(sessionId, info.id, part));
      else if (KNOWN_PART_TYPES.has(part.type)) summarised.push(summarisePart(part));
      else items.push({ kind: 'unknown', sessionId, what: `part:${part.type}`, raw: JSON.stringify(part), location: partLocation });
    });
    message.text = texts.join('\n\n');
    message.reasoning = reasoning.join('\n\n');
    const unknown = pickUnknown(info, KNOWN_MESSAGE_FIELDS);
    this.countUnknown('message', info, KNOWN_MESSAGE_FIELDS);
    const extra: Record<string, unknown> = {};
    if (unknown) extra['unknown'] = unknown;
    for (const key of ['mode', 'agent', 'path', 'finish', 'summary'] as const) {
      if ((info as Record<string, unknown>)[key] !== undefined) extra[key] = (info as Record<string, unknown>)[key];
    }
    if (summarised.length > 0) extra['parts'] = summarised;
    message.extra = Object.keys(extra).length > 0 ? JSON.stringify(extra) : null;
    this.track(message);
    items.unshift({ kind: 'message', message, toolCalls: assignParallelGroups(calls), location });
    return items;
  }

  /** One opencode 2.x `session_message` row (any type); a row of a type retrace does not know is kept raw. */
  addV2Message(row: V2MessageRow, location: Location): IngestItem[] {
    this.sessionId ??= row.sessionId;
    try {
      const converted = convertV2Message(row, location);
      for (const field of converted.unknownFields) this.unknownFields.set(field, (this.unknownFields.get(field) ?? 0) + 1);
      if (!converted.message) return converted.items;
      this.track(converted.message);
      return [
        { kind: 'message', message: converted.message, toolCalls: assignParallelGroups(converted.toolCalls), location },
        ...converted.items,
      ];
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      return [{ kind: 'problem', message: `message skipped: its JSON is nested too deeply (${error.message})`, location }];
    }
  }

  /** The session a database row names, for a session whose info and messages are all missing. */
  assumeSession(sessionId: string): void {
    this.sessionId ??= sessionId;
  }

  /** The session's model is its first assistant's; its end is the last message's. */
  private track(message: MessageRecord): void {
    if (message.role === 'assistant' && message.model && !this.firstModel) this.firstModel = message.model;
    const last = message.completedAt ?? message.createdAt;
    if (last !== null) this.lastTime = Math.max(this.lastTime ?? last, last);
  }

  /** The session record, once its messages are known (its model is the first assistant's). */
  finish(): IngestItem[] {
    if (!this.sessionId) return [];
    const info = this.info;
    const unknown = info ? pickUnknown(info, KNOWN_SESSION_FIELDS) : null;
    const extra: Record<string, unknown> = {};
    if (unknown) extra['unknown'] = unknown;
    if (info?.projectID) extra['projectID'] = info.projectID;
    if (info?.version) extra['version'] = info.version;
    return [
      {
        kind: 'session',
        session: {
          id: this.sessionId,
          agent: 'opencode',
          parentId: info?.parentID ?? null,
          title: info?.title ?? null,
          directory: info?.directory ?? null,
          startedAt: numberOrNull(info?.time?.created),
          endedAt: this.lastTime ?? numberOrNull(info?.time?.updated),
          model: this.firstModel,
          extra: Object.keys(extra).length > 0 ? JSON.stringify(extra) : null,
        },
        location: this.infoLocation ?? { file: this.file },
        agentVersion: info?.version ?? null,
        unknownFields: Object.fromEntries(this.unknownFields),
      },
    ];
  }

  private messageRecord(sessionId: string, info: MessageInfo): MessageRecord {
    const message = emptyMessage(sessionId, info.id, info.role);
    message.parentId = info.parentID ?? null;
    message.createdAt = numberOrNull(info.time?.created);
    message.completedAt = numberOrNull(info.time?.completed);
    message.model = info.modelID ?? info.model?.modelID ?? null;
    message.provider = info.providerID ?? info.model?.providerID ?? null;
    message.tokensInput = numberOrNull(info.tokens?.input);
    message.tokensOutput = numberOrNull(info.tokens?.output);
    message.tokensReasoning = numberOrNull(info.tokens?.reasoning);
    message.tokensCacheRead = numberOrNull(info.tokens?.cache?.read);
    message.tokensCacheWrite = numberOrNull(info.tokens?.cache?.write);
    message.cost = numberOrNull(info.cost);
    message.error = errorText(info.error);
    return message;
  }

  private countUnknown(prefix: string, value: object, known: ReadonlySet<string>): void {
    for (const key of Object.keys(value)) {
      if (!known.has(key)) this.unknownFields.set(`${prefix}.${key}`, (this.unknownFields.get(`${prefix}.${key}`) ?? 0) + 1);
    }
  }
}

/** Known parts retrace does not model keep their type and small fields (never large payloads). */
function summarisePart(part: Part): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(part)) {
    if (key === 'sessionID' || key === 'messageID') continue;
    if (typeof value === 'string' && value.length > 2048) summary[key] = `${value.slice(0, 2048)}… (${value.length} chars)`;
    else summary[key] = value;
  }
  return summary;
}
