import type { Database } from './database.js';
import type { SourceState } from './source-writer.js';
import type { Row } from './values.js';

const STATE_COLUMNS = 'key, path, format, size, content_hash, bytes_consumed, lines_consumed, prefix_hash, file_stamp';

function stateOf(row: Row): SourceState {
  return {
    key: String(row['key']),
    path: String(row['path']),
    format: String(row['format']),
    size: Number(row['size'] ?? 0),
    contentHash: String(row['content_hash'] ?? ''),
    bytesConsumed: row['bytes_consumed'] === null ? null : Number(row['bytes_consumed']),
    linesConsumed: row['lines_consumed'] === null ? null : Number(row['lines_consumed']),
    prefixHash: row['prefix_hash'] === null ? null : String(row['prefix_hash']),
    fileStamp: row['file_stamp'] === null || row['file_stamp'] === undefined ? null : String(row['file_stamp']),
  };
}

/** What the store remembers of a source, or undefined when it was never ingested. */
export async function readSourceState(db: Database, key: string): Promise<SourceState | undefined> {
  const row = await db.one(`SELECT ${STATE_COLUMNS} FROM sources WHERE key = ?`, [key]);
  return row ? stateOf(row) : undefined;
}

/**
 * What the store remembers of every source, in one query: a re-ingest of thousands of sources
 * (an opencode.db of 20,000 sessions) asks once, not once per source.
 */
export async function readSourceStates(db: Database): Promise<Map<string, SourceState>> {
  const rows = await db.all(`SELECT ${STATE_COLUMNS} FROM sources`);
  return new Map(rows.map((row) => [String(row['key']), stateOf(row)]));
}

/** A source found unchanged by its hash, whose file stamp moved (a touch, a copy): next time the stamp suffices. */
export async function refreshFileStamp(db: Database, key: string, fileStamp: string): Promise<void> {
  await db.run(`UPDATE sources SET file_stamp = ? WHERE key = ?`, [fileStamp, key]);
}
