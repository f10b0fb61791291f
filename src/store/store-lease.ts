import type { Database } from './database.js';
import { StoreError } from './errors.js';

/** Something that lends an open store for a piece of work: held open, or opened for the moment. */
export interface StoreAccess {
  use<T>(work: (db: Database) => Promise<T>): Promise<T>;
}

export interface LeaseOptions {
  /** How long the store stays open after the last use (a scroll is many reads in a row). */
  idleMs?: number;
  /** How long an open waits for another process (an ingest, a replay's record) to let go. */
  waitMs?: number;
  /**
   * Let go once the store has been open this long, at the first moment nothing uses it, and rest
   * `restMs` before opening again: a writer whose uses come one after another (a run's quick
   * steps) never keeps a reader in another process out for long.
   */
  maxHoldMs?: number;
  restMs?: number;
}

/** DuckDB's words, through describeOpenFailure, for "another process holds this file". */
export function isStoreLocked(error: unknown): boolean {
  return error instanceof StoreError && /locked by another process/.test(error.message);
}

/** A store the caller holds open anyway (a test's): every use gets it. */
export function heldStore(db: Database): StoreAccess {
  return { use: (work) => work(db) };
}

/**
 * DuckDB lets one process write a store file and nobody else open it meanwhile, and a reader
 * shuts a writer out too. A long-lived process (the TUI, a live replay) that held the store all
 * the time would lock out every other command; so it opens the store when it has work, shares
 * that open among the work of a burst, and closes it after a moment of quiet. Another process gets
 * the file between bursts. An open that finds the file held waits for it, then says who holds it.
 *
 * Within one process every use goes through one lease: DuckDB's file lock is per process, so a
 * second open of the same file in the same process (a reader beside the writer) would not be
 * refused, and would read a file being written.
 */
export function leaseStore(open: () => Promise<Database>, options: LeaseOptions = {}): StoreAccess & { close(): Promise<void> } {
  const idleMs = options.idleMs ?? 400;
  const waitMs = options.waitMs ?? 10_000;
  let opened: Promise<Database> | null = null;
  /** The previous open, until it is closed: the next one waits for it (never two opens at once). */
  let closing: Promise<void> = Promise.resolve();
  let users = 0;
  let idle: NodeJS.Timeout | null = null;
  let openedAt = 0;
  let rested = 0;

  const release = () => {
    const last = opened;
    opened = null;
    // The rest counts from the close itself: a writer's close checkpoints, holding the file a while longer.
    if (last) closing = last.then((db) => db.close()).catch(() => undefined).then(() => void (rested = Date.now() + (options.restMs ?? 0)));
  };
  const acquire = async (): Promise<Database> => {
    await closing;
    if (Date.now() < rested) await new Promise((resolve) => setTimeout(resolve, rested - Date.now()));
    const deadline = Date.now() + waitMs;
    for (let delay = 50; ; delay = Math.min(delay * 2, 400)) {
      try {
        const db = await open();
        openedAt = Date.now();
        return db;
      } catch (error) {
        if (!isStoreLocked(error) || Date.now() + delay > deadline) throw error;
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
        opened ??= acquire();
        const opening = opened;
        const db = await opening.catch((error: unknown) => {
          if (opened === opening) opened = null;
          throw error;
        });
        return await work(db);
      } finally {
        users -= 1;
        const held = options.maxHoldMs !== undefined && opened !== null && openedAt > 0 && Date.now() - openedAt >= options.maxHoldMs;
        if (users === 0 && held) release();
        else if (users === 0) idle = setTimeout(release, idleMs).unref();
      }
    },
    /** Lets go now; resolves once the store is closed (after any statement still running). */
    close() {
      if (idle) clearTimeout(idle);
      idle = null;
      release();
      return closing;
    },
  };
}
