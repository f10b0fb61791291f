import { ADAPTERS } from '../../src/ingest/adapters.js';
import { discoverSources, type FormatChoice } from '../../src/ingest/discover.js';
import { emptySummary, ingestSources, type IngestSummary } from '../../src/store/ingest-pipeline.js';
import { decompressZstdHead } from '../../src/ingest/io/zstd.js';

import { Database } from '../../src/store/database.js';

/** Ingests paths into a DuckDB file through the real pipeline, as `retrace ingest` does. */
export async function ingestPaths(dbPath: string, paths: string[], options: { redact?: boolean; format?: FormatChoice } = {}): Promise<IngestSummary> {
  const discovery = await discoverSources(paths, { adapters: ADAPTERS, format: options.format ?? 'auto', decompress: decompressZstdHead });
  const summary = emptySummary();
  for (const problem of discovery.problems) summary.errors.push({ file: problem.location.file, line: null, path: null, message: problem.message });
  summary.warnings.push(...discovery.warnings);
  const db = await Database.open(dbPath);
  try {
    return await ingestSources(db, discovery.sources, { redact: options.redact ?? true}, summary);
  } finally {
    db.close();
  }
}

/** Opens a store read-only for assertions and closes it after. */
export async function queryStore<T>(dbPath: string, work: (db: Database) => Promise<T>): Promise<T> {
  const db = await Database.open(dbPath, { readOnly: true });
  try {
    return await work(db);
  } finally {
    db.close();
  }
}
