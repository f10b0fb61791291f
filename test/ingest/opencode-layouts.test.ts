import { mkdirSync, writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { writeOpencodeDb, writeStorageTree, type OpencodeExport } from '../helpers/opencode-layouts.js';
import { sampleExport, sampleExportPath } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir();

const MESSAGE_COLUMNS = `id, ordinal, role, parent_id, created_at, completed_at, model, provider, tokens_input, tokens_output,
  tokens_reasoning, tokens_cache_read, tokens_cache_write, cost, text, reasoning, error`;
const CALL_COLUMNS = `message_id, call_id, ordinal, tool, status, input, command, output, title, started_at, ended_at,
  duration_ms, exit_code, timed_out, truncated, parallel_group`;

async function snapshot(dbPath: string) {
  return queryStore(dbPath, async (db) => ({
    sessions: await db.all(`SELECT id, agent, title, directory, started_at, ended_at, model, message_count, tool_call_count FROM sessions ORDER BY id`),
    messages: await db.all(`SELECT ${MESSAGE_COLUMNS} FROM messages ORDER BY ordinal`),
    calls: await db.all(`SELECT ${CALL_COLUMNS} FROM tool_calls ORDER BY ordinal`),
  }));
}

describe('the three opencode layouts of the sample', () => {
  const doc = sampleExport() as unknown as OpencodeExport;
  const exportDb = tempDbPath(dir);
  const storageDb = tempDbPath(dir);
  const sqliteDb = tempDbPath(dir);

  it('ingest to identical rows: export, storage tree and opencode.db', async () => {
    const storageRoot = join(dir, 'tree');
    writeStorageTree(doc, storageRoot);
    const dbFile = join(dir, 'sqlite', 'opencode.db');
    writeOpencodeDb(doc, dbFile);

    const fromExport = await ingestPaths(exportDb, [sampleExportPath()]);
    const fromStorage = await ingestPaths(storageDb, [join(storageRoot, 'storage')]);
    const fromSqlite = await ingestPaths(sqliteDb, [dbFile]);
    for (const summary of [fromExport, fromStorage, fromSqlite]) {
      expect(summary.errors).toEqual([]);
      expect(summary.sessions).toBe(1);
      expect(summary.messages).toBeGreaterThanOrEqual(40);
      expect(summary.tool_calls).toBeGreaterThanOrEqual(30);
    }
    expect([fromStorage.messages, fromSqlite.messages]).toEqual([fromExport.messages, fromExport.messages]);
    expect([fromStorage.tool_calls, fromSqlite.tool_calls]).toEqual([fromExport.tool_calls, fromExport.tool_calls]);

    const expected = await snapshot(exportDb);
    expect(await snapshot(storageDb)).toEqual(expected);
    expect(await snapshot(sqliteDb)).toEqual(expected);
  });

  it('reads one copy of each session from a data folder holding both a storage tree and opencode.db', async () => {
    const dataDir = join(dir, 'opencode-data');
    writeStorageTree(doc, dataDir);
    writeOpencodeDb(doc, join(dataDir, 'opencode.db'));
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [dataDir]);
    expect(summary.sources).toBe(1);
    expect(summary.sessions).toBe(1);
    const sources = await queryStore(dbPath, (db) => db.all(`SELECT format FROM sources`));
    expect(sources).toEqual([{ format: 'opencode-sqlite' }]);
  });

  it('also reads storage-tree sessions that were never migrated into the database', async () => {
    const dataDir = join(dir, 'mixed-data');
    writeOpencodeDb(doc, join(dataDir, 'opencode.db'));
    const older: OpencodeExport = {
      ...doc,
      info: { ...doc.info, id: 'ses_0000000000000000000000older', title: 'an older session' },
      messages: doc.messages.slice(0, 3).map((m) => ({
        info: { ...m.info, sessionID: 'ses_0000000000000000000000older' },
        parts: m.parts.map((p) => ({ ...p, sessionID: 'ses_0000000000000000000000older' })),
      })),
    };
    writeStorageTree(older, dataDir);
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [dataDir]);
    expect(summary.sessions).toBe(2);
    const titles = await queryStore(dbPath, (db) => db.all(`SELECT title, message_count FROM sessions ORDER BY title`));
    expect(titles.map((t) => t['title'])).toEqual(['Deploy Qwen3.5-122B-A10B-FP8 on dual DGX Spark', 'an older session']);
  });

  it('keeps unknown part types and unknown fields, counted, never fatal', async () => {
    const drifted = structuredClone(doc);
    const first = drifted.messages[1];
    if (!first) throw new Error('sample too short');
    first.parts.push({ id: 'prt_zzzzzzzzzzzzzzzzzzzzzzzzzz', type: 'hologram', sessionID: drifted.info.id, messageID: first.info.id, beam: 42 });
    (first.info as Record<string, unknown>)['moodRing'] = 'teal';
    const file = join(dir, 'drifted.json');
    writeFileSync(file, JSON.stringify(drifted, null, 2));
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [file]);
    expect(summary.errors).toEqual([]);
    expect(summary.unknown_records).toBe(1);
    expect(summary.unknown_fields).toEqual({ 'message.moodRing': 1 });
    const kept = await queryStore(dbPath, async (db) => ({
      unknown: await db.all(`SELECT what, raw->>'beam' AS beam FROM unknown_records`),
      extra: await db.scalar(`SELECT extra->'unknown'->>'moodRing' FROM messages WHERE id = ?`, [first.info.id as string]),
    }));
    expect(kept.unknown).toEqual([{ what: 'part:hologram', beam: '42' }]);
    expect(kept.extra).toBe('teal');
  });

  it('reports a broken part file by path and ingests everything else', async () => {
    const root = join(dir, 'broken-tree');
    writeStorageTree(doc, root);
    const message = doc.messages[4];
    const part = message?.parts[0];
    if (!message || !part) throw new Error('sample too short');
    const partFile = join(root, 'storage', 'part', String(message.info.id), `${String(part.id)}.json`);
    writeFileSync(partFile, '{"id": "prt_broken", "type": "text", "text": "cut he');
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [join(root, 'storage')]);
    expect(summary.errors).toHaveLength(1);
    expect(summary.errors[0]).toMatchObject({ file: partFile });
    expect(summary.errors[0]?.message).toMatch(/invalid JSON/);
    expect(summary.messages).toBe(doc.messages.length);
  });

  it('reports a truncated export with the line it stopped on and keeps the messages before it', async () => {
    const text = JSON.stringify(doc, null, 2);
    const cut = text.slice(0, Math.floor(text.length / 2));
    const file = join(dir, 'truncated.json');
    writeFileSync(file, cut);
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [file]);
    expect(summary.errors).toHaveLength(1);
    expect(summary.errors[0]?.line).toBe(cut.split('\n').length);
    expect(summary.errors[0]?.message).toMatch(/ends early, inside \$\.messages\[\d+\]/);
    expect(summary.messages).toBeGreaterThan(5);
    expect(summary.messages).toBeLessThan(doc.messages.length);
  });

  it('resolves a storage session file given on its own', async () => {
    const root = join(dir, 'single');
    writeStorageTree(doc, root);
    const sessionFile = join(root, 'storage', 'session', String(doc.info.projectID), `${doc.info.id}.json`);
    mkdirSync(join(dir, 'copy'), { recursive: true });
    copyFileSync(sessionFile, join(dir, 'copy', 'x.json'));
    const summary = await ingestPaths(tempDbPath(dir), [sessionFile]);
    expect(summary.messages).toBe(doc.messages.length);
  });
});
