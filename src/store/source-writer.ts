import type { DuckDBAppender } from '@duckdb/node-api';
import type { MessageRecord, ProblemItem, RunItem, SessionRecord, ToolCallRecord, UnknownItem } from '../ingest/model.js';
import {
  appendBigInt,
  appendBoolean,
  appendDouble,
  appendInteger,
  appendText,
  appendTimestamp,
} from './appender-values.js';
import type { Database } from './database.js';
import { describeWriteFailure } from './errors.js';
import { writeImportedRun } from './runs.js';
import { MERGE, stagingDdl, type StagingTable } from './staging.js';

/** What the store remembers of a source, to skip it or resume it next time. */
export interface SourceState {
  key: string;
  path: string;
  format: string;
  size: number;
  contentHash: string;
  /** For appendable files: how far the last ingest read (a line boundary), and the hash of those bytes. */
  bytesConsumed: number | null;
  linesConsumed: number | null;
  prefixHash: string | null;
}

export interface SourceWriteCounts {
  sessionsAdded: number;
  messagesAdded: number;
  messagesUpdated: number;
  toolCallsAdded: number;
  toolCallsUpdated: number;
  unknownRecords: number;
  problems: number;
}

/**
 * `replace`: the source is read whole again. `append`: read again from `fromLine` (a grown
 * JSONL file); what the last read recorded from that line on is replaced.
 */
export type WriteMode = 'replace' | { append: { fromLine: number } };

/**
 * Writes one source in one transaction: rows go through Appenders into staging tables and are
 * merged on commit, so a source is in the store wholly or not at all.
 */
export class SourceWriter {
  private seq = 0;
  /** Keys seen in this source, to know whether staging needs de-duplicating (rarely). */
  private readonly messageKeys = new Set<string>();
  private readonly callKeys = new Set<string>();
  private duplicates = false;
  private unknownCount = 0;
  private problemCount = 0;
  private finished = false;

  private constructor(
    private readonly db: Database,
    private readonly sourceKey: string,
    private readonly mode: WriteMode,
    private readonly appenders: Record<StagingTable, DuckDBAppender>,
  ) {}

  static async begin(db: Database, sourceKey: string, mode: WriteMode): Promise<SourceWriter> {
    for (const ddl of stagingDdl()) await db.run(ddl);
    await db.run('BEGIN TRANSACTION');
    try {
      const appenders = {} as Record<StagingTable, DuckDBAppender>;
      for (const table of ['stg_sessions', 'stg_messages', 'stg_tool_calls', 'stg_unknown', 'stg_problems'] as const) {
        appenders[table] = await db.connection.createAppender(table, 'main', 'temp');
      }
      return new SourceWriter(db, sourceKey, mode, appenders);
    } catch (error) {
      await db.run('ROLLBACK');
      throw error;
    }
  }

  addSession(session: SessionRecord): void {
    const a = this.appenders.stg_sessions;
    appendText(a, session.id);
    appendText(a, session.agent);
    appendText(a, this.sourceKey);
    appendText(a, session.parentId);
    appendText(a, session.title);
    appendText(a, session.directory);
    appendTimestamp(a, session.startedAt);
    appendTimestamp(a, session.endedAt);
    appendText(a, session.model);
    appendText(a, session.extra);
    appendBigInt(a, this.seq++);
    a.endRow();
  }

  addMessage(message: MessageRecord, toolCalls: readonly ToolCallRecord[]): void {
    const a = this.appenders.stg_messages;
    this.noteKey(this.messageKeys, `${message.sessionId}\u0000${message.id}`);
    appendText(a, message.sessionId);
    appendText(a, message.id);
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
    appendBigInt(a, this.seq++);
    a.endRow();
    for (const call of toolCalls) this.addToolCall(call);
  }

  private addToolCall(call: ToolCallRecord): void {
    const a = this.appenders.stg_tool_calls;
    this.noteKey(this.callKeys, `${call.sessionId}\u0000${call.callId}`);
    appendText(a, call.sessionId);
    appendText(a, call.messageId);
    appendText(a, call.callId);
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
    appendBigInt(a, this.seq++);
    a.endRow();
  }

  private noteKey(keys: Set<string>, key: string): void {
    if (keys.has(key)) this.duplicates = true;
    else keys.add(key);
  }

  addUnknown(item: UnknownItem): void {
    const a = this.appenders.stg_unknown;
    appendText(a, item.sessionId);
    appendText(a, item.what);
    appendText(a, item.location.file);
    appendInteger(a, item.location.line);
    appendText(a, item.location.path);
    appendText(a, item.raw);
    a.endRow();
    this.unknownCount += 1;
  }

  /** Replay runs (from a run log) go in with the source's transaction, after its session rows. */
  private readonly runs: RunItem[] = [];

  addRun(item: RunItem): void {
    this.runs.push(item);
  }

  addProblem(item: ProblemItem): void {
    const a = this.appenders.stg_problems;
    appendText(a, item.location.file);
    appendInteger(a, item.location.line);
    appendText(a, item.location.path);
    appendText(a, item.message);
    a.endRow();
    this.problemCount += 1;
  }

  /** Merges the staged rows, records the source, and commits: all of it or, on failure, none. */
  async commit(state: SourceState, redactions: number): Promise<SourceWriteCounts> {
    try {
      this.closeAppenders();
      const db = this.db;
      const existingSessions = Number(
        await db.scalar(
          `SELECT count(*) FROM sessions WHERE id IN (SELECT session_id FROM stg_messages UNION SELECT id FROM stg_sessions)`,
        ),
      );
      const anyExisting = existingSessions > 0;
      // Unknown records and problems are re-read along with their lines: drop the old copies.
      const fromLine = this.mode === 'replace' ? 0 : this.mode.append.fromLine;
      await db.run(`DELETE FROM unknown_records WHERE source = ? AND coalesce(line, 0) >= ?`, [this.sourceKey, fromLine]);
      await db.run(`DELETE FROM ingest_problems WHERE source = ? AND coalesce(line, 0) >= ?`, [this.sourceKey, fromLine]);
      // A source rarely repeats a record; when it does, its last version wins.
      if (this.duplicates) {
        await db.run(MERGE.dedupeMessages);
        await db.run(MERGE.dedupeToolCalls);
      }
      await db.run(MERGE.lastMessages(this.duplicates));
      await db.run(MERGE.lastToolCalls(this.duplicates));
      const messagesUpdated = anyExisting ? await db.run(MERGE.updateMessages) : 0;
      const messagesAdded = await db.run(MERGE.insertMessages(anyExisting));
      const toolCallsUpdated = anyExisting ? await db.run(MERGE.updateToolCalls) : 0;
      const toolCallsAdded = await db.run(MERGE.insertToolCalls(anyExisting));
      if (anyExisting) await db.run(MERGE.updateSessions);
      const sessionsAdded = await db.run(MERGE.insertSessions);
      await db.run(MERGE.refreshSessionAggregates);
      await db.run(
        `INSERT INTO unknown_records SELECT ?, session_id, what, file, line, path, raw FROM stg_unknown`,
        [this.sourceKey],
      );
      await db.run(
        `INSERT INTO ingest_problems SELECT ?, file, line, path, message, now()::TIMESTAMP FROM stg_problems`,
        [this.sourceKey],
      );
      await db.run(`DELETE FROM sources WHERE key = ?`, [this.sourceKey]);
      await db.run(
        `INSERT INTO sources VALUES (?, ?, ?, ?, ?, ?, ?, ?, now()::TIMESTAMP,
           (SELECT count(*) FROM stg_messages), (SELECT count(*) FROM stg_tool_calls), ?, ?, ?)`,
        [
          state.key,
          state.path,
          state.format,
          state.size,
          state.contentHash,
          state.bytesConsumed,
          state.linesConsumed,
          state.prefixHash,
          this.unknownCount,
          this.problemCount,
          redactions,
        ],
      );
      for (const run of this.runs) await writeImportedRun(db, run);
      await db.run('COMMIT');
      this.finished = true;
      return {
        sessionsAdded,
        messagesAdded,
        messagesUpdated,
        toolCallsAdded,
        toolCallsUpdated,
        unknownRecords: this.unknownCount,
        problems: this.problemCount,
      };
    } catch (error) {
      await this.rollback();
      throw describeWriteFailure(this.db.path, `writing ${this.sourceKey}`, error);
    }
  }

  async rollback(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    try {
      this.closeAppenders();
    } catch {
      // The transaction is being abandoned: a failed flush changes nothing.
    }
    await this.db.run('ROLLBACK').catch(() => undefined);
  }

  private closed = false;

  private closeAppenders(): void {
    if (this.closed) return;
    this.closed = true;
    let failure: unknown;
    for (const appender of Object.values(this.appenders)) {
      try {
        appender.closeSync();
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure) throw failure;
  }
}
