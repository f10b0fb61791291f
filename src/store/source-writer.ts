import type { DuckDBAppender } from '@duckdb/node-api';
import type { MessageRecord, ProblemItem, RunItem, SessionRecord, ToolCallRecord, UnknownItem } from '../core/model.js';
import { appendText } from './appender-values.js';
import type { Database } from './database.js';
import { withCommitMemory } from './memory-limit.js';
import { describeWriteFailure } from './errors.js';
import { writeImportedRun } from './runs.js';
import { appendMessageRow, appendProblemRow, appendSessionRow, appendToolCallRow, appendUnknownRow } from './rows.js';
import { dropRereadRecords, recordSource, type SourceMember } from './source-record.js';
import { mergeStagedRows } from './source-merge.js';
import { STAGING_DDL, STAGING_TABLES, type StagingTable } from './staging.js';

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
  /** The source (of a group's) that first wrote the session. */
  owner: SourceMember;
}

/** A source whose rows are all written, waiting for the transaction's merge to record it. */
interface EndedSource {
  member: SourceMember;
  state: SourceState;
  redactions: number;
}

/** What a source of a group counts on its own: its rows are counted when the group merges them. */
export const NO_ROWS_WRITTEN: SourceWriteCounts = {
  sessionsAdded: 0, messagesAdded: 0, messagesUpdated: 0, messagesRemoved: 0,
  toolCallsAdded: 0, toolCallsUpdated: 0, toolCallsRemoved: 0, unknownRecords: 0, problems: 0,
};

/**
 * Writes one source in one transaction, so a source is in the store wholly or not at all. Rows of
 * sessions new to the store are appended straight to the real tables (the common case, and the
 * one that must stream: nothing is held back); rows of sessions already there, and repeats, are
 * staged and merged at commit.
 *
 * A group of small sources (commit-group.ts) shares one writer: one set of appenders and staging
 * tables and one merge for the whole group, instead of a set and a merge per source (the
 * statements and appenders cost more than the rows of a small source). Each source is begun with
 * `startSource` and ended with `endSource`; `commitAll` merges and records every one of them.
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
  /** Characters of text appended for the current source. */
  private memberText = 0;
  private finished = false;
  /** Part of a group's transaction (commit-group.ts): the group begins, commits and rolls back. */
  private grouped = false;
  private member: SourceMember;
  private readonly ended: EndedSource[] = [];

  private constructor(
    private readonly db: Database,
    sourceKey: string,
    mode: WriteMode,
    private readonly staging: Record<StagingTable, DuckDBAppender>,
    private readonly direct: { messages: DuckDBAppender; tool_calls: DuckDBAppender },
  ) {
    this.member = newMember(sourceKey, mode, false);
  }

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
      writer.member.fresh = fresh && !continuing;
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

  /** A group's writer, inside the transaction the group opened; each source comes with `startSource`. */
  static group(db: Database): Promise<SourceWriter> {
    return SourceWriter.begin(db, '', 'replace', undefined, false, true);
  }

  /** The next source of a group's writer (the previous one ended with `endSource`). */
  startSource(sourceKey: string, mode: WriteMode, fresh: boolean): void {
    this.member = newMember(sourceKey, mode, fresh);
    this.memberText = 0;
  }

  /** Characters of text appended for the current source (what a commit must hold in memory). */
  get appendedText(): number {
    return this.memberText;
  }

  addSession(session: SessionRecord): void {
    appendSessionRow(this.staging.stg_sessions, session, this.member.key, this.seq++);
  }

  /** Adds a message and its calls; the first row of a session first asks the store whether it knows it. */
  addMessage(message: MessageRecord, toolCalls: readonly ToolCallRecord[]): void | Promise<void> {
    const target = this.targets.get(message.sessionId);
    if (!target) return this.resolveTarget(message.sessionId).then(() => this.addMessage(message, toolCalls));
    this.messagesRead += 1;
    this.member.messagesRead += 1;
    let text = message.text.length + message.reasoning.length + (message.extra?.length ?? 0);
    for (const call of toolCalls) text += call.input.length + (call.command?.length ?? 0) + (call.output?.length ?? 0) + (call.extra?.length ?? 0);
    this.addText(text);
    if (target.direct && !target.messageIds.has(message.id)) {
      target.messageIds.add(message.id);
      appendMessageRow(this.direct.messages, message, target.nextMessageOrdinal++);
      this.directMessages += 1;
    } else {
      appendMessageRow(this.staging.stg_messages, message, this.seq++);
    }
    for (const call of toolCalls) {
      this.callsRead += 1;
      this.member.callsRead += 1;
      if (target.direct && !target.callIds.has(call.callId)) {
        target.callIds.add(call.callId);
        appendToolCallRow(this.direct.tool_calls, call, target.nextCallOrdinal++);
        this.directCalls += 1;
      } else {
        appendToolCallRow(this.staging.stg_tool_calls, call, this.seq++);
      }
    }
  }

  private addText(length: number): void {
    this.textLength += length;
    this.memberText += length;
  }

  private async resolveTarget(sessionId: string): Promise<void> {
    const known = await this.db.scalar(
      `SELECT EXISTS (SELECT 1 FROM messages WHERE session_id = ?) OR EXISTS (SELECT 1 FROM tool_calls WHERE session_id = ?)`,
      [sessionId, sessionId],
    );
    this.targets.set(sessionId, {
      direct: known !== true, nextMessageOrdinal: 1, nextCallOrdinal: 1, messageIds: new Set(), callIds: new Set(), owner: this.member,
    });
    appendText(this.staging.stg_touched, sessionId);
    this.staging.stg_touched.endRow();
  }

  /** Sessions a source holds whole, with the first staging sequence number of that source's read. */
  private readonly wholeSessions = new Map<string, number>();

  /**
   * The source holds every row of this session (one session of a database): rows rewritten in
   * place are updated, and at commit the rows its new read no longer has are removed and the rest
   * take the order of the read. A source that only grows (JSONL) never calls this.
   */
  ownsWholeSession(sessionId: string): void {
    this.wholeSessions.set(sessionId, this.seq);
    // An earlier source of the group wrote it: this read is merged with those rows (all staged),
    // as it would be had that source committed alone first.
    const target = this.targets.get(sessionId);
    if (target && target.owner !== this.member) target.direct = false;
  }

  addUnknown(item: UnknownItem): void {
    appendText(this.staging.stg_unknown, this.member.key);
    appendUnknownRow(this.staging.stg_unknown, item);
    this.unknownCount += 1;
    this.member.unknownCount += 1;
    this.addText(item.raw.length);
  }

  /** Replay runs (from a run log) go in with the source's transaction, after its session rows. */
  private readonly runs: RunItem[] = [];

  addRun(item: RunItem): void {
    this.runs.push(item);
  }

  addProblem(item: ProblemItem): void {
    appendText(this.staging.stg_problems, this.member.key);
    appendProblemRow(this.staging.stg_problems, item);
    this.problemCount += 1;
    this.member.problemCount += 1;
  }

  /** Merges the staged rows, records the source, and commits: all of it or, on failure, none. */
  async commit(state: SourceState, redactions: number): Promise<SourceWriteCounts> {
    this.endSource(state, redactions);
    return this.commitAll();
  }

  /** The current source's rows are all written: it is recorded, with `state`, when the writer commits. */
  endSource(state: SourceState, redactions: number): void {
    this.ended.push({ member: this.member, state, redactions });
  }

  /**
   * Merges the staged rows of every ended source, records each, and (alone, not in a group)
   * commits. Counts are the whole transaction's.
   */
  async commitAll(): Promise<SourceWriteCounts> {
    if (this.ended.length === 0) {
      await this.rollback();
      return NO_ROWS_WRITTEN;
    }
    try {
      this.closeAppenders();
      const db = this.db;
      for (const { member } of this.ended) await dropRereadRecords(db, member);
      const staged = this.messagesRead + this.callsRead > this.directMessages + this.directCalls;
      const merged = await mergeStagedRows(db, staged, this.wholeSessions, (sessionId) => this.targets.get(sessionId)?.direct === true);
      if (this.unknownCount > 0) await db.run(`INSERT INTO unknown_records SELECT source, session_id, what, file, line, path, raw FROM stg_unknown`);
      if (this.problemCount > 0) await db.run(`INSERT INTO ingest_problems SELECT source, file, line, path, message, now()::TIMESTAMP FROM stg_problems`);
      for (const { member, state, redactions } of this.ended) await recordSource(db, member, state, redactions);
      for (const run of this.runs) await writeImportedRun(db, run);
      if (!this.grouped) await withCommitMemory(db, this.textLength, () => db.run('COMMIT'));
      this.finished = true;
      return {
        sessionsAdded: merged.sessionsAdded,
        messagesAdded: this.directMessages + merged.messagesInserted,
        messagesUpdated: merged.messagesUpdated,
        messagesRemoved: merged.messagesRemoved,
        toolCallsAdded: this.directCalls + merged.toolCallsInserted,
        toolCallsUpdated: merged.toolCallsUpdated,
        toolCallsRemoved: merged.toolCallsRemoved,
        unknownRecords: this.unknownCount,
        problems: this.problemCount,
      };
    } catch (error) {
      await this.rollback();
      const keys = this.ended.map((e) => e.member.key).join(', ');
      throw describeWriteFailure(this.db.path, `writing ${keys}`, error);
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

function newMember(key: string, mode: WriteMode, fresh: boolean): SourceMember {
  return { key, mode, fresh, messagesRead: 0, callsRead: 0, unknownCount: 0, problemCount: 0 };
}
