import type { Database } from '../store/database.js';
import type { DerivedSessionRows } from '../store/derived-writer.js';
import { retryWithMoreMemory } from '../store/memory-limit.js';
import { callPages, readMessages, storedSessionRows, storeDerivation, type DeriveFailureReport } from './derive.js';
import { DeriveThread } from './derive-thread-client.js';
import { rulesFingerprint } from './rules/active.js';

export interface BackgroundDeriveOptions {
  /** Run the pure core in a derive thread (default: when the compiled one is there). */
  thread?: boolean;
  /** The derive thread's entry (tests). */
  threadFile?: string;
  /**
   * How many sources the ingest reads. With one (a single long session file) nothing is read
   * beside the deriving, so a thread would only copy the session to it and back: it derives here,
   * faster and with less memory (the 81 MB rollout of the bench: 685 → 488 MB peak).
   */
  sources?: number;
}

type Derived = (sessionIds: readonly string[], failures: readonly DeriveFailureReport[]) => void;

/**
 * Derives stored sessions beside an ingest instead of between its sources, in the order given:
 * on connections of its own to the store (so its transactions never mix with the ingest's), with
 * the pure core in a derive thread, so parsing the next source and deriving the last use two
 * cores. Three stages overlap: reading a session back (one connection), deriving the one before
 * it (the thread), storing the one before that (another connection). Rows are the ones
 * deriveSessions writes; a session the thread fails on is recorded as a derive failure with
 * its cause, and after a thread dies the rest derive here.
 */
export class BackgroundDerive {
  /** Sessions read back and sent to the thread, one after another. */
  private reading: Promise<unknown> = Promise.resolve();
  /** Rows stored, one session after another. */
  private storing: Promise<unknown> = Promise.resolve();
  /** When each of the last sessions queued is stored: a session is read only once the one two before it is (memory stays bounded). */
  private readonly lastStored: Promise<unknown>[] = [];
  private readonly failures: DeriveFailureReport[] = [];
  private broken: unknown = null;
  /** Sessions derived so far in the derive thread and in this one. */
  readonly derived = { inThread: 0, here: 0 };

  private constructor(
    private readonly reader: Database,
    private readonly writer: Database,
    private readonly fingerprint: string,
    private readonly thread: DeriveThread | null,
  ) {}

  static async start(store: Database, options: BackgroundDeriveOptions = {}): Promise<BackgroundDerive> {
    const fingerprint = rulesFingerprint();
    const reader = await store.connectAnother();
    const writer = await store.connectAnother();
    const thread = options.thread === false || (options.sources ?? Infinity) < 2 ? null : DeriveThread.start(fingerprint, options.threadFile);
    return new BackgroundDerive(reader, writer, fingerprint, thread);
  }

  /** Queues sessions to derive and returns at once; `onDerived` hears when they are stored. */
  add(sessionIds: readonly string[], onDerived?: Derived): void {
    const failures: DeriveFailureReport[] = [];
    for (const sessionId of sessionIds) {
      // Read once the session before is sent and the one before that stored; its rows come when the thread has derived it.
      const sent = Promise.all([this.reading, this.lastStored.at(-2)]).then(() => this.send(sessionId));
      this.reading = sent.catch(() => undefined);
      this.storing = this.storing.then(async () => {
        if (this.broken) return;
        try {
          const failure = await storeDerivation(this.writer, sessionId, this.fingerprint, sent.then((s) => s.rows));
          if (failure) failures.push(failure);
        } catch (error) {
          // The store itself failed (not one session's rules): nothing more is derived; finish() says why.
          this.broken = error;
        }
      });
      this.lastStored.push(this.storing);
      if (this.lastStored.length > 2) this.lastStored.shift();
    }
    this.storing = this.storing.then(() => {
      this.failures.push(...failures);
      if (!this.broken) onDerived?.(sessionIds, failures);
    });
  }

  /** Waits for every queued session, lets go of the thread and the connections, and gives the failures. */
  async finish(): Promise<DeriveFailureReport[]> {
    try {
      await this.storing;
    } finally {
      await this.thread?.stop();
      await this.reader.close();
      await this.writer.close();
    }
    if (this.broken) throw this.broken;
    return this.failures;
  }

  /** Reads a session back and hands it to the thread (or derives it here): resolves when the next may be read. */
  private async send(sessionId: string): Promise<{ rows: Promise<DerivedSessionRows> }> {
    if (this.broken) return { rows: Promise.reject(new Error('not derived: the store failed')) };
    const thread = this.thread && (await this.thread.usable) && this.thread.alive ? this.thread : null;
    if (thread) {
      try {
        // A session of many megabyte outputs needs more than the bulk-write cache to be read back.
        const sent = await retryWithMoreMemory(this.reader, () =>
          thread.send(sessionId, callPages(this.reader, sessionId), async () => {
            const { parentId, messages } = await readMessages(this.reader, sessionId);
            return { isSubagent: parentId !== null, messages };
          }),
        );
        const rows = sent.rows.then((rows) => ((this.derived.inThread += 1), rows), (error: unknown) => this.unlessDead(thread, sessionId, error));
        rows.catch(() => undefined);
        return { rows };
      } catch (error) {
        if (thread.alive) throw error;
      }
    }
    return { rows: this.here(sessionId) };
  }

  /** The session's own failure (a rule that throws) is its cause; what a thread that died was on derives here. */
  private unlessDead(thread: DeriveThread, sessionId: string, error: unknown): Promise<DerivedSessionRows> {
    if (thread.alive) throw error;
    return this.here(sessionId);
  }

  private async here(sessionId: string): Promise<DerivedSessionRows> {
    const rows = await storedSessionRows(this.reader, sessionId, this.fingerprint);
    this.derived.here += 1;
    return rows;
  }
}
