import type { RenamedSession } from './session-identity.js';
import type { SourceWriteCounts } from './source-writer.js';
import type { Location } from '../core/model.js';
import { totalRedactions, type RedactionCounts } from '../core/redact/redact.js';
import type { IngestWarning } from '../core/warnings.js';

export interface IngestError {
  file: string;
  line: number | null;
  path: string | null;
  message: string;
}

/** A session stored whole whose derived rows (its tree) could not be built: reported, never fatal. */
export interface SessionFailure {
  sessionId: string;
  cause: string;
}

export interface IngestSummary {
  sources: number;
  sessions: number;
  messages: number;
  tool_calls: number;
  messages_updated: number;
  tool_calls_updated: number;
  /** Rows a re-read database session no longer holds (deleted or merged by the agent), removed. */
  messages_removed: number;
  tool_calls_removed: number;
  redactions: number;
  redactions_by_kind: RedactionCounts;
  skipped_unchanged: number;
  resumed: number;
  failed_sources: number;
  /** Of the failed sources, those the store could not take (a full disk): not the input's fault. */
  store_failures: number;
  unknown_records: number;
  unknown_fields: Record<string, number>;
  /** Texts over 16 MiB kept as their head and tail (their records say so in `extra.retrace_cut`). */
  texts_cut: number;
  errors: IngestError[];
  derive_failures: SessionFailure[];
  /** Sessions an earlier, interrupted ingest stored but never derived: derived by this one. */
  derived_left_over: number;
  /** Sessions whose id another agent's session held already: stored as `<agent>:<id>`. */
  renamed_sessions: RenamedSession[];
  /** Sources that read without error but look like format drift (src/core/warnings.ts), and twins read once. */
  warnings: IngestWarning[];
}

export function emptySummary(): IngestSummary {
  return {
    sources: 0,
    sessions: 0,
    messages: 0,
    tool_calls: 0,
    messages_updated: 0,
    tool_calls_updated: 0,
    messages_removed: 0,
    tool_calls_removed: 0,
    redactions: 0,
    redactions_by_kind: {},
    skipped_unchanged: 0,
    resumed: 0,
    failed_sources: 0,
    store_failures: 0,
    unknown_records: 0,
    unknown_fields: {},
    texts_cut: 0,
    errors: [],
    derive_failures: [],
    derived_left_over: 0,
    renamed_sessions: [],
    warnings: [],
  };
}

export function toError(location: Location, message: string): IngestError {
  return { file: location.file, line: location.line ?? null, path: location.path ?? null, message };
}

export function addWritten(summary: IngestSummary, written: SourceWriteCounts, counts: RedactionCounts): void {
  summary.sessions += written.sessionsAdded;
  summary.messages += written.messagesAdded;
  summary.tool_calls += written.toolCallsAdded;
  summary.messages_updated += written.messagesUpdated;
  summary.tool_calls_updated += written.toolCallsUpdated;
  summary.messages_removed += written.messagesRemoved;
  summary.tool_calls_removed += written.toolCallsRemoved;
  for (const [kind, n] of Object.entries(counts)) summary.redactions_by_kind[kind] = (summary.redactions_by_kind[kind] ?? 0) + n;
  summary.redactions += totalRedactions(counts);
}

function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
}

/**
 * Adds what one source's ingest found to the run's summary. A source stored in a group of
 * sources keeps its findings apart until the group commits: rolled back, they never happened.
 */
export function mergeSummary(into: IngestSummary, from: IngestSummary): void {
  for (const key of Object.keys(into) as (keyof IngestSummary)[]) {
    const value = from[key];
    if (typeof value === 'number') (into[key] as number) += value;
  }
  addCounts(into.redactions_by_kind, from.redactions_by_kind);
  addCounts(into.unknown_fields, from.unknown_fields);
  into.errors.push(...from.errors);
  into.derive_failures.push(...from.derive_failures);
  into.renamed_sessions.push(...from.renamed_sessions);
  into.warnings.push(...from.warnings);
}
