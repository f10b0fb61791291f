import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BackgroundDerive } from '../../src/query/background-derive.js';
import { rulesFingerprint, useRuleFolders } from '../../src/query/rules/active.js';
import { DERIVED_TABLES } from '../../src/store/derived-writer.js';
import { Database } from '../../src/store/database.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { writeSynthetic, type SyntheticSession } from './helpers/synthetic-session.js';

/** The compiled derive thread (the CLI's tests need dist/ built as well). */
const THREAD = join(REPO_ROOT, 'dist', 'src', 'query', 'derive-thread.js');

const pulls = (id: string, first: string, second: string): SyntheticSession => ({
  id,
  title: `serve a model with ${first} or ${second}`,
  steps: [
    { role: 'user', text: `Get a model server running on the arm64 box, try ${first} first.` },
    { role: 'assistant', text: `Pulling ${first}.`, calls: [{ command: `docker pull ${first}`, output: `Error response from daemon: no matching manifest for linux/arm64/v8 in the manifest list entries`, exit: 1 }] },
    { role: 'assistant', text: `No arm64 image; trying ${second} instead.`, calls: [{ command: `docker pull ${second}`, output: `Status: Downloaded newer image for ${second}`, exit: 0 }] },
    { role: 'assistant', text: 'Starting it.', calls: [{ command: `docker run -d --name srv -p 8000:8000 ${second}`, output: 'f00dbabe', exit: 0 }] },
  ],
});

const SESSIONS = [pulls('ses_bgderive_one', 'example.org/fooserve:1.2', 'example.org/barserve:3.4'), pulls('ses_bgderive_two', 'example.org/quxserve:0.9', 'example.org/zapserve:2.0')];

/** Every derived row of the store, less the time it was derived at. */
async function derivedRowsOf(db: Database): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const table of DERIVED_TABLES) {
    rows[table] = (await db.all(`SELECT * EXCLUDE (${table === 'trees' ? 'derived_at' : 'session_id'}) , session_id FROM ${table} ORDER BY ALL`)).map((row) => ({ ...row }));
  }
  return rows;
}

/** A store of the synthetic sessions derived as deriveSessions does, and those rows. */
async function derivedStore(): Promise<{ path: string; expected: Record<string, unknown[]> }> {
  const path = tempDbPath(tempDir('retrace-bgderive-'));
  for (const session of SESSIONS) await writeSynthetic(path, session);
  const db = await Database.open(path);
  try {
    const expected = await derivedRowsOf(db);
    expect(expected['trees']).toHaveLength(2);
    expect(expected['actions']?.length).toBeGreaterThan(0);
    for (const table of DERIVED_TABLES) await db.run(`DELETE FROM ${table}`);
    return { path, expected };
  } finally {
    await db.close();
  }
}

describe('deriving beside an ingest', () => {
  it('writes the rows deriveSessions writes, in the derive thread, while the ingest holds a transaction open', async () => {
    const { path, expected } = await derivedStore();
    const db = await Database.open(path);
    try {
      const background = await BackgroundDerive.start(db, { threadFile: THREAD });
      // The ingest's connection is inside a transaction: the derivations run on their own.
      await db.run('BEGIN TRANSACTION');
      background.add([SESSIONS[0]!.id]);
      background.add([SESSIONS[1]!.id]);
      expect(await background.finish()).toEqual([]);
      await db.run('COMMIT');
      expect(background.derived).toEqual({ inThread: 2, here: 0 });
      expect(await derivedRowsOf(db)).toEqual(expected);
    } finally {
      await db.close();
    }
  });

  it('derives here when the ingest reads one source (nothing would be read beside a thread), with the same rows', async () => {
    const { path, expected } = await derivedStore();
    const db = await Database.open(path);
    try {
      const background = await BackgroundDerive.start(db, { threadFile: THREAD, sources: 1 });
      background.add([SESSIONS[0]!.id, SESSIONS[1]!.id]);
      expect(await background.finish()).toEqual([]);
      expect(background.derived).toEqual({ inThread: 0, here: 2 });
      expect(await derivedRowsOf(db)).toEqual(expected);
    } finally {
      await db.close();
    }
  });

  it('derives here what a thread that died could not, with the same rows', async () => {
    const { path, expected } = await derivedStore();
    const dying = join(tempDir('retrace-bgderive-thread-'), 'dies.mjs');
    writeFileSync(dying, 'process.exit(3);\n');
    const db = await Database.open(path);
    try {
      const background = await BackgroundDerive.start(db, { threadFile: dying });
      background.add(SESSIONS.map((s) => s.id));
      expect(await background.finish()).toEqual([]);
      expect(background.derived).toEqual({ inThread: 0, here: 2 });
      expect(await derivedRowsOf(db)).toEqual(expected);
    } finally {
      await db.close();
    }
  });
});

describe('the derive thread', () => {
  it('derives with the --rules folders this thread selected (same fingerprint)', async () => {
    const { path } = await derivedStore();
    const rules = tempDir('retrace-bgderive-rules-');
    writeFileSync(join(rules, 'nobodyserve.yaml'), 'id: nobodyserve\nkind: framework\nlabel: NobodyServe\ndescription: a server nobody runs\nnames: [nobodyserve]\n');
    expect(useRuleFolders([rules])).toEqual([]);
    const db = await Database.open(path);
    try {
      const background = await BackgroundDerive.start(db, { threadFile: THREAD });
      background.add(SESSIONS.map((s) => s.id));
      expect(await background.finish()).toEqual([]);
      expect(background.derived).toEqual({ inThread: 2, here: 0 });
      expect((await db.all(`SELECT DISTINCT rules_fingerprint FROM trees`)).map((row) => row['rules_fingerprint'])).toEqual([rulesFingerprint()]);
    } finally {
      useRuleFolders([]);
      await db.close();
    }
  });
});
