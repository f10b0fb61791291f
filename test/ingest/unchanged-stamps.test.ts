import { appendFileSync, cpSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/ingest/adapters.js';
import { discoverSources } from '../../src/ingest/discover.js';
import { readFileHead } from '../../src/ingest/io/file-head.js';
import { decompressZstdHead } from '../../src/ingest/io/zstd.js';
import { hashFile } from '../../src/core/io/hash.js';
import type { Source } from '../../src/core/source.js';
import { ingestSources } from '../../src/store/ingest-pipeline.js';
import { knownFileLookup } from '../../src/store/known-files.js';
import { readSourceStates } from '../../src/store/sources.js';
import { Database } from '../../src/store/database.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { queryStore } from '../helpers/ingest.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

/**
 * A re-ingest proves a file unchanged by its size, modification time and inode before anything else: an
 * unchanged corpus opens no file at all; a touched one is hashed and nothing is stored again; a
 * grown one is read from where the last ingest stopped. Every opening of a file goes through a
 * counted reader (the head discovery reads, the hash, the source's own fingerprint and read).
 */

const dir = tempDir();
const corpus = join(dir, 'corpus');
const HOUR_AGO = Date.now() / 1000 - 3600;

interface Opened {
  heads: string[];
  hashes: string[];
  fingerprints: string[];
  reads: string[];
}

function files(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** `retrace ingest`'s sequence (store first, then discovery told what the store knows), every file opening counted. */
async function ingest(dbPath: string) {
  const opened: Opened = { heads: [], hashes: [], fingerprints: [], reads: [] };
  const db = await Database.open(dbPath);
  try {
    const states = await readSourceStates(db);
    const discovery = await discoverSources([corpus], {
      adapters: ADAPTERS,
      format: 'auto',
      decompress: decompressZstdHead,
      known: knownFileLookup(states, true),
      readHead: (path, decompress) => {
        opened.heads.push(path);
        return readFileHead(path, decompress);
      },
    });
    const counted = discovery.sources.map((source): Source => ({
      ...source,
      fingerprint: () => {
        opened.fingerprints.push(source.path);
        return source.fingerprint();
      },
      read: (resume) => {
        opened.reads.push(source.path);
        return source.read(resume);
      },
    }));
    const summary = await ingestSources(db, counted, {
      redact: true,
      states,
      hashFile: (path, prefix) => {
        opened.hashes.push(path);
        return hashFile(path, prefix);
      },
    });
    return { summary, opened, found: discovery.sources.length };
  } finally {
    db.close();
  }
}

const age = (file: string, seconds: number): void => utimesSync(file, seconds, seconds);

describe('re-ingest decided by file stamps', () => {
  const dbPath = tempDbPath(dir);
  let claudeFile = '';
  let codexFile = '';

  beforeAll(() => {
    cpSync(join(REPO_ROOT, 'test/fixtures/claude/projects'), join(corpus, 'claude'), { recursive: true });
    cpSync(join(REPO_ROOT, 'test/fixtures/codex/sessions'), join(corpus, 'codex'), { recursive: true });
    // Written long ago, as an archive is: a stamp is trusted only once its file has settled.
    for (const file of files(corpus)) age(file, HOUR_AGO);
    claudeFile = files(join(corpus, 'claude')).find((f) => f.endsWith('d96690bf-84e5-4021-84e4-48dbd0b8dfa3.jsonl')) ?? '';
    codexFile = files(join(corpus, 'codex')).find((f) => f.endsWith('.jsonl')) ?? '';
  });

  it('an unchanged corpus: every source skipped, no file opened', async () => {
    const first = await ingest(dbPath);
    expect(first.summary.errors).toEqual([]);
    expect(first.summary.sources).toBe(first.found);
    expect(first.opened.heads.length).toBeGreaterThan(0);
    const stamps = await queryStore(dbPath, (db) => db.all(`SELECT key, file_stamp FROM sources WHERE file_stamp IS NULL`));
    expect(stamps).toEqual([]);

    const again = await ingest(dbPath);
    expect(again.found).toBe(first.found);
    expect(again.summary).toMatchObject({ sources: 0, skipped_unchanged: first.found, messages: 0, errors: [] });
    expect(again.opened).toEqual({ heads: [], hashes: [], fingerprints: [], reads: [] });
  });

  it('a touched file (new times, same bytes): hashed, nothing stored again; then trusted by its new stamp', async () => {
    age(codexFile, HOUR_AGO + 60);
    const touched = await ingest(dbPath);
    expect(touched.summary).toMatchObject({ sources: 0, messages: 0, tool_calls: 0, errors: [] });
    expect(touched.summary.skipped_unchanged).toBe(touched.found);
    expect(touched.opened.heads).toEqual([codexFile]);
    expect(touched.opened.hashes).toEqual([codexFile]);
    expect(touched.opened.reads).toEqual([]);

    const after = await ingest(dbPath);
    expect(after.opened).toEqual({ heads: [], hashes: [], fingerprints: [], reads: [] });
  });

  it('an appended file: read again from where the last ingest stopped, the rest untouched', async () => {
    const before = await queryStore(dbPath, (db) => db.scalar(`SELECT count(*) FROM messages`));
    const line = {
      parentUuid: null, isSidechain: false, userType: 'external', cwd: '/home/ops/gptoss', sessionId: 'd96690bf-84e5-4021-84e4-48dbd0b8dfa3',
      version: '2.0.50', type: 'user', message: { role: 'user', content: 'and one more question, appended later' },
      uuid: '0e5c3a52-7d55-4a43-9a51-3f0f4f0b9e11', timestamp: '2025-11-24T18:00:00.000Z',
    };
    appendFileSync(claudeFile, `${JSON.stringify(line)}\n`);
    age(claudeFile, HOUR_AGO + 120);
    const grown = await ingest(dbPath);
    expect(grown.summary).toMatchObject({ sources: 1, resumed: 1, messages: 1, errors: [] });
    expect(grown.opened.reads).toEqual([claudeFile]);
    expect(grown.opened.hashes.every((file) => file === claudeFile)).toBe(true);
    expect(await queryStore(dbPath, (db) => db.scalar(`SELECT count(*) FROM messages`))).toBe(Number(before) + 1);
  });

  it('a file written just now is not stamped (its times may not move on its next write): hashed next time', async () => {
    const fresh = join(corpus, 'claude', '-home-ops-gptoss', 'b1d0c9a2-0000-4000-8000-000000000001.jsonl');
    const line = {
      parentUuid: null, isSidechain: false, userType: 'external', cwd: '/home/ops/gptoss', sessionId: 'b1d0c9a2-0000-4000-8000-000000000001',
      version: '2.0.50', type: 'user', message: { role: 'user', content: 'a session still being written' },
      uuid: '5b9f7c1e-2a3d-4e5f-8a9b-0c1d2e3f4a5b', timestamp: '2025-11-25T09:00:00.000Z',
    };
    writeFileSync(fresh, `${JSON.stringify(line)}\n`);
    expect(Date.now() - statSync(fresh).mtimeMs).toBeLessThan(60_000);
    const first = await ingest(dbPath);
    expect(first.summary).toMatchObject({ sources: 1, errors: [] });
    const stamp = await queryStore(dbPath, (db) => db.scalar(`SELECT file_stamp FROM sources WHERE key LIKE '%b1d0c9a2-0000-4000-8000-000000000001.jsonl'`));
    expect(stamp).toBeNull();
    const again = await ingest(dbPath);
    expect(again.summary).toMatchObject({ sources: 0, messages: 0 });
    expect(again.opened.hashes).toContain(fresh);
  });
});
