import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SourceReadSummary } from '../../src/core/drift.js';
import { DRIFT_THRESHOLDS, warningsFor } from '../../src/ingest/warnings.js';
import { ingestPaths } from '../helpers/ingest.js';
import { createOpencodeDb, insertV2Session, opencodeId } from '../helpers/opencode-db.js';
import { NATIVE, T0 } from '../helpers/opencode-sessions.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir();
const source = (over: Partial<SourceReadSummary>): SourceReadSummary => ({
  file: '/data/opencode.db', session: null, format: 'opencode-sqlite', version: '2.0.12', messages: 40, unknownRecords: 0, unknownByKind: {}, ...over,
});

describe('warningsFor: the drift a source shows', () => {
  it('names a source that yielded no messages, with the agent and the version it states', () => {
    expect(warningsFor(source({ messages: 0, session: 'ses_a' }))).toEqual([
      { file: '/data/opencode.db', agent: 'opencode', version: '2.0.12', reason: 'session ses_a: no messages read' },
    ]);
    expect(warningsFor(source({ messages: 0, format: 'claude-jsonl', version: null, unknownRecords: 3, unknownByKind: { 'line:turn': 3 } }))).toEqual([
      { file: '/data/opencode.db', agent: 'claude', version: null, reason: 'no messages read: all 3 records are of shapes retrace does not know (line:turn 3)' },
    ]);
  });

  it('names unknown records past the threshold, biggest kinds first, and not below it', () => {
    const many = source({ messages: 20, unknownRecords: 12, unknownByKind: { 'message:hologram': 9, 'content:beam': 3 } });
    expect(warningsFor(many).map((w) => w.reason)).toEqual(['12 of 32 records (38%) are of shapes retrace does not know (message:hologram 9, content:beam 3)']);
    expect(warningsFor(source({ messages: 200, unknownRecords: 12, unknownByKind: { 'message:hologram': 12 } }))).toEqual([]);
    expect(warningsFor(source({ messages: 2, unknownRecords: DRIFT_THRESHOLDS.unknownMinimum - 1, unknownByKind: { x: DRIFT_THRESHOLDS.unknownMinimum - 1 } }))).toEqual([]);
  });

  it('leaves out the kinds an adapter keeps raw on purpose', () => {
    const thresholds = { ...DRIFT_THRESHOLDS, expectedKinds: new Set(['line:progress']) };
    expect(warningsFor(source({ messages: 10, unknownRecords: 30, unknownByKind: { 'line:progress': 30 } }), thresholds)).toEqual([]);
  });
});

describe('ingest names drifted opencode sessions in its summary', () => {
  it('a 2.x session of unknown message types, and an empty one, each with its version', async () => {
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
      { file, agent: 'opencode', version: '2.0.12', reason: 'session ses_2e0000000ffeEmptySession01: no messages read' },
      { file, agent: 'opencode', version: '2.9.0', reason: 'session ses_2e0000000ffeFutureTypes001: no messages read: all 12 records are of shapes retrace does not know (message:hologram-switched 12)' },
    ]);
  });
});
