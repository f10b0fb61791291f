import { existsSync } from 'node:fs';
import { Database } from '../../store/database.js';
import { LATEST_SCHEMA_VERSION } from '../../store/migrations.js';
import { deriveFailures, staleDerivedSessions, underivedSessions } from '../../store/derived-writer.js';

export interface StoreScan {
  path: string;
  exists: boolean;
  /** Why the store could not be read (locked, not a store, an interrupted creation), when it could not. */
  failure: string | null;
  schemaVersion: number | null;
  latestSchemaVersion: number;
  sessionsByAgent: Record<string, number>;
  deriveFailures: { sessionId: string; cause: string }[];
  /** Sessions stored but never derived (an ingest killed before it derived them). */
  underived: string[];
  /** Sessions whose tree was derived by other rules than those in force (re-derived when next read). */
  derivedByOtherRules: number;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The store as it is, opened read-only and never upgraded: an older schema is reported, not
 * migrated, and what an older schema cannot answer is left out rather than guessed.
 */
export async function scanStore(path: string, rulesFingerprint: string): Promise<StoreScan> {
  const scan: StoreScan = {
    path, exists: existsSync(path), failure: null, schemaVersion: null, latestSchemaVersion: LATEST_SCHEMA_VERSION,
    sessionsByAgent: {}, deriveFailures: [], underived: [], derivedByOtherRules: 0,
  };
  if (!scan.exists) return scan;
  let db: Database;
  try {
    db = await Database.open(path, { readOnly: true, asIs: true });
  } catch (error) {
    return { ...scan, failure: messageOf(error) };
  }
  try {
    scan.schemaVersion = await db.schemaVersion().catch(() => 0);
    if (scan.schemaVersion === 0) return scan;
    for (const row of await db.all(`SELECT agent, count(*) AS n FROM sessions GROUP BY agent ORDER BY agent`)) {
      scan.sessionsByAgent[String(row['agent'])] = Number(row['n']);
    }
    if (scan.schemaVersion < LATEST_SCHEMA_VERSION) return scan;
    scan.deriveFailures = (await deriveFailures(db)).map((failure) => ({ sessionId: failure.session_id, cause: failure.cause }));
    scan.underived = await underivedSessions(db);
    const stale = await staleDerivedSessions(db, rulesFingerprint);
    const underived = new Set(scan.underived);
    scan.derivedByOtherRules = stale.filter((id) => !underived.has(id)).length;
  } catch (error) {
    scan.failure = messageOf(error);
  } finally {
    await db.close();
  }
  return scan;
}
