import { rmSync } from 'node:fs';
import { Database } from '../../src/store/database.js';
import { emitResult } from '../lib/child.js';

/**
 * `node build-store-child.js TARGET TOOL_CALLS SOURCE…`: a store holding TOOL_CALLS tool calls,
 * built fast: the sources' rows (real ingests of the corpus, derived tables included) are copied
 * in, then copied again under renamed session ids (`<id>~k`) until the count is reached. Copies
 * keep every column except tool outputs, cut to 512 characters (tree, why and timings never read
 * them; a full copy would write gigabytes for nothing).
 */
export interface BuildStoreResult {
  ms: number;
  copies: number;
  sessions: number;
  messages: number;
  toolCalls: number;
  actions: number;
  candidates: number;
  bytes: number;
  /** The session with the most tool calls (a copy of the longest generated one). */
  largestSession: string;
}

const COPIED_TABLES = ['sessions', 'messages', 'tool_calls', 'commands', 'actions', 'candidates', 'pivots', 'trees'] as const;
type CopiedTable = (typeof COPIED_TABLES)[number];

/** What changes in a copy: the session id everywhere, and the title so copies tell apart. */
const RENAMED: Record<CopiedTable, string> = {
  sessions: `s.id || '~' || r.k AS id, s.parent_id || '~' || r.k AS parent_id, s.title || ' #' || r.k AS title`,
  messages: `s.session_id || '~' || r.k AS session_id`,
  tool_calls: `s.session_id || '~' || r.k AS session_id, left(s.output, 512) AS output`,
  commands: `s.session_id || '~' || r.k AS session_id`,
  actions: `s.session_id || '~' || r.k AS session_id`,
  candidates: `s.session_id || '~' || r.k AS session_id`,
  pivots: `s.session_id || '~' || r.k AS session_id`,
  trees: `s.session_id || '~' || r.k AS session_id`,
};

const [target, wanted, ...sources] = process.argv.slice(2);
if (!target || !wanted || sources.length === 0) throw new Error('usage: build-store-child.js TARGET TOOL_CALLS SOURCE…');
rmSync(target, { force: true });
rmSync(`${target}.wal`, { force: true });
const started = performance.now();
const db = await Database.open(target);
const count = async (table: string): Promise<number> => Number(await db.scalar(`SELECT count(*) FROM ${table}`));
let copies = 0;
try {
  for (const [index, source] of sources.entries()) {
    await db.run(`ATTACH '${source.replace(/'/g, "''")}' AS src${index} (READ_ONLY)`);
    for (const table of COPIED_TABLES) await db.run(`INSERT INTO main.${table} SELECT * FROM src${index}.main.${table}`);
    await db.run(`DETACH src${index}`);
  }
  const base = await count('tool_calls');
  copies = Math.max(0, Math.ceil(Number(wanted) / base) - 1);
  if (copies > 0) {
    for (const table of COPIED_TABLES) {
      await db.run(`INSERT INTO ${table} SELECT s.* REPLACE (${RENAMED[table]}) FROM ${table} s CROSS JOIN range(1, ${copies + 1}) r(k)`);
    }
  }
  await db.run('CHECKPOINT');
  emitResult({
    ms: performance.now() - started,
    copies,
    sessions: await count('sessions'),
    messages: await count('messages'),
    toolCalls: await count('tool_calls'),
    actions: await count('actions'),
    candidates: await count('candidates'),
    bytes: Number(await db.scalar(`SELECT total_blocks * block_size FROM pragma_database_size()`)),
    largestSession: String(await db.scalar(`SELECT session_id FROM tool_calls GROUP BY session_id ORDER BY count(*) DESC, session_id DESC LIMIT 1`)),
  } satisfies BuildStoreResult);
} finally {
  db.close();
}
