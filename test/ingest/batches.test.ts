import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/ingest/adapters.js';
import { discoverSources } from '../../src/ingest/discover.js';
import { ingestSources } from '../../src/store/ingest-pipeline.js';
import { Database } from '../../src/store/database.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { queryStore } from '../helpers/ingest.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir();
const FIXTURES = [join(REPO_ROOT, 'test/fixtures/claude'), join(REPO_ROOT, 'test/fixtures/codex')];

async function ingest(dbPath: string, batchBytes?: number) {
  const db = await Database.open(dbPath);
  try {
    const { sources } = await discoverSources(FIXTURES, { adapters: ADAPTERS, format: 'auto' });
    return await ingestSources(db, sources, { redact: true, batchBytes });
  } finally {
    db.close();
  }
}

async function snapshot(dbPath: string) {
  return queryStore(dbPath, async (db) => ({
    sessions: await db.all('SELECT id, message_count, tool_call_count, started_at, ended_at, title FROM sessions ORDER BY id'),
    messages: await db.all('SELECT session_id, id, ordinal, text FROM messages ORDER BY session_id, ordinal'),
    calls: await db.all('SELECT session_id, call_id, ordinal, exit_code, output FROM tool_calls ORDER BY session_id, ordinal'),
    unknown: await db.scalar('SELECT count(*) FROM unknown_records'),
  }));
}

describe('long transcripts committed in batches', () => {
  it('store exactly what one transaction per file stores, and re-ingest adds nothing', async () => {
    const whole = tempDbPath(dir);
    const batched = tempDbPath(dir);
    const one = await ingest(whole);
    // A batch after every checkpoint: the most transactions a file can be split into.
    const many = await ingest(batched, 1);
    expect(many.errors).toEqual([]);
    expect([many.sessions, many.messages, many.tool_calls]).toEqual([one.sessions, one.messages, one.tool_calls]);
    expect(await snapshot(batched)).toEqual(await snapshot(whole));
    const again = await ingest(batched, 1);
    expect(again).toMatchObject({ sources: 0, messages: 0, tool_calls: 0 });
  });
});
