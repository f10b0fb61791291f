import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeOpencodeDb, writeStorageTree, type OpencodeExport } from './opencode-layouts.js';

const sessionsDir = join(import.meta.dirname, '..', '..', 'sessions');
const sampleFile = readdirSync(sessionsDir).find((name) => name.startsWith('ses_') && name.endsWith('.json'));
if (sampleFile === undefined) throw new Error(`no sample session in ${sessionsDir}: run npx tsx scripts/build-sample.ts`);
const sample: OpencodeExport = JSON.parse(readFileSync(join(sessionsDir, sampleFile), 'utf8'));
const allParts = sample.messages.flatMap((message) => message.parts);

const workDir = mkdtempSync(join(tmpdir(), 'retrace-opencode-layouts-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8'));

const MessageRow = z.object({ id: z.string(), session_id: z.string(), data: z.string() });
const PartRow = z.object({ id: z.string(), message_id: z.string(), session_id: z.string(), data: z.string() });
const TimesRow = z.object({ time_created: z.number(), time_updated: z.number() });

describe('writeStorageTree (opencode v1.1 layout)', () => {
  const root = join(workDir, 'tree');
  const counts = writeStorageTree(sample, root);
  const storage = join(root, 'storage');
  const sessionId = sample.info.id;

  it('writes one file per message and per part, under the right folders', () => {
    expect(counts).toEqual({ sessions: 1, messages: sample.messages.length, parts: allParts.length });
    expect(readdirSync(join(storage, 'message', sessionId))).toHaveLength(sample.messages.length);
    const partFiles = sample.messages.reduce((sum, m) => sum + readdirSync(join(storage, 'part', m.info.id)).length, 0);
    expect(partFiles).toBe(allParts.length);
    expect(existsSync(join(storage, 'project', `${sample.info.projectID}.json`))).toBe(true);
    const session = readJson(join(storage, 'session', sample.info.projectID, `${sessionId}.json`));
    expect(session.title).toBe(sample.info.title);
  });

  it('keeps the ids inside every file, ids first', () => {
    const message = sample.messages[4];
    if (message === undefined) throw new Error('sample too short');
    const onDisk = readJson(join(storage, 'message', sessionId, `${message.info.id}.json`));
    expect(Object.keys(onDisk).slice(0, 2)).toEqual(['id', 'sessionID']);
    expect(onDisk).toEqual(message.info);
    const tool = message.parts.find((part) => part.type === 'tool');
    if (tool === undefined) throw new Error('message 5 has no tool part');
    const partOnDisk = readJson(join(storage, 'part', message.info.id, `${tool.id}.json`));
    expect(Object.keys(partOnDisk).slice(0, 3)).toEqual(['id', 'sessionID', 'messageID']);
    expect(partOnDisk).toEqual(tool);
  });
});

describe('writeOpencodeDb (opencode v1.2 layout)', () => {
  const dbPath = join(workDir, 'opencode', 'opencode.db');
  const counts = writeOpencodeDb(sample, dbPath);
  const db = new Database(dbPath, { readonly: true });
  afterAll(() => db.close());

  it('stores every message and part', () => {
    expect(counts).toEqual({ sessions: 1, messages: sample.messages.length, parts: allParts.length });
    const count = (table: string): unknown => db.prepare(`SELECT count(*) AS n FROM ${table}`).get();
    expect(count('message')).toEqual({ n: sample.messages.length });
    expect(count('part')).toEqual({ n: allParts.length });
    expect(db.prepare('SELECT title, version, project_id, directory FROM session').get()).toEqual({
      title: sample.info.title,
      version: sample.info.version,
      project_id: sample.info.projectID,
      directory: sample.info.directory,
    });
  });

  it('keeps ids in columns and the rest in data, so hydrating rows gives back the export', () => {
    const messageRows = z.array(MessageRow).parse(db.prepare('SELECT id, session_id, data FROM message ORDER BY time_created, id').all());
    const partRows = z.array(PartRow).parse(db.prepare('SELECT id, message_id, session_id, data FROM part ORDER BY message_id, id').all());
    const hydrated = messageRows.map(({ id, session_id, data }) => {
      const info = { ...JSON.parse(data), id, sessionID: session_id };
      const parts = partRows
        .filter((partRow) => partRow.message_id === id)
        .map((partRow) => ({ ...JSON.parse(partRow.data), id: partRow.id, sessionID: partRow.session_id, messageID: partRow.message_id }));
      return { info, parts };
    });
    // Same order of keys too: a v1.2 export is exactly this {...data, id, sessionID} rebuild.
    expect(JSON.stringify(hydrated)).toBe(JSON.stringify(sample.messages));
    const firstData = JSON.parse(messageRows[0]?.data ?? '{}');
    expect(firstData).not.toHaveProperty('id');
    expect(firstData).toHaveProperty('role', 'user');
  });

  it('dates tool part rows by their run times', () => {
    const timedOut = allParts.find(
      (part) => part.type === 'tool' && JSON.stringify(part.state).includes('bash tool terminated command after exceeding timeout'),
    );
    if (timedOut === undefined) throw new Error('sample lost its timed-out pull');
    const row = TimesRow.parse(db.prepare('SELECT time_created, time_updated FROM part WHERE id = ?').get(timedOut.id));
    expect(row.time_updated - row.time_created).toBeGreaterThanOrEqual(120_000);
  });
});
