import { createHash } from 'node:crypto';
import type { Row } from '../../store/values.js';
import { spawningCall } from '../subagent-link.js';

/**
 * A session as OTLP/JSON traces (the `ExportTraceServiceRequest` an OTel collector's
 * `/v1/traces` takes, and Langfuse or Phoenix import): one trace per session, an `invoke_agent`
 * span for the session (and one for each subagent, under the call that spawned it) and an
 * `execute_tool` span per tool call, named and attributed after the OpenTelemetry GenAI semantic
 * conventions (still at Development status: names may change). OTLP/JSON's own rules: ids as
 * hex, times as unix nanoseconds in decimal strings, enums as integers, fields lowerCamelCase,
 * default values left out. Ids are digests of the session and call ids: exporting again gives
 * the same trace, so a backend can deduplicate.
 */

export interface OtlpSessionRows {
  session: Row;
  machine: string | null;
  calls: Row[];
  /** Message ordinal of each call's message, by message id. */
  ordinalOfMessage: ReadonlyMap<string, number>;
  children: OtlpSessionRows[];
}

type AnyValue = { stringValue: string } | { intValue: string } | { boolValue: boolean } | { doubleValue: number };
export interface KeyValue {
  key: string;
  value: AnyValue;
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KeyValue[];
  status?: { code: number; message?: string };
}

export interface OtlpTraces {
  resourceSpans: { resource: { attributes: KeyValue[] }; scopeSpans: { scope: { name: string; version: string }; spans: OtlpSpan[] }[] }[];
}

const SPAN_KIND_INTERNAL = 1;
const STATUS_CODE_ERROR = 2;
/** Tool arguments and results are opt-in attributes in the conventions (they can be large): kept to this many characters. */
const MAX_CONTENT = 8192;

const digest = (text: string, hexChars: number): string => createHash('sha256').update(text).digest('hex').slice(0, hexChars);

function attribute(key: string, value: string | number | boolean | null | undefined): KeyValue[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'boolean') return [{ key, value: { boolValue: value } }];
  if (typeof value === 'number') return [{ key, value: Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value } }];
  return [{ key, value: { stringValue: value } }];
}

const clip = (text: string | null): string | null => (text === null ? null : text.length > MAX_CONTENT ? `${text.slice(0, MAX_CONTENT)}…` : text);
const ms = (value: unknown): number | null => {
  if (value === null || value === undefined) return null;
  const parsed = Date.parse(String(value));
  return Number.isNaN(parsed) ? null : parsed;
};
const nanos = (epochMs: number): string => (BigInt(Math.round(epochMs)) * 1_000_000n).toString();
const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const integer = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function toolSpan(rows: OtlpSessionRows, call: Row, traceId: string, parentSpanId: string, sessionStart: number): OtlpSpan {
  const sessionId = String(rows.session['id']);
  const callId = String(call['call_id']);
  const start = ms(call['started_at']) ?? sessionStart;
  const duration = integer(call['duration_ms']);
  const end = ms(call['ended_at']) ?? (duration !== null ? start + duration : start);
  const exitCode = integer(call['exit_code']);
  const timedOut = call['timed_out'] === true;
  const failed = call['status'] === 'error' || timedOut || (exitCode !== null && exitCode !== 0);
  const errorType = timedOut ? 'timeout' : exitCode !== null && exitCode !== 0 ? 'exit_code' : call['status'] === 'error' ? 'tool_error' : null;
  return {
    traceId,
    spanId: digest(`${sessionId}\u0000${callId}`, 16),
    parentSpanId,
    name: `execute_tool ${String(call['tool'] ?? '')}`,
    kind: SPAN_KIND_INTERNAL,
    startTimeUnixNano: nanos(start),
    endTimeUnixNano: nanos(Math.max(start, end)),
    attributes: [
      ...attribute('gen_ai.operation.name', 'execute_tool'),
      ...attribute('gen_ai.tool.name', text(call['tool'])),
      ...attribute('gen_ai.tool.call.id', callId),
      ...attribute('gen_ai.tool.type', 'function'),
      ...attribute('gen_ai.tool.call.arguments', clip(text(call['input']))),
      ...attribute('gen_ai.tool.call.result', clip(text(call['output']))),
      ...attribute('process.command_line', text(call['command'])),
      ...attribute('process.exit.code', exitCode),
      ...attribute('error.type', errorType),
      ...attribute('retrace.tool.status', text(call['status'])),
      ...attribute('retrace.tool.timed_out', timedOut || null),
      ...attribute('retrace.tool.truncated', call['truncated'] === true || null),
      ...attribute('retrace.tool.parallel_group', text(call['parallel_group'])),
      ...attribute('retrace.message.ordinal', rows.ordinalOfMessage.get(String(call['message_id'])) ?? null),
    ],
    ...(failed ? { status: { code: STATUS_CODE_ERROR, message: timedOut ? 'timed out' : exitCode !== null && exitCode !== 0 ? `exit ${exitCode}` : 'tool error' } } : {}),
  };
}

function sessionSpans(rows: OtlpSessionRows, traceId: string, parentSpanId: string | null): OtlpSpan[] {
  const sessionId = String(rows.session['id']);
  const spanId = digest(`${sessionId}\u0000session`, 16);
  const callTimes = rows.calls.flatMap((call) => [ms(call['started_at']), ms(call['ended_at'])]).filter((t): t is number => t !== null);
  const start = ms(rows.session['started_at']) ?? (callTimes.length > 0 ? Math.min(...callTimes) : 0);
  const end = Math.max(start, ms(rows.session['ended_at']) ?? (callTimes.length > 0 ? Math.max(...callTimes) : start));
  const agent = String(rows.session['agent']);
  const session: OtlpSpan = {
    traceId,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name: `invoke_agent ${agent}`,
    kind: SPAN_KIND_INTERNAL,
    startTimeUnixNano: nanos(start),
    endTimeUnixNano: nanos(end),
    attributes: [
      ...attribute('gen_ai.operation.name', 'invoke_agent'),
      ...attribute('gen_ai.agent.name', agent),
      ...attribute('gen_ai.conversation.id', sessionId),
      ...attribute('gen_ai.request.model', text(rows.session['model'])),
      ...attribute('retrace.session.title', text(rows.session['title'])),
      ...attribute('retrace.session.directory', text(rows.session['directory'])),
      ...attribute('retrace.session.machine', rows.machine),
      ...attribute('retrace.session.messages', integer(rows.session['message_count'])),
    ],
  };
  const spans = [session, ...rows.calls.map((call) => toolSpan(rows, call, traceId, spanId, start))];
  for (const child of rows.children) {
    const callId = spawningCall(rows.calls, child.session);
    spans.push(...sessionSpans(child, traceId, callId ? digest(`${sessionId}\u0000${callId}`, 16) : spanId));
  }
  return spans;
}

export function buildOtlpTraces(rows: OtlpSessionRows, version: string): OtlpTraces {
  const traceId = digest(`retrace\u0000${String(rows.session['id'])}`, 32);
  return {
    resourceSpans: [{
      resource: { attributes: [...attribute('service.name', 'retrace'), ...attribute('host.name', rows.machine)] },
      scopeSpans: [{ scope: { name: 'retrace', version }, spans: sessionSpans(rows, traceId, null) }],
    }],
  };
}
