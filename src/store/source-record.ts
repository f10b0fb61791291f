import type { Database } from './database.js';
import type { SourceState, WriteMode } from './source-writer.js';

/** One source's part of a writer's transaction: what its `sources` row and its cleanup need. */
export interface SourceMember {
  key: string;
  mode: WriteMode;
  /** The store had no record of the source, so no rows of it to delete. */
  fresh: boolean;
  messagesRead: number;
  callsRead: number;
  unknownCount: number;
  problemCount: number;
}

/**
 * Unknown records and problems are re-read along with their lines: drops the old copies. A source
 * new to the store has none; each DELETE scans its whole table, which grows with every source (an
 * opencode.db of 20,000 sessions is 20,000 sources).
 */
export async function dropRereadRecords(db: Database, member: SourceMember): Promise<void> {
  if (member.fresh) return;
  const fromLine = member.mode === 'replace' ? 0 : member.mode.append.fromLine;
  await db.run(`DELETE FROM unknown_records WHERE source = ? AND coalesce(line, 0) >= ?`, [member.key, fromLine]);
  await db.run(`DELETE FROM ingest_problems WHERE source = ? AND coalesce(line, 0) >= ?`, [member.key, fromLine]);
}

/** Records the source (its state, counts and provenance) once its rows are merged; labels its sessions with its machine. */
export async function recordSource(db: Database, member: SourceMember, state: SourceState, redactions: number): Promise<void> {
  if (!member.fresh) await db.run(`DELETE FROM sources WHERE key = ?`, [member.key]);
  await db.run(
    `INSERT INTO sources (key, path, format, size, content_hash, bytes_consumed, lines_consumed, prefix_hash, ingested_at,
       messages, tool_calls, unknown_records, problems, redactions, machine, original_path, file_stamp, cwd)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, now()::TIMESTAMP, ?, ?, ?, ?, ?, ?, ?, ?,
       (SELECT directory FROM sessions WHERE source = ? AND directory IS NOT NULL
        ORDER BY parent_id IS NOT NULL, started_at NULLS LAST, id LIMIT 1))`,
    [
      state.key, state.path, state.format, state.size, state.contentHash, state.bytesConsumed, state.linesConsumed, state.prefixHash,
      member.messagesRead, member.callsRead, member.unknownCount, member.problemCount, redactions,
      state.machine ?? null, state.originalPath ?? state.path, state.fileStamp ?? null, state.key,
    ],
  );
  // A session is labelled with the machine of the source that last wrote it.
  await db.run(
    `UPDATE sessions SET machine = ? WHERE (source = ? OR id IN (SELECT id FROM stg_sessions WHERE source = ?)) AND machine IS DISTINCT FROM ?`,
    [state.machine ?? null, state.key, state.key, state.machine ?? null],
  );
}
