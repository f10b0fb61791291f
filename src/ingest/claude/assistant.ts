import { emptyMessage, type IngestItem, type Location, type MessageRecord } from '../../core/model.js';
import type { HeldMessage, HeldMessages } from '../jsonl/held-messages.js';
import { isJsonObject } from '../jsonl/parse-line.js';
import { extraJson, issuedCall, joinText, numberOrNull } from '../jsonl/values.js';
import { SHELL_TOOLS, type AssistantMessage, type ContentBlock, type Usage } from './schema.js';
import { completeServerCall, isServerResultBlock, SERVER_CALL_BLOCKS } from './server-tools.js';

/** Claude Code's own stand-in model for messages it wrote itself (errors, "No response requested."). */
export const SYNTHETIC_MODEL = '<synthetic>';

export function newAssistantMessage(sessionId: string, id: string, message: AssistantMessage, parentId: string | null, at: number | null): MessageRecord {
  const record = emptyMessage(sessionId, id, 'assistant');
  record.parentId = parentId;
  record.createdAt = at;
  record.model = message.model ?? null;
  record.provider = 'anthropic';
  return record;
}

/** Every line of a response repeats its usage: the last copy is the response's (counted once per id). */
export function applyUsage(record: MessageRecord, usage: Usage | null | undefined): void {
  if (!usage) return;
  record.tokensInput = numberOrNull(usage.input_tokens);
  record.tokensOutput = numberOrNull(usage.output_tokens);
  record.tokensCacheRead = numberOrNull(usage.cache_read_input_tokens);
  record.tokensCacheWrite = numberOrNull(usage.cache_creation_input_tokens);
  record.tokensReasoning = numberOrNull(usage.output_tokens_details?.thinking_tokens);
}


export interface BlockContext {
  held: HeldMessages;
  entry: HeldMessage;
  sessionId: string;
  at: number | null;
  location: Location;
  isApiError: boolean;
}

/** Adds one line's content blocks to the message being assembled; unknown block types are kept raw. */
export function addBlocks(message: AssistantMessage, context: BlockContext): IngestItem[] {
  const { entry, held } = context;
  const record = entry.message;
  const items: IngestItem[] = [];
  const blocks: ContentBlock[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  blocks.forEach((block, index) => {
    if (block.type === 'text' && typeof block.text === 'string') {
      record.text = joinText(record.text, block.text);
      if (context.isApiError) record.error = joinText(record.error ?? '', block.text);
    } else if (block.type === 'thinking') {
      // Newer models store only a signature: an empty thinking text adds nothing.
      record.reasoning = joinText(record.reasoning, block.thinking ?? '');
    } else if (block.type === 'redacted_thinking') {
      record.reasoning = joinText(record.reasoning, '[redacted thinking]');
    } else if (block.type === 'tool_use' || SERVER_CALL_BLOCKS.has(block.type)) {
      const callId = block.id ?? `${record.id}:${entry.calls.length}`;
      if (entry.calls.some((call) => call.callId === callId)) return;
      const tool = block.name ?? 'unknown';
      const input = isJsonObject(block.input) ? block.input : {};
      const command = SHELL_TOOLS.has(tool) && typeof input['command'] === 'string' ? input['command'] : null;
      // A provider's search or fetch has no description: its query or URL says what it did.
      const described = block.type === 'tool_use' ? input['description'] : (input['query'] ?? input['url']);
      const call = issuedCall({
        sessionId: context.sessionId, messageId: record.id, callId, tool, input: JSON.stringify(block.input ?? {}), command,
        title: typeof described === 'string' ? described : null, startedAt: context.at,
      });
      const serverName = typeof block['server_name'] === 'string' ? block['server_name'] : undefined;
      // Run by the model's provider, not by Claude Code: said so, since no local process ran it.
      const marked = block.type === 'tool_use' ? call : { ...call, extra: extraJson({ runBy: 'provider', callType: block.type, server: serverName }) };
      held.addCall(entry, marked, true);
    } else if (isServerResultBlock(block.type) && typeof block.tool_use_id === 'string') {
      const done = held.update(block.tool_use_id, (call) => completeServerCall(call, block, context.at));
      if (done) items.push(...done);
      else items.push({ kind: 'unknown', sessionId: context.sessionId, what: `block:${block.type}:orphan`, raw: JSON.stringify(block), location: { ...context.location, path: `$.message.content[${index}]` } });
    } else if (block.type === 'image') {
      record.text = joinText(record.text, '[image]');
    } else {
      const path = `$.message.content[${index}]`;
      items.push({ kind: 'unknown', sessionId: context.sessionId, what: `block:${block.type}`, raw: JSON.stringify(block), location: { ...context.location, path } });
    }
  });
  return items;
}

export function assistantExtra(message: AssistantMessage, requestId: string | undefined): string | null {
  return extraJson({ stopReason: message.stop_reason, requestId });
}
