import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/ingest/adapters.js';
import { discoverSources } from '../../src/ingest/discover.js';
import { ingestSources } from '../../src/store/ingest-pipeline.js';
import { Database } from '../../src/store/database.js';
import { writeOpencodeDb, type OpencodeExport } from '../helpers/opencode-layouts.js';
import { queryStore } from '../helpers/ingest.js';
import { sampleExport, sampleExportPath } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

/**
 * A group of small sources shares one writer and one merge (commit-group.ts). Sources of one group
 * that write the same session must leave what they leave committed one by one: a second copy of a
 * file adds nothing, and a database session (which holds the whole session) read after an export
 * of it that had more messages removes the ones it no longer holds.
 */

const dir = tempDir();
const doc = sampleExport() as unknown as OpencodeExport;
const exports = join(dir, 'exports');
mkdirSync(exports, { recursive: true });
copyFileSync(sampleExportPath(), join(exports, 'a-session.json'));
copyFileSync(sampleExportPath(), join(exports, 'b-same-session-again.json'));
const dbFile = join(dir, 'data', 'opencode.db');
// The database holds the session with its last messages deleted.
writeOpencodeDb({ ...doc, messages: doc.messages.slice(0, doc.messages.length - 5) }, dbFile);

async function ingest(dbPath: string, batchBytes?: number) {
  const db = await Database.open(dbPath);
  try {
    const fromExports = await discoverSources([exports], { adapters: ADAPTERS, format: 'auto' });
    const fromDb = await discoverSources([dbFile], { adapters: ADAPTERS, format: 'auto' });
    return await ingestSources(db, [...fromExports.sources, ...fromDb.sources], { redact: true, batchBytes });
  } finally {
    db.close();
  }
}

const snapshot = (dbPath: string) =>
  queryStore(dbPath, async (db) => ({
    sessions: await db.all('SELECT id, source, message_count, tool_call_count, started_at, ended_at, title FROM sessions ORDER BY id'),
    messages: await db.all('SELECT session_id, id, ordinal, text FROM messages ORDER BY session_id, ordinal'),
    calls: await db.all('SELECT session_id, call_id, ordinal, output FROM tool_calls ORDER BY session_id, ordinal'),
    sources: await db.all('SELECT key, messages, tool_calls FROM sources ORDER BY key'),
  }));

describe('sources of one group writing the same session', () => {
  it('store what one transaction per source stores', async () => {
    const grouped = tempDbPath(dir);
    const alone = tempDbPath(dir);
    const inGroup = await ingest(grouped);
    const oneByOne = await ingest(alone, 1);
    expect(inGroup.errors).toEqual([]);
    expect(inGroup.sources).toBe(3);
    const counts = (s: typeof inGroup) => [s.sessions, s.messages, s.tool_calls, s.messages_removed, s.tool_calls_removed];
    expect(counts(inGroup)).toEqual(counts(oneByOne));
    expect(inGroup.messages_removed).toBeGreaterThan(0);
    const stored = await snapshot(grouped);
    expect(stored).toEqual(await snapshot(alone));
    expect(stored.messages).toHaveLength(doc.messages.length - 5);
  });
});
