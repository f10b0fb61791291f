import { Database } from './database.js';

/**
 * Where the read commands read: a store file (`--db`), or a lake folder (`--lake`, a Parquet
 * dataset `retrace push` writes). A plain string is a store file.
 */
export type StoreLocation = string | { lake: string };

export function isLake(location: StoreLocation): location is { lake: string } {
  return typeof location !== 'string';
}

/** Opens a location for reading: a store read-only, a lake through its views. */
export function openForReading(location: StoreLocation): Promise<Database> {
  return isLake(location) ? Database.openLake(location.lake) : Database.open(location, { readOnly: true });
}

/** Opens for reading, runs `work`, and always closes. */
export async function withReader<T>(location: StoreLocation, work: (db: Database) => Promise<T>): Promise<T> {
  const db = await openForReading(location);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}
