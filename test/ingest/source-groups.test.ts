import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/ingest/adapters.js';
import { discoverSources } from '../../src/ingest/discover.js';
import type { Source } from '../../src/core/source.js';
import { ingestSources } from '../../src/store/ingest-pipeline.js';
import { Database } from '../../src/store/database.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { queryStore } from '../helpers/ingest.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

/**
 * Small sources share a transaction (commit-group.ts), and still each is in the store wholly or
 * not at all: a file that fails half-way through a group rolls the group back, is reported, and
 * the group's other files land as if it had never been there.
 */

const dir = tempDir();
const corpus = join(dir, 'corpus');
cpSync(join(REPO_ROOT, 'test/fixtures/claude/projects'), join(corpus, 'claude'), { recursive: true });
cpSync(join(REPO_ROOT, 'test/fixtures/codex/sessions'), join(corpus, 'codex'), { recursive: true });
const badLines = join(corpus, 'claude', '-home-ops-gptoss', '7c1d2e3f-0000-4000-8000-00000000bad1.jsonl');
const goodLine = JSON.stringify({
  parentUuid: null, isSidechain: false, userType: 'external', cwd: '/home/ops', sessionId: '7c1d2e3f-0000-4000-8000-00000000bad1',
  version: '2.0.50', type: 'user', message: { role: 'user', content: 'a prompt between two broken lines' },
  uuid: '9d8c7b6a-0000-4000-8000-000000000001', timestamp: '2025-11-24T15:31:06.698Z',
});
writeFileSync(badLines, `{"type":"user", "message": \n${goodLine}\nnot json at all\n`);

async function ingest(dbPath: string, breakOne?: (source: Source) => boolean) {
  const db = await Database.open(dbPath);
  try {
    const { sources } = await discoverSources([corpus], { adapters: ADAPTERS, format: 'auto' });
    const used = sources.map((source): Source => {
      if (!breakOne?.(source)) return source;
      // Its first items read, then the disk goes away: nothing of it may stay in the store.
      return {
        ...source,
        read: async function* (resume) {
          let n = 0;
          for await (const item of source.read(resume)) {
            yield item;
            if (++n === 3) throw new Error('EIO: i/o error, read');
          }
        },
      };
    });
    const summary = await ingestSources(db, used, { redact: true });
    return { summary, sources };
  } finally {
    db.close();
  }
}

const rows = (dbPath: string) =>
  queryStore(dbPath, async (db) => ({
    sources: await db.all(`SELECT key, messages, tool_calls, problems FROM sources ORDER BY key`),
    messages: await db.all(`SELECT session_id, id, ordinal, text FROM messages ORDER BY session_id, ordinal`),
    calls: await db.all(`SELECT session_id, call_id, ordinal FROM tool_calls ORDER BY session_id, ordinal`),
    problems: await db.all(`SELECT source, line, message FROM ingest_problems ORDER BY source, line`),
  }));

describe('small sources stored in groups', () => {
  it('a file with bad lines lands with its problems reported by file and line, and so do its neighbours', async () => {
    const dbPath = tempDbPath(dir);
    const { summary, sources } = await ingest(dbPath);
    expect(summary.failed_sources).toBe(0);
    expect(summary.sources).toBe(sources.length);
    const bad = summary.errors.filter((e) => e.file === badLines).map((e) => e.line);
    expect(bad).toEqual([1, 3]);
    const stored = await rows(dbPath);
    expect(stored.sources.map((s) => s['key'])).toHaveLength(sources.length);
    expect(stored.messages.some((m) => m['text'] === 'a prompt between two broken lines')).toBe(true);
  });

  it('a file failing half-way in a group: reported, none of its rows kept, every other file stored as without it', async () => {
    const victim = (source: Source): boolean => source.path.includes('019cdc2c-b578');
    const broken = tempDbPath(dir);
    const { summary, sources } = await ingest(broken, victim);
    const victimPath = sources.find(victim)?.path ?? '';
    expect(victimPath).not.toBe('');
    expect(summary.failed_sources).toBe(1);
    expect(summary.errors.filter((e) => e.message.startsWith('not ingested'))).toEqual([
      { file: victimPath, line: null, path: null, message: 'not ingested: EIO: i/o error, read' },
    ]);
    expect(summary.sources).toBe(sources.length - 1);

    // The same corpus without the victim, each file alone in the store's eyes: the same rows.
    const without = tempDbPath(dir);
    const db = await Database.open(without);
    try {
      await ingestSources(db, sources.filter((s) => !victim(s)), { redact: true });
    } finally {
      db.close();
    }
    const a = await rows(broken);
    const b = await rows(without);
    expect(a.sources.map((s) => s['key'])).not.toContain(victimPath);
    expect(a).toEqual(b);
  });
});
