import { openForReading, type StoreLocation } from '../store/location.js';
import { leaseStore, type LeaseOptions, type StoreAccess } from '../store/store-lease.js';

export { heldStore } from '../store/store-lease.js';

/** What the TUI's services read through: a store held only while reads are going on. */
export type StoreReader = StoreAccess;

/**
 * The TUI is open for hours: held all that time, the store would lock out every `ingest` and
 * `replay`. So it opens the store read-only when a screen reads, shares that open among the reads
 * of a burst, and closes it after a moment of quiet (leaseStore); a writer gets the file between
 * bursts, and the next read sees its rows. (Measured here: an open costs 150–250 ms on a loaded
 * 2-core machine, so one per read would make scrolling crawl; a copy of the file would go stale;
 * routing reads through the writer needs one.) A read that finds a writer at work waits for it,
 * then says who holds the store.
 */
export function leasedStore(location: StoreLocation, options: LeaseOptions = {}): StoreReader & { close(): Promise<void> } {
  return leaseStore(() => openForReading(location), options);
}
