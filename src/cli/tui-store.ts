import type { Database } from '../store/database.js';
import { StoreError } from '../store/errors.js';
import { openForReading, type StoreLocation } from '../store/location.js';

/** What the TUI's services read through: a store held only while reads are going on. */
export interface StoreReader {
  use<T>(work: (db: Database) => Promise<T>): Promise<T>;
}

/** A store the caller holds open anyway (a live run's writer, a test's): every read uses it. */
export function heldStore(db: Database): StoreReader {
  return { use: (work) => work(db) };
}

export interface LeasedStoreOptions {
  /** How long the store stays open after the last read (a scroll is many reads in a row). */
  idleMs?: number;
  /** How long a read waits for a writer (an ingest, a replay's record) to let go. */
  waitMs?: number;
}

const LOCKED = /locked by another process/;

/**
 * DuckDB lets one process write a store file and nobody else open it meanwhile. The TUI is open
 * for hours: held all that time, it would lock out every `ingest` and `replay`. So it opens the
 * store read-only when a screen reads, shares that open among the reads of a burst, and closes it
 * after a moment of quiet; a writer gets the file between bursts, and the next read sees its rows.
 * (Measured here: an open costs 150–250 ms on a loaded 2-core machine, so one per read would make
 * scrolling crawl; a copy of the file would go stale; routing reads through the writer needs one.)
 * A read that finds a writer at work waits for it, then says who holds the store.
 */
export function leasedStore(location: StoreLocation, options: LeasedStoreOptions = {}): StoreReader & { close(): void } {
  const idleMs = options.idleMs ?? 400;
  const waitMs = options.waitMs ?? 10_000;
  let open: Promise<Database> | null = null;
  let users = 0;
  let idle: NodeJS.Timeout | null = null;

  const release = () => {
    const closing = open;
    open = null;
    void closing?.then((db) => db.close(), () => undefined);
  };
  const acquire = async (): Promise<Database> => {
    const deadline = Date.now() + waitMs;
    for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
      try {
        return await openForReading(location);
      } catch (error) {
        if (!(error instanceof StoreError) || !LOCKED.test(error.message) || Date.now() + delay > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  };

  return {
    async use(work) {
      if (idle) clearTimeout(idle);
      idle = null;
      users += 1;
      try {
        open ??= acquire();
        const opening = open;
        const db = await opening.catch((error: unknown) => {
          if (open === opening) open = null;
          throw error;
        });
        return await work(db);
      } finally {
        users -= 1;
        if (users === 0) idle = setTimeout(release, idleMs).unref();
      }
    },
    close() {
      if (idle) clearTimeout(idle);
      idle = null;
      release();
    },
  };
}
