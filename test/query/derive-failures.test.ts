import { describe, expect, it } from 'vitest';
import { deriveSessions, staleSessions } from '../../src/query/derive.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRuleFolders } from '../../src/query/rules/active.js';
import { Database } from '../../src/store/database.js';
import { DerivedValueError, replaceDerivedRows } from '../../src/store/derived-writer.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { ingestDerived } from './helpers/derived-store.js';

import { BAD, storeWithOneBadSession } from './helpers/bad-session.js';

describe('a session whose tree fails to derive', () => {
  it('is recorded once with its cause, skipped, and retried only when the rules change', async () => {
    const path = await storeWithOneBadSession();
    const db = await Database.open(path);
    try {
      expect(await db.all(`SELECT session_id, cause FROM derive_failures`)).toEqual([{ session_id: BAD, cause: 'a rule threw on this session' }]);
      expect(Number(await db.scalar(`SELECT count(*) FROM trees WHERE session_id = ?`, [BAD]))).toBe(0);
      expect(Number(await db.scalar(`SELECT count(*) FROM trees`))).toBeGreaterThan(0);
      // Not retried on every command: with the same rules it is not stale.
      expect(await staleSessions(db)).toEqual([]);
      // A changed rule set makes every session stale again, the failed one included.
      const rules = join(tempDir(), 'rules');
      mkdirSync(rules);
      writeFileSync(join(rules, 'fooserve.yaml'), 'id: fooserve\nkind: framework\nlabel: FooServe\ndescription: a server nobody has heard of\nnames: [fooserve]\n');
      expect(useRuleFolders([rules])).toEqual([]);
      expect(await staleSessions(db)).toContain(BAD);
      const failures = await deriveSessions(db, [BAD]);
      expect(failures).toEqual([]);
      expect(Number(await db.scalar(`SELECT count(*) FROM derive_failures`))).toBe(0);
      expect(Number(await db.scalar(`SELECT count(*) FROM trees WHERE session_id = ?`, [BAD]))).toBe(1);
    } finally {
      db.close();
    }
  });
});

describe('derived values are checked before they are written', () => {
  it('refuses an Infinity with the table, row and column, and keeps the session as it was', async () => {
    const path = tempDbPath(tempDir());
    await ingestDerived(path, [SESSIONS_DIR]);
    const db = await Database.open(path);
    try {
      const id = String(await db.scalar(`SELECT id FROM sessions LIMIT 1`));
      const before = Number(await db.scalar(`SELECT count(*) FROM candidates WHERE session_id = ?`, [id]));
      const attempt = replaceDerivedRows(db, id, {
        commands: [], pivots: [], candidates: [],
        actions: [{ call_id: 'c1', seq: 0, kind: 'pull', outcome: 'ok', duration_ms: Number.POSITIVE_INFINITY }],
        tree: { goal: null, goal_ordinal: null, candidates: 0, pivots: 0, rules_fingerprint: 'x', derived_at: Date.now() },
      });
      await expect(attempt).rejects.toThrow(DerivedValueError);
      await expect(attempt).rejects.toThrow('actions[0].duration_ms must be a finite number, got Infinity');
      expect(Number(await db.scalar(`SELECT count(*) FROM candidates WHERE session_id = ?`, [id]))).toBe(before);
    } finally {
      db.close();
    }
  });
});
