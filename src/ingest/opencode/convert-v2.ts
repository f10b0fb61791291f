import { emptyMessage, type IngestItem, type Location, type MessageRecord, type ToolCallRecord } from '../../core/model.js';
import { describeIssues } from '../validation.js';
import { compactJson, leftovers } from './compact.js';
import {
  V2_COMMON_FIELDS,
  V2_MESSAGE_FIELDS,
  v2ContentSchema,
  v2MessageDataSchema,
  v2ToolContentSchema,
  v2ToolSchema,
  type V2MessageData,
  type V2Tool,
} from './schema-v2.js';
import { exitFromNotice, SHELL_TOOLS, STOPPED_ERROR, timeoutMarked } from './tool-outcome.js';
import { errorText, numberOrNull, stringOrNull } from './values.js';

/** One `session_message` row: ids, type and order are columns; `data` is the parsed JSON. */
export interface V2MessageRow {
  id: string;
  sessionId: string;
  type: string;
  seq: number | null;
  timeCreated: number | null;
  data: Record<string, unknown>;
}

export interface ConvertedV2Message {
  /** Null when the row could not become a message (unknown type, invalid data): see `items`. */
  message: MessageRecord | null;
  toolCalls: ToolCallRecord[];
  /** Unknown records and problems found inside the row. */
  items: IngestItem[];
  /** `message.<type>.<field>` for every field the type does not define. */
  unknownFields: string[];
}

/** Fields the converter turns into columns; everything else of `data` goes to `extra`. */
const TAKEN_ALWAYS = ['id', 'type', 'time'];
const TAKEN_BY_TYPE: Readonly<Record<string, readonly string[]>> = {
  assistant: ['content', 'tokens', 'cost', 'error'],
  shell: ['callID', 'command', 'output'],
  compaction: ['summary'],
};

/**
 * Turns one opencode 2.x message into the normalised model. The role is the message type
 * (`user`, `assistant`, `synthetic`, `shell`, `compaction`, `idle`, …): 2.x has no other notion
 * of role, and the tree reads only `user` and `assistant` turns, as it does for 1.x.
 */
export function convertV2Message(row: V2MessageRow, location: Location): ConvertedV2Message {
  const known = V2_MESSAGE_FIELDS[row.type];
  if (!known) {
    const raw = JSON.stringify({ id: row.id, type: row.type, seq: row.seq, ...row.data });
    return { message: null, toolCalls: [], items: [{ kind: 'unknown', sessionId: row.sessionId, what: `message:${row.type}`, raw, location }], unknownFields: [] };
  }
  const parsed = v2MessageDataSchema.safeParse(row.data);
  if (!parsed.success) {
    const problem = `${row.type} message ${row.id}: ${describeIssues(parsed.error)}`;
    return { message: null, toolCalls: [], items: [{ kind: 'problem', message: problem, location }], unknownFields: [] };
  }
  const data = parsed.data;
  const message = emptyMessage(row.sessionId, row.id, row.type);
  message.createdAt = numberOrNull(data.time?.created) ?? row.timeCreated;
  message.completedAt = numberOrNull(data.time?.completed);
  const unknownFields = Object.keys(row.data)
    .filter((key) => !V2_COMMON_FIELDS.has(key) && !known.includes(key))
    .map((key) => `message.${row.type}.${key}`);
  const items: IngestItem[] = [];
  const toolCalls: ToolCallRecord[] = [];
  if (row.type === 'assistant') readAssistant(message, data, location, items, toolCalls);
  else if (row.type === 'shell') toolCalls.push(userShellCall(row, data));
  else if (row.type === 'compaction') message.text = data.summary ?? '';
  else message.text = data.text ?? '';
  const extra = leftovers(row.data, new Set([...TAKEN_ALWAYS, ...(TAKEN_BY_TYPE[row.type] ?? []), ...(message.text ? ['text'] : [])]));
  message.extra = extra ? JSON.stringify(extra) : null;
  return { message, toolCalls, items, unknownFields };
}

function readAssistant(message: MessageRecord, data: V2MessageData, location: Location, items: IngestItem[], calls: ToolCallRecord[]): void {
  message.model = data.model?.id ?? null;
  message.provider = data.model?.providerID ?? null;
  message.tokensInput = numberOrNull(data.tokens?.input);
  message.tokensOutput = numberOrNull(data.tokens?.output);
  message.tokensReasoning = numberOrNull(data.tokens?.reasoning);
  message.tokensCacheRead = numberOrNull(data.tokens?.cache?.read);
  message.tokensCacheWrite = numberOrNull(data.tokens?.cache?.write);
  message.cost = numberOrNull(data.cost);
  message.error = errorText(data.error);
  const texts: string[] = [];
  const reasoning: string[] = [];
  (data.content ?? []).forEach((raw, index) => {
    const where: Location = { ...location, path: `${location.path ?? '$'}.content[${index}]` };
    const item = v2ContentSchema.safeParse(raw);
    if (!item.success) {
      items.push({ kind: 'problem', message: `content: ${describeIssues(item.error)}`, location: where });
      return;
    }
    if (item.data.type === 'text') texts.push(item.data.text ?? '');
    else if (item.data.type === 'reasoning') reasoning.push(item.data.text ?? '');
    else if (item.data.type === 'tool') {
      const tool = v2ToolSchema.safeParse(raw);
      if (tool.success) calls.push(toolCallOf(message.sessionId, message.id, tool.data));
      else items.push({ kind: 'problem', message: `tool: ${describeIssues(tool.error)}`, location: where });
    } else {
      items.push({ kind: 'unknown', sessionId: message.sessionId, what: `content:${item.data.type}`, raw: JSON.stringify(raw), location: where });
    }
  });
  message.text = texts.filter((text) => text.length > 0).join('\n\n');
  message.reasoning = reasoning.filter((text) => text.length > 0).join('\n\n');
}

/** The text a tool returned: its `text` content items, as the model saw them one after another. */
function contentText(content: readonly unknown[] | null | undefined): string | null {
  const texts: string[] = [];
  for (const raw of content ?? []) {
    const item = v2ToolContentSchema.safeParse(raw);
    if (item.success && item.data.type === 'text' && item.data.text !== undefined) texts.push(item.data.text);
  }
  return texts.length > 0 ? texts.join('\n\n') : null;
}

function toolCallOf(sessionId: string, messageId: string, tool: V2Tool): ToolCallRecord {
  const state = tool.state;
  const metadata = state.metadata ?? {};
  const structured = state.structured ?? {};
  const errorMessage = errorText(state.error);
  const output =
    contentText(state.content) ??
    stringOrNull(state.output) ??
    stringOrNull(structured['output']) ??
    stringOrNull(metadata['output']) ??
    (state.status === 'error' ? errorMessage : null);
  const input = state.input ?? {};
  const commandValue = typeof input === 'object' && input !== null ? Reflect.get(input, 'command') : undefined;
  const command = SHELL_TOOLS.has(tool.name) && typeof commandValue === 'string' ? commandValue : null;
  // `ran` is when execution began (after permission asks); `created` when the model called the tool.
  const start = numberOrNull(tool.time?.ran) ?? numberOrNull(tool.time?.created);
  const end = numberOrNull(tool.time?.completed);
  const stateRest = leftovers(state, new Set(['status', 'input', 'content', 'title', 'output']));
  const toolRest = leftovers(tool, new Set(['type', 'id', 'name', 'state']));
  const files = (state.content ?? []).filter((item) => v2ToolContentSchema.safeParse(item).data?.type === 'file');
  const extra = { ...(toolRest ?? {}), ...(stateRest ? { state: stateRest } : {}), ...(files.length > 0 ? { files: compactJson(files) } : {}) };
  return {
    sessionId,
    messageId,
    callId: tool.id,
    tool: tool.name,
    status: state.status,
    input: JSON.stringify(input),
    command,
    output,
    title: state.title ?? stringOrNull(Reflect.get(tool, 'title')),
    startedAt: start,
    endedAt: end,
    durationMs: start !== null && end !== null ? Math.max(0, end - start) : null,
    exitCode: numberOrNull(metadata['exit']) ?? numberOrNull(structured['exit']) ?? (command !== null ? exitFromNotice(output) : null),
    timedOut:
      metadata['timeout'] === true ||
      structured['timeout'] === true ||
      timeoutMarked(output) ||
      (state.status === 'error' && STOPPED_ERROR.test(errorMessage ?? '')),
    truncated: metadata['truncated'] === true || structured['truncated'] === true,
    parallelGroup: null,
    extra: Object.keys(extra).length > 0 ? JSON.stringify(extra) : null,
  };
}

/** A command the user ran with `!` (a `shell` message): a shell call of its own, outside any assistant turn. */
function userShellCall(row: V2MessageRow, data: V2MessageData): ToolCallRecord {
  const start = numberOrNull(data.time?.created) ?? row.timeCreated;
  const end = numberOrNull(data.time?.completed);
  const output = data.output ?? null;
  const command = data.command ?? null;
  return {
    sessionId: row.sessionId,
    messageId: row.id,
    callId: data.callID ?? `${row.id}:shell`,
    tool: 'shell',
    status: end !== null ? 'completed' : 'running',
    input: JSON.stringify(command !== null ? { command } : {}),
    command,
    output,
    title: null,
    startedAt: start,
    endedAt: end,
    durationMs: start !== null && end !== null ? Math.max(0, end - start) : null,
    exitCode: exitFromNotice(output),
    timedOut: timeoutMarked(output),
    truncated: false,
    parallelGroup: null,
    extra: JSON.stringify({ ranBy: 'user' }),
  };
}
