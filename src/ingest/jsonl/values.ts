import type { ToolCallRecord } from '../../core/model.js';
import { isJsonObject } from './parse-line.js';

/** Epoch milliseconds of an ISO-8601 timestamp, or null when absent or unreadable. */
export function timeOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

export function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/**
 * The scalar fields of a side record (numbers, booleans, short strings), for `extra`: enough to
 * query (`agentId`, `durationMs`, `code`) without copying large payloads such as file contents.
 */
export function smallFields(value: unknown, maxString = 200): Record<string, unknown> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  let out: Record<string, unknown> | null = null;
  for (const [key, item] of Object.entries(value)) {
    const keep =
      typeof item === 'number' || typeof item === 'boolean' || (typeof item === 'string' && item.length <= maxString);
    if (!keep) continue;
    out ??= {};
    out[key] = item;
  }
  return out;
}

/** JSON text of an object with its undefined/null members dropped, or null when nothing is left. */
export function extraJson(fields: Record<string, unknown>): string | null {
  const kept = Object.entries(fields).filter(([, value]) => value !== undefined && value !== null);
  return kept.length > 0 ? JSON.stringify(Object.fromEntries(kept)) : null;
}

/** A session title made from the first prompt: its first non-empty line, at most 80 characters. */
export function titleFromPrompt(text: string): string | null {
  const first = text.split('\n').map((line) => line.trim()).find((line) => line.length > 0);
  if (!first) return null;
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}

export function joinText(into: string, more: string): string {
  if (more.length === 0) return into;
  return into.length === 0 ? more : `${into}\n\n${more}`;
}

/** A tool call as issued, before its result is known. */
export function issuedCall(fields: {
  sessionId: string;
  messageId: string;
  callId: string;
  tool: string;
  input: string;
  command: string | null;
  title?: string | null;
  startedAt: number | null;
}): ToolCallRecord {
  return {
    sessionId: fields.sessionId,
    messageId: fields.messageId,
    callId: fields.callId,
    tool: fields.tool,
    status: 'running',
    input: fields.input,
    command: fields.command,
    output: null,
    title: fields.title ?? null,
    startedAt: fields.startedAt,
    endedAt: null,
    durationMs: null,
    exitCode: null,
    timedOut: false,
    truncated: false,
    parallelGroup: null,
    extra: null,
  };
}

/** A call's `extra` as an object (adapters only ever write objects there). */
export function extraOf(call: ToolCallRecord): Record<string, unknown> {
  const value: unknown = call.extra ? JSON.parse(call.extra) : null;
  return isJsonObject(value) ? value : {};
}

/** Adds fields to a call's `extra` JSON object. */
export function withExtra(call: ToolCallRecord, fields: Record<string, unknown>): ToolCallRecord {
  return { ...call, extra: extraJson({ ...extraOf(call), ...fields }) };
}

/** Milliseconds between two timestamps, when both are known. */
export function elapsed(start: number | null, end: number | null): number | null {
  return start !== null && end !== null ? Math.max(0, end - start) : null;
}
