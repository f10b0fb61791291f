import { loadTree } from '../../src/query/tree/queries.js';
import { attemptTimings } from '../../src/query/timings.js';
import { whyCandidate } from '../../src/query/why.js';
import { Database } from '../../src/store/database.js';
import { emitResult } from '../lib/child.js';
import { median } from '../lib/stats.js';

const TIMINGS_SHOWN = 1000;

/**
 * `node query-child.js DB SESSION CANDIDATE [REPEATS]`: the query functions behind `retrace tree`,
 * `why` and `timings`, in-process on an open store: the first call (cold caches) and the median
 * of the repeats after it.
 */
export interface QueryTiming {
  firstMs: number;
  warmMs: number;
  rows: number;
}

export interface QueryChildResult {
  openMs: number;
  tree: QueryTiming;
  why: QueryTiming;
  timings: QueryTiming;
}

const [dbPath, sessionId, candidate, repeatsText = '5'] = process.argv.slice(2);
if (!dbPath || !sessionId || !candidate) throw new Error('usage: query-child.js DB SESSION CANDIDATE [REPEATS]');
const repeats = Number(repeatsText);

async function time(work: () => Promise<number>): Promise<QueryTiming> {
  let t = performance.now();
  const rows = await work();
  const firstMs = performance.now() - t;
  const warm: number[] = [];
  for (let i = 0; i < repeats; i += 1) {
    t = performance.now();
    await work();
    warm.push(performance.now() - t);
  }
  return { firstMs, warmMs: median(warm), rows };
}

const opened = performance.now();
const db = await Database.open(dbPath, { readOnly: true });
const openMs = performance.now() - opened;
try {
  const tree = await time(async () => (await loadTree(db, sessionId))?.candidates.length ?? -1);
  const why = await time(async () => (await whyCandidate(db, candidate)).length);
  // What `retrace timings` reads for its terminal table: the first rows, one more than it shows.
  const timings = await time(async () => (await attemptTimings(db, { kind: 'all', limit: TIMINGS_SHOWN + 1 })).length);
  emitResult({ openMs, tree, why, timings } satisfies QueryChildResult);
} finally {
  db.close();
}
