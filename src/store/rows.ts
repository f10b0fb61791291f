import type { DuckDBAppender } from '@duckdb/node-api';
import type { MessageRecord, ProblemItem, SessionRecord, ToolCallRecord, UnknownItem } from '../core/model.js';
import { appendBigInt, appendBoolean, appendDouble, appendInteger, appendText, appendTimestamp } from './appender-values.js';

/**
 * One row per call, in the column order of the tables (messages and tool_calls and their staging
 * copies share it; in staging, `ordinal` carries the arrival order).
 */
export function appendMessageRow(a: DuckDBAppender, message: MessageRecord, ordinal: number): void {
  appendText(a, message.sessionId);
  appendText(a, message.id);
  appendInteger(a, ordinal);
  appendText(a, message.role);
  appendText(a, message.parentId);
  appendTimestamp(a, message.createdAt);
  appendTimestamp(a, message.completedAt);
  appendText(a, message.model);
  appendText(a, message.provider);
  appendBigInt(a, message.tokensInput);
  appendBigInt(a, message.tokensOutput);
  appendBigInt(a, message.tokensReasoning);
  appendBigInt(a, message.tokensCacheRead);
  appendBigInt(a, message.tokensCacheWrite);
  appendDouble(a, message.cost);
  appendText(a, message.text);
  appendText(a, message.reasoning);
  appendText(a, message.error);
  appendText(a, message.extra);
  a.endRow();
}

export function appendToolCallRow(a: DuckDBAppender, call: ToolCallRecord, ordinal: number): void {
  appendText(a, call.sessionId);
  appendText(a, call.messageId);
  appendText(a, call.callId);
  appendInteger(a, ordinal);
  appendText(a, call.tool);
  appendText(a, call.status);
  appendText(a, call.input);
  appendText(a, call.command);
  appendText(a, call.output);
  appendText(a, call.title);
  appendTimestamp(a, call.startedAt);
  appendTimestamp(a, call.endedAt);
  appendBigInt(a, call.durationMs);
  appendInteger(a, call.exitCode);
  appendBoolean(a, call.timedOut);
  appendBoolean(a, call.truncated);
  appendText(a, call.parallelGroup);
  appendText(a, call.extra);
  a.endRow();
}

export function appendSessionRow(a: DuckDBAppender, session: SessionRecord, sourceKey: string, seq: number): void {
  appendText(a, session.id);
  appendText(a, session.agent);
  appendText(a, sourceKey);
  appendText(a, session.parentId);
  appendText(a, session.title);
  appendText(a, session.directory);
  appendTimestamp(a, session.startedAt);
  appendTimestamp(a, session.endedAt);
  appendText(a, session.model);
  appendText(a, session.extra);
  appendBigInt(a, seq);
  a.endRow();
}

export function appendUnknownRow(a: DuckDBAppender, item: UnknownItem): void {
  appendText(a, item.sessionId);
  appendText(a, item.what);
  appendText(a, item.location.file);
  appendInteger(a, item.location.line);
  appendText(a, item.location.path);
  appendText(a, item.raw);
  a.endRow();
}

export function appendProblemRow(a: DuckDBAppender, item: ProblemItem): void {
  appendText(a, item.location.file);
  appendInteger(a, item.location.line);
  appendText(a, item.location.path);
  appendText(a, item.message);
  a.endRow();
}
