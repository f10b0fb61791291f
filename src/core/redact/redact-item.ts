import type { MessageItem, SessionItem, ToolCallRecord, UnknownItem } from '../model.js';
import { findSecrets, mayHoldSecret, redactionMarker, redactText, totalRedactions, type RedactionCounts } from './redact.js';
import { redactValue } from './redact-value.js';

/**
 * JSON text read the way the walk will read it: escaped quotes unescaped (a keyword `"data"` is
 * `\"data\"` inside JSON text) and argv arrays joined (`["docker","login"]` holds `docker login`).
 */
function asPlainWords(text: string): string {
  return text.replace(/\\"/g, '"').replace(/"\s*,\s*"/g, ' ');
}

/**
 * Redacts a JSON text through its parsed value, so each string is judged with its key and an
 * escaped quote cannot hide a field. A text with nothing to redact keeps its exact bytes.
 */
export function redactJsonText(text: string | null, counts: RedactionCounts): string | null {
  if (text === null) return null;
  if (!mayHoldSecret(text) && !mayHoldSecret(asPlainWords(text))) return text;
  const found: RedactionCounts = {};
  let redacted: string;
  try {
    redacted = JSON.stringify(redactValue(JSON.parse(text), found));
  } catch {
    // Not JSON after all, or nested too deeply to write back: redact the text itself.
    for (const kind of Object.keys(found)) delete found[kind];
    redacted = redactText(text, found);
  }
  if (totalRedactions(found) === 0) return text;
  for (const [kind, n] of Object.entries(found)) counts[kind] = (counts[kind] ?? 0) + n;
  return redacted;
}

/** A file path or name: a token in a folder name (`…/hf_…/session.jsonl`) is a secret like any other. */
export function redactPath(path: string, counts: RedactionCounts): string {
  return redactText(path, counts);
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

/** Letters and digits that complete any cut-off token shape, to test whether a cut word was one. */
const COMPLETION = 'Zq8xW2eR4tY6uI0oP3aS5dF7gH9jK1lLmNx4Bv6Cy8Dz0Ew2Fa4Gb6Hc8Id0Je2KfQ';

/**
 * A title made from a prompt is cut at 80 characters (`…`): a secret cut there is too short to
 * match its shape, yet its first characters are still a secret. The cut word is tried completed.
 */
export function redactTitle(title: string | null, counts: RedactionCounts): string | null {
  if (title === null) return null;
  const redacted = redactText(title, counts);
  if (!redacted.endsWith('…')) return redacted;
  const cut = /[A-Za-z0-9_\-.+/]{4,}…$/.exec(redacted);
  if (!cut) return redacted;
  const head = redacted.slice(0, cut.index);
  const word = cut[0].slice(0, -1);
  const completed = `${head}${word}${COMPLETION}`;
  const covered = findSecrets(completed).some((span) => span.start <= head.length && span.end > head.length);
  if (!covered) return redacted;
  counts['truncated-secret'] = (counts['truncated-secret'] ?? 0) + 1;
  return `${head}${redactionMarker('truncated-secret')}…`;
}

export function redactSessionItem(item: SessionItem, counts: RedactionCounts): SessionItem {
  const session = item.session;
  return {
    ...item,
    session: {
      ...session,
      title: redactTitle(session.title, counts),
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
