import type { Database } from './database.js';
import { withCommitMemory } from './memory-limit.js';
import { SourceWriter, type SourceWriteCounts } from './source-writer.js';

/** A source this small is stored in a group with its neighbours (a whole storage-tree or database session usually is). */
export const GROUP_SOURCE_BYTES = 1024 * 1024;
/** A group commits when it holds this many sources or bytes: a bounded transaction, a bounded loss if the process dies. */
export const GROUP_MAX_SOURCES = 64;
export const GROUP_MAX_BYTES = 8 * 1024 * 1024;

/** One source of a group: what to do once the group's transaction is durable (summary, callbacks). */
interface Member<T> {
  value: T;
  bytes: number;
}

/**
 * Small sources stored in one transaction: one commit (one write-ahead-log sync) for many
 * files instead of one each, and one writer (appenders, staging tables, merge) for all of them.
 * Each source is still whole or absent: a source that fails rolls the group back, and the caller
 * stores the group's other sources again one by one.
 */
export class CommitGroup<T> {
  private members: Member<T>[] = [];
  private bytes = 0;
  private textLength = 0;
  private open = false;
  private shared: SourceWriter | null = null;

  constructor(private readonly db: Database) {}

  get size(): number {
    return this.members.length;
  }

  /** Opens the group's transaction if it is not open yet; its writer, shared by its sources. */
  async begin(): Promise<SourceWriter> {
    if (!this.open) {
      await this.db.run('BEGIN TRANSACTION');
      this.open = true;
    }
    this.shared ??= await SourceWriter.group(this.db);
    return this.shared;
  }

  /** A source stored inside the group's transaction, its after-commit work held until the commit. */
  add(value: T, bytes: number, textLength: number): void {
    this.members.push({ value, bytes });
    this.bytes += bytes;
    this.textLength += textLength;
  }

  full(): boolean {
    return this.members.length >= GROUP_MAX_SOURCES || this.bytes >= GROUP_MAX_BYTES;
  }

  /**
   * Commits the group: its members, in order, for their after-commit work; or, when the commit
   * fails (a full disk), the members to store again one by one, the group rolled back.
   */
  async commit(): Promise<{ committed: T[]; written: SourceWriteCounts | null } | { failed: T[]; error: unknown }> {
    if (!this.open) return { committed: [], written: null };
    const textLength = this.textLength;
    const writer = this.shared;
    const members = this.take();
    try {
      const written = writer ? await writer.commitAll() : null;
      await withCommitMemory(this.db, textLength, () => this.db.run('COMMIT'));
      return { committed: members, written };
    } catch (error) {
      await this.db.run('ROLLBACK').catch(() => undefined);
      return { failed: members, error };
    }
  }

  /** Rolls the group back; returns the members whose rows went with it, to be stored again. */
  async abandon(): Promise<T[]> {
    const writer = this.shared;
    const members = this.take();
    await writer?.rollback();
    await this.db.run('ROLLBACK').catch(() => undefined);
    return members;
  }

  private take(): T[] {
    const members = this.members.map((m) => m.value);
    this.members = [];
    this.bytes = 0;
    this.textLength = 0;
    this.open = false;
    this.shared = null;
    return members;
  }
}
