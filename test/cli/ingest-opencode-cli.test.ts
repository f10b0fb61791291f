import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRetrace, runRetraceJson } from '../helpers/cli.js';
import { createOpencodeDb, insertV2Session, opencodeId } from '../helpers/opencode-db.js';
import { NATIVE, T0 } from '../helpers/opencode-sessions.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir();

/** A 2.x database with the founding session and one written by a 2.x release retrace does not know. */
function driftedDb(): string {
  const file = join(dir, 'opencode.db');
  const db = createOpencodeDb(file, '2.x');
  insertV2Session(db, NATIVE.session, NATIVE.messages);
  const future = Array.from({ length: 3 }, (_, n) => ({ id: opencodeId('msg', T0 + 800_000 + n, n), type: 'teleported', data: { time: { created: T0 + 800_000 + n } } }));
  insertV2Session(db, { ...NATIVE.session, id: 'ses_2e0000000ffeFutureTypes002', version: '2.9.0' }, future);
  db.close();
  return file;
}

describe('retrace ingest of an opencode 2.x database', () => {
  const file = driftedDb();

  it('names the drifted session in the summary, with the opencode version the file states', async () => {
    const run = await runRetrace(['ingest', file, '--db', tempDbPath(dir)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Warnings (2)');
    expect(run.stdout).toContain(`${file} (opencode 2.9.0): session ses_2e0000000ffeFutureTypes002: no messages read from 3 records (message:teleported 3)`);
  });

  it('puts the same warning in --json, and reads a renamed copy under --format opencode', async () => {
    const renamed = join(dir, 'opencode.sqlite.old');
    copyFileSync(file, renamed);
    const run = await runRetraceJson<{ sessions: number; messages: number; warnings: unknown[] }>(['ingest', renamed, '--format', 'opencode', '--db', tempDbPath(dir)]);
    expect(run.code).toBe(0);
    expect([run.json.sessions, run.json.messages]).toEqual([2, NATIVE.messages.length]);
    expect(run.json.warnings).toEqual([
      { file: renamed, agent: 'opencode', version: '2.9.0', reason: expect.stringMatching(/^session ses_2e0000000ffeFutureTypes002: no messages read/) },
      { file: renamed, agent: 'opencode', version: '2.9.0', reason: expect.stringMatching(/^session ses_2e0000000ffeFutureTypes002: 3 of 3 records are of kinds retrace does not know/) },
    ]);
  });
});
