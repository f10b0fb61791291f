import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestPaths } from '../helpers/ingest.js';
import { createOpencodeDb, insertV2Session, opencodeId } from '../helpers/opencode-db.js';
import { NATIVE, T0 } from '../helpers/opencode-sessions.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir();
/** warningsFor itself is tested in warnings.test.ts; here, what ingest says of opencode databases. */
describe('ingest names drifted opencode sessions in its summary', () => {
  it('a 2.x session of unknown message types is named with its version; an empty session is not drift', async () => {
    const file = join(dir, 'drift', 'opencode.db');
    const db = createOpencodeDb(file, '2.x');
    const future = Array.from({ length: 12 }, (_, n) => ({ id: opencodeId('msg', T0 + 700_000 + n * 1000, n), type: 'hologram-switched', data: { beam: n, time: { created: T0 + 700_000 + n * 1000 } } }));
    insertV2Session(db, { ...NATIVE.session, id: 'ses_2e0000000ffeFutureTypes001', version: '2.9.0' }, future);
    insertV2Session(db, { ...NATIVE.session, id: 'ses_2e0000000ffeEmptySession01', version: '2.0.12' }, []);
    insertV2Session(db, NATIVE.session, NATIVE.messages);
    db.close();
    const summary = await ingestPaths(tempDbPath(dir), [file]);
    expect(summary.errors).toEqual([]);
    expect(summary.unknown_records).toBe(12);
    expect(summary.warnings).toEqual([
      { file, agent: 'opencode', version: '2.9.0', reason: 'session ses_2e0000000ffeFutureTypes001: no messages read from 12 records (message:hologram-switched 12)' },
      { file, agent: 'opencode', version: '2.9.0', reason: 'session ses_2e0000000ffeFutureTypes001: 12 of 12 records are of kinds retrace does not know: message:hologram-switched 12' },
    ]);
  });
});
