import { DuckDBTimestampValue, type DuckDBAppender } from './duckdb-api.js';

/** Null-aware appends, so row writers read as one call per column. */
export function appendText(appender: DuckDBAppender, value: string | null | undefined): void {
  if (value === null || value === undefined) appender.appendNull();
  else appender.appendVarchar(value);
}

export function appendInteger(appender: DuckDBAppender, value: number | null | undefined): void {
  if (value === null || value === undefined || !Number.isFinite(value)) appender.appendNull();
  else appender.appendInteger(Math.trunc(value));
}

export function appendBigInt(appender: DuckDBAppender, value: number | null | undefined): void {
  if (value === null || value === undefined || !Number.isFinite(value)) appender.appendNull();
  else appender.appendBigInt(BigInt(Math.trunc(value)));
}

export function appendDouble(appender: DuckDBAppender, value: number | null | undefined): void {
  if (value === null || value === undefined || !Number.isFinite(value)) appender.appendNull();
  else appender.appendDouble(value);
}

export function appendBoolean(appender: DuckDBAppender, value: boolean | null | undefined): void {
  if (value === null || value === undefined) appender.appendNull();
  else appender.appendBoolean(value);
}

/** Epoch milliseconds → TIMESTAMP (UTC). */
export function appendTimestamp(appender: DuckDBAppender, epochMs: number | null | undefined): void {
  if (epochMs === null || epochMs === undefined || !Number.isFinite(epochMs)) appender.appendNull();
  else appender.appendTimestamp(new DuckDBTimestampValue(BigInt(Math.round(epochMs * 1000))));
}
