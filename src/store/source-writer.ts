import type { DuckDBAppender } from '@duckdb/node-api';
import type { MessageRecord, ProblemItem, RunItem, SessionRecord, ToolCallRecord, UnknownItem } from '../core/model.js';
import { appendText } from './appender-values.js';
import type { Database } from './database.js';
import { withCommitMemory } from './memory-limit.js';
import { describeWriteFailure } from './errors.js';
import { writeImportedRun } from './runs.js';
import { appendMessageRow, appendProblemRow, appendSessionRow, appendToolCallRow, appendUnknownRow } from './rows.js';
import { MERGE, STAGING_DDL, STAGING_TABLES, type StagingTable } from './staging.js';

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
  /** Provenance: the machine it came from and where the transcript was first written (see schema/provenance.ts). */
  machine?: string | null;
  originalPath?: string | null;
  /** Size, times and inode of the file(s) as read (src/core/io/file-stamp.ts); null: hash it next time. */
  fileStamp?: string | null;
}

export interface SourceWriteCounts {
  sessionsAdded: number;
  messagesAdded: number;
  messagesUpdated: number;
  /** Rows of a whole-session source that its new read no longer holds (see ownsWholeSession). */
  messagesRemoved: number;
  toolCallsAdded: number;
  toolCallsUpdated: number;
  toolCallsRemoved: number;
  unknownRecords: number;
  problems: number;
}

/**
 * `replace`: the source is read whole again. `append`: read again from `fromLine` (a grown
 * JSONL file); what the last read recorded from that line on is replaced.
 */
export type WriteMode = 'replace' | { append: { fromLine: number } };

/** Where one session's rows go in this source. */
interface SessionTarget {
  /** New to the store: rows are appended straight to the real tables, ordinals counted here. */
  direct: boolean;
  nextMessageOrdinal: number;
  nextCallOrdinal: number;
  /** Keys appended directly; a repeat (a record written again) goes to staging to be merged. */
  messageIds: Set<string>;
  callIds: Set<string>;
}

/**
 * Writes one source in one transaction, so a source is in the store wholly or not at all. Rows of
 * sessions new to the store are appended straight to the real tables (the common case, and the
 * one that must stream: nothing is held back); rows of sessions already there, and repeats, are
 * staged and merged at commit.
 */
export class SourceWriter {
  private seq = 0;
  private readonly targets = new Map<string, SessionTarget>();
  private messagesRead = 0;
  private callsRead = 0;
  private directMessages = 0;
  private directCalls = 0;
  private unknownCount = 0;
  private problemCount = 0;
  /** Characters of text appended in this transaction (what its commit must hold in memory). */
  private textLength = 0;
  private finished = false;
  /** The store has never recorded this source: it holds no rows of it to replace. */
  private fresh = false;
  /** Part of a group's transaction (commit-group.ts): the group begins, commits and rolls back. */
  private grouped = false;

  private constructor(
    private readonly db: Database,
    private readonly sourceKey: string,
    private readonly mode: WriteMode,
    private readonly staging: Record<StagingTable, DuckDBAppender>,
    private readonly direct: { messages: DuckDBAppender; tool_calls: DuckDBAppender },
  ) {}

  /**
   * Opens the source's transaction. `continuing`: the writer of the previous batch of the same
   * source, whose sessions keep being appended directly (their ordinals and keys carry over).
   * `fresh`: the store has no record of the source (no `sources` row), so none of its rows.
   */
  static async begin(db: Database, sourceKey: string, mode: WriteMode, continuing?: SourceWriter, fresh = false, grouped = false): Promise<SourceWriter> {
    for (const ddl of STAGING_DDL) await db.run(ddl);
    if (!grouped) await db.run('BEGIN TRANSACTION');
    try {
      const staging = {} as Record<StagingTable, DuckDBAppender>;
      for (const table of STAGING_TABLES) staging[table] = await db.connection.createAppender(table, 'main', 'temp');
      const direct = {
        messages: await db.connection.createAppender('messages'),
        tool_calls: await db.connection.createAppender('tool_calls'),
      };
      const writer = new SourceWriter(db, sourceKey, mode, staging, direct);
      writer.fresh = fresh && !continuing;
      writer.grouped = grouped;
      for (const [sessionId, target] of continuing?.targets ?? []) {
        writer.targets.set(sessionId, target);
        appendText(staging.stg_touched, sessionId);
        staging.stg_touched.endRow();
      }
      return writer;
    } catch (error) {
      if (!grouped) await db.run('ROLLBACK');
      throw error;
    }
  }

  /** Characters of text appended so far (what a commit must hold in memory). */
  get appendedText(): number {
    return this.textLength;
  }

  addSession(session: SessionRecord): void {
    appendSessionRow(this.staging.stg_sessions, session, this.sourceKey, this.seq++);
  }

  /** Adds a message and its calls; the first row of a session first asks the store whether it knows it. */
  addMessage(message: MessageRecord, toolCalls: readonly ToolCallRecord[]): void | Promise<void> {
    const target = this.targets.get(message.sessionId);
    if (!target) return this.resolveTarget(message.sessionId).then(() => this.addMessage(message, toolCalls));
    this.messagesRead += 1;
    this.textLength += message.text.length + message.reasoning.length + (message.extra?.length ?? 0);
    for (const call of toolCalls) this.textLength += call.input.length + (call.command?.length ?? 0) + (call.output?.length ?? 0) + (call.extra?.length ?? 0);
    if (target.direct && !target.messageIds.has(message.id)) {
      target.messageIds.add(message.id);
      appendMessageRow(this.direct.messages, message, target.nextMessageOrdinal++);
      this.directMessages += 1;
    } else {
      appendMessageRow(this.staging.stg_messages, message, this.seq++);
    }
    for (const call of toolCalls) {
      this.callsRead += 1;
      if (target.direct && !target.callIds.has(call.callId)) {
        target.callIds.add(call.callId);
        appendToolCallRow(this.direct.tool_calls, call, target.nextCallOrdinal++);
        this.directCalls += 1;
      } else {
        appendToolCallRow(this.staging.stg_tool_calls, call, this.seq++);
      }
    }
  }

  private async resolveTarget(sessionId: string): Promise<void> {
    const known = await this.db.scalar(
      `SELECT EXISTS (SELECT 1 FROM messages WHERE session_id = ?) OR EXISTS (SELECT 1 FROM tool_calls WHERE session_id = ?)`,
      [sessionId, sessionId],
    );
    this.targets.set(sessionId, { direct: known !== true, nextMessageOrdinal: 1, nextCallOrdinal: 1, messageIds: new Set(), callIds: new Set() });
    appendText(this.staging.stg_touched, sessionId);
    this.staging.stg_touched.endRow();
  }

  private readonly wholeSessions = new Set<string>();

  /**
   * The source holds every row of this session (one session of a database): rows rewritten in
   * place are updated, and at commit the rows its new read no longer has are removed and the rest
   * take the order of the read. A source that only grows (JSONL) never calls this.
   */
  ownsWholeSession(sessionId: string): void {
    this.wholeSessions.add(sessionId);
  }

  /** Removes what a whole-session source no longer holds; renumbers what it holds in its order. */
  private async replaceWholeSessions(): Promise<{ messages: number; calls: number }> {
    let messages = 0;
    let calls = 0;
    for (const sessionId of this.wholeSessions) {
      // New to the store: its rows were appended directly and are exactly this read.
      if (this.targets.get(sessionId)?.direct === true) continue;
      const both = [sessionId, sessionId];
      messages += await this.db.run(
        `DELETE FROM messages WHERE session_id = ? AND id NOT IN (SELECT id FROM stg_messages WHERE session_id = ?)`, both);
      calls += await this.db.run(
        `DELETE FROM tool_calls WHERE session_id = ? AND call_id NOT IN (SELECT call_id FROM stg_tool_calls WHERE session_id = ?)`, both);
      await this.db.run(
        `UPDATE messages t SET ordinal = s.rn
         FROM (SELECT id, row_number() OVER (ORDER BY min(ordinal)) AS rn FROM stg_messages WHERE session_id = ? GROUP BY id) s
         WHERE t.session_id = ? AND t.id = s.id AND t.ordinal IS DISTINCT FROM s.rn`, both);
      await this.db.run(
        `UPDATE tool_calls t SET ordinal = s.rn
         FROM (SELECT call_id, row_number() OVER (ORDER BY min(ordinal)) AS rn FROM stg_tool_calls WHERE session_id = ? GROUP BY call_id) s
         WHERE t.session_id = ? AND t.call_id = s.call_id AND t.ordinal IS DISTINCT FROM s.rn`, both);
      // Its counts are refreshed from its rows at commit; a session left with none has none.
      await this.db.run(`INSERT INTO stg_touched VALUES (?)`, [sessionId]);
      await this.db.run(
        `UPDATE sessions SET message_count = 0, tool_call_count = 0
         WHERE id = ? AND NOT EXISTS (SELECT 1 FROM messages WHERE session_id = ?)`, both);
    }
    return { messages, calls };
  }

  addUnknown(item: UnknownItem): void {
    appendUnknownRow(this.staging.stg_unknown, item);
    this.unknownCount += 1;
    this.textLength += item.raw.length;
  }

  /** Replay runs (from a run log) go in with the source's transaction, after its session rows. */
  private readonly runs: RunItem[] = [];

  addRun(item: RunItem): void {
    this.runs.push(item);
  }

  addProblem(item: ProblemItem): void {
    appendProblemRow(this.staging.stg_problems, item);
    this.problemCount += 1;
  }

  /** Merges the staged rows, records the source, and commits: all of it or, on failure, none. */
  async commit(state: SourceState, redactions: number): Promise<SourceWriteCounts> {
    try {
      this.closeAppenders();
      const db = this.db;
      // Unknown records and problems are re-read along with their lines: drop the old copies. A
      // source new to the store has none; each DELETE scans its whole table, which grows with
      // every source (an opencode.db of 20,000 sessions is 20,000 sources).
      const fromLine = this.mode === 'replace' ? 0 : this.mode.append.fromLine;
      if (!this.fresh) {
        await db.run(`DELETE FROM unknown_records WHERE source = ? AND coalesce(line, 0) >= ?`, [this.sourceKey, fromLine]);
        await db.run(`DELETE FROM ingest_problems WHERE source = ? AND coalesce(line, 0) >= ?`, [this.sourceKey, fromLine]);
      }
      const staged = this.messagesRead + this.callsRead > this.directMessages + this.directCalls;
      const messagesUpdated = staged ? await db.run(MERGE.updateMessages) : 0;
      const messagesAdded = this.directMessages + (staged ? await db.run(MERGE.insertMessages) : 0);
      const toolCallsUpdated = staged ? await db.run(MERGE.updateToolCalls) : 0;
      const toolCallsAdded = this.directCalls + (staged ? await db.run(MERGE.insertToolCalls) : 0);
      const removed = await this.replaceWholeSessions();
      await db.run(`INSERT INTO stg_touched SELECT id FROM stg_sessions`);
      await db.run(MERGE.updateSessions);
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
      if (!this.fresh) await db.run(`DELETE FROM sources WHERE key = ?`, [this.sourceKey]);
      await db.run(
        `INSERT INTO sources (key, path, format, size, content_hash, bytes_consumed, lines_consumed, prefix_hash, ingested_at,
           messages, tool_calls, unknown_records, problems, redactions, machine, original_path, file_stamp, cwd)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, now()::TIMESTAMP, ?, ?, ?, ?, ?, ?, ?, ?,
           (SELECT directory FROM sessions WHERE source = ? AND directory IS NOT NULL
            ORDER BY parent_id IS NOT NULL, started_at NULLS LAST, id LIMIT 1))`,
        [
          state.key,
          state.path,
          state.format,
          state.size,
          state.contentHash,
          state.bytesConsumed,
          state.linesConsumed,
          state.prefixHash,
          this.messagesRead,
          this.callsRead,
          this.unknownCount,
          this.problemCount,
          redactions,
          state.machine ?? null,
          state.originalPath ?? state.path,
          state.fileStamp ?? null,
          state.key,
        ],
      );
      // A session is labelled with the machine of the source that last wrote it.
      await db.run(
        `UPDATE sessions SET machine = ? WHERE (source = ? OR id IN (SELECT id FROM stg_sessions)) AND machine IS DISTINCT FROM ?`,
        [state.machine ?? null, state.key, state.machine ?? null],
      );
      for (const run of this.runs) await writeImportedRun(db, run);
      if (!this.grouped) await withCommitMemory(db, this.textLength, () => db.run('COMMIT'));
      this.finished = true;
      return {
        sessionsAdded,
        messagesAdded,
        messagesUpdated,
        messagesRemoved: removed.messages,
        toolCallsAdded,
        toolCallsUpdated,
        toolCallsRemoved: removed.calls,
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
    if (!this.grouped) await this.db.run('ROLLBACK').catch(() => undefined);
  }

  private closed = false;

  private closeAppenders(): void {
    if (this.closed) return;
    this.closed = true;
    let failure: unknown;
    for (const appender of [...Object.values(this.staging), this.direct.messages, this.direct.tool_calls]) {
      try {
        appender.closeSync();
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure) throw failure;
  }
}
