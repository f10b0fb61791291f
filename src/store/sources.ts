import type { Database } from './database.js';
import type { SourceState } from './source-writer.js';

/** What the store remembers of a source, or undefined when it was never ingested. */
export async function readSourceState(db: Database, key: string): Promise<SourceState | undefined> {
  const row = await db.one(
    `SELECT key, path, format, size, content_hash, bytes_consumed, lines_consumed, prefix_hash FROM sources WHERE key = ?`,
    [key],
  );
  if (!row) return undefined;
  return {
    key: String(row['key']),
    path: String(row['path']),
    format: String(row['format']),
    size: Number(row['size'] ?? 0),
    contentHash: String(row['content_hash'] ?? ''),
    bytesConsumed: row['bytes_consumed'] === null ? null : Number(row['bytes_consumed']),
    linesConsumed: row['lines_consumed'] === null ? null : Number(row['lines_consumed']),
    prefixHash: row['prefix_hash'] === null ? null : String(row['prefix_hash']),
  };
}
