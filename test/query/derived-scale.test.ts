import { beforeAll, describe, expect, it } from 'vitest';
import { resolveSession } from '../../src/query/session-queries.js';
import { staleSessions } from '../../src/query/derive.js';
import { attemptTimings } from '../../src/query/timings.js';
import { loadTree } from '../../src/query/tree/queries.js';
import { whyCandidate } from '../../src/query/why.js';
import { Database } from '../../src/store/database.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { ingestDerived } from './helpers/derived-store.js';

/**
 * `tree`, `why` and `timings` read only the asked session's derived rows: on a store whose
 * derived tables hold a million actions (20,000 sessions × 50 tool calls), each still answers
 * with the asked session's rows alone. How fast they answer is measured by `npm run bench`
 * (bench/queries/), not here: a time limit in a unit test fails on a busy machine, not on a bug.
 */
const SESSIONS = 20_000;
const CALLS = 50;
const db = tempDbPath(tempDir());
const sessionIdOf = (expr: string): string => `'syn_' || lpad((${expr})::VARCHAR, 6, '0')`;

beforeAll(async () => {
  await ingestDerived(db, [SESSIONS_DIR]);
  const store = await Database.open(db);
  try {
    await store.run(`INSERT INTO sessions (id, agent, title, message_count, tool_call_count)
      SELECT ${sessionIdOf('i')}, 'opencode', 'synthetic ' || i, ${CALLS}, ${CALLS} FROM range(${SESSIONS}) t(i)`);
    await store.run(`INSERT INTO actions (session_id, call_id, message_ordinal, seq, kind, rule, subject, image, host, started_at,
        duration_ms, outcome, evidence, command, superseded, candidate)
      SELECT ${sessionIdOf(`i // ${CALLS}`)}, 'c' || i, i % ${CALLS} + 1, i % ${CALLS},
        CASE i % 3 WHEN 0 THEN 'pull' WHEN 1 THEN 'probe' ELSE 'inspect' END, 'image-pull', 'org/image:' || (i % 7),
        'org/image:' || (i % 7), 'host', now()::TIMESTAMP, 1000 + i % 977, 'ok', 'Status: Downloaded newer image', 'docker pull org/image',
        false, 'org/image:' || (i % 7)
      FROM range(${SESSIONS * CALLS}) t(i)`);
    await store.run(`INSERT INTO candidates SELECT ${sessionIdOf('i // 7')}, i % 7, 'org/image:' || (i % 7), 'image', NULL, NULL, 'rejected',
        'synthetic', 1, 2, '[{"message_ordinal":1,"call_id":"c1","kind":"pull","outcome":"ok","decisive":true}]', '[]', NULL, NULL
      FROM range(${SESSIONS * 7}) t(i)`);
    await store.run(`INSERT INTO pivots SELECT ${sessionIdOf('i // 6')}, i % 6, 'a', 'b', 1, 'r', 'image' FROM range(${SESSIONS * 6}) t(i)`);
    await store.run(`INSERT INTO trees SELECT ${sessionIdOf('i')}, 'goal', 1, 7, 6, 1, now()::TIMESTAMP FROM range(${SESSIONS}) t(i)`);
    await store.run('CHECKPOINT');
  } finally {
    store.close();
  }
}, 180_000);

describe('queries on a store with a million derived actions', () => {
  it('resolve + staleness + tree, why, timings answer with the asked session only', async () => {
    const store = await Database.open(db, { readOnly: true });
    try {
      const actions = Number(await store.scalar('SELECT count(*) FROM actions'));
      expect(actions).toBeGreaterThanOrEqual(SESSIONS * CALLS);
      const session = await resolveSession(store, 'qwen');
      expect(await staleSessions(store, [session.id])).toEqual([]);
      const tree = await loadTree(store, session.id);
      expect(tree?.candidates).toHaveLength(7);
      expect(await whyCandidate(store, 'scitrera')).toHaveLength(1);
      const timings = await attemptTimings(store, { kind: 'pull', sessionId: 'ses_365d176c7ffeX5TaQTV86dNCf0' });
      expect(timings.length).toBeGreaterThanOrEqual(4);
      expect(timings.every((row) => row.session === 'ses_365d176c7ffeX5TaQTV86dNCf0')).toBe(true);
    } finally {
      store.close();
    }
  });

  it('timings with a limit gives the first rows of the whole store, whichever session the limit ends in', async () => {
    const store = await Database.open(db, { readOnly: true });
    try {
      const whole = await attemptTimings(store, { kind: 'probe' });
      expect(whole.length).toBeGreaterThan(SESSIONS * 10);
      for (const limit of [1, 16, 17, 33, 34, 1001]) {
        const first = await attemptTimings(store, { kind: 'probe', limit });
        expect(first.map((row) => `${row.session}/${row.call_id}/${row.attempt}`)).toEqual(
          whole.slice(0, limit).map((row) => `${row.session}/${row.call_id}/${row.attempt}`),
        );
      }
      const more = await attemptTimings(store, { kind: 'all', limit: whole.length * 3 });
      expect(more.length).toBe(Number(await store.scalar(`SELECT count(*) FROM actions WHERE kind IN ('pull', 'download', 'probe') AND NOT coalesce(superseded, false)`)));
    } finally {
      store.close();
    }
  });
});
