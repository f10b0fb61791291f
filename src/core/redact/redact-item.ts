import type { MessageItem, SessionItem, ToolCallRecord, UnknownItem } from '../model.js';
import { mayHoldSecret, redactText, redactValue, type RedactionCounts } from './redact.js';

/** Redacts a JSON text through its parsed value, so escaped quotes cannot hide a secret. */
export function redactJsonText(text: string | null, counts: RedactionCounts): string | null {
  if (text === null) return null;
  // Anchors look for quotes (`"password":`); inside JSON text those are escaped (`\"password\":`).
  const unescaped = text.includes('\\') ? text.replace(/\\"/g, '"') : text;
  if (!mayHoldSecret(unescaped)) return text;
  try {
    return JSON.stringify(redactValue(JSON.parse(text), counts));
  } catch {
    // Not JSON after all, or nested too deeply to walk: redact the text itself.
    return redactText(text, counts);
  }
}

function nullable(text: string | null, counts: RedactionCounts): string | null {
  return text === null ? null : redactText(text, counts);
}

function redactToolCall(call: ToolCallRecord, counts: RedactionCounts): ToolCallRecord {
  return {
    ...call,
    input: redactJsonText(call.input, counts) ?? '{}',
    command: nullable(call.command, counts),
    output: nullable(call.output, counts),
    title: nullable(call.title, counts),
    extra: redactJsonText(call.extra, counts),
  };
}

export function redactMessageItem(item: MessageItem, counts: RedactionCounts): MessageItem {
  const message = item.message;
  return {
    ...item,
    message: {
      ...message,
      text: redactText(message.text, counts),
      reasoning: redactText(message.reasoning, counts),
      error: nullable(message.error, counts),
      extra: redactJsonText(message.extra, counts),
    },
    toolCalls: item.toolCalls.map((call) => redactToolCall(call, counts)),
  };
}

export function redactSessionItem(item: SessionItem, counts: RedactionCounts): SessionItem {
  const session = item.session;
  return {
    ...item,
    session: {
      ...session,
      title: nullable(session.title, counts),
      directory: nullable(session.directory, counts),
      extra: redactJsonText(session.extra, counts),
    },
  };
}

export function redactUnknownItem(item: UnknownItem, counts: RedactionCounts): UnknownItem {
  return { ...item, raw: redactJsonText(item.raw, counts) ?? '' };
}

export function redactProblemMessage(message: string, counts: RedactionCounts): string {
  return redactText(message, counts);
}
