import { ADAPTERS } from '../../../src/ingest/adapters.js';
import { discoverSources } from '../../../src/ingest/discover.js';
import { decompressZstdHead } from '../../../src/ingest/io/zstd.js';
import { ingestSources } from '../../../src/store/ingest-pipeline.js';
import { deriveSessions } from '../../../src/query/derive.js';
import { Database } from '../../../src/store/database.js';

/** Ingests paths into a fresh DuckDB file the way `retrace ingest` does, derived tables included. */
export async function ingestDerived(dbPath: string, paths: string[]): Promise<void> {
  const discovery = await discoverSources(paths, { adapters: ADAPTERS, format: 'auto', decompress: decompressZstdHead });
  const db = await Database.open(dbPath);
  try {
    const summary = await ingestSources(db, discovery.sources, { redact: true, onSessionsWritten: deriveSessions });
    if (summary.errors.length > 0) throw new Error(`ingest problems: ${JSON.stringify(summary.errors)}`);
  } finally {
    db.close();
  }
}

/** Runs `work` on the store opened read-only. */
export async function readStore<T>(dbPath: string, work: (db: Database) => Promise<T>): Promise<T> {
  const db = await Database.open(dbPath, { readOnly: true });
  try {
    return await work(db);
  } finally {
    db.close();
  }
}
