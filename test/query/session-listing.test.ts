import { afterEach, describe, expect, it } from 'vitest';
import { listSessions } from '../../src/query/session-queries.js';
import { Database } from '../../src/store/database.js';

/** The listing as it was read before it came as one JSON document: rows through `Database.all`. */
async function listedAsRows(db: Database): Promise<unknown[]> {
  const rows = await db.all(
    `SELECT s.id, s.agent, s.title, s.directory, s.started_at, s.ended_at, s.model, s.parent_id, s.message_count, s.tool_call_count, s.machine,
       (SELECT coalesce(src.original_path, src.path) FROM sources src WHERE src.key = s.source AND src.machine IS NOT DISTINCT FROM s.machine LIMIT 1) AS source_path
     FROM sessions s ORDER BY s.started_at NULLS LAST, s.id`,
  );
  return rows.map((row) => ({
    id: row['id'], agent: row['agent'], title: row['title'], directory: row['directory'], started_at: row['started_at'], ended_at: row['ended_at'],
    model: row['model'], parent_id: row['parent_id'], messages: Number(row['message_count'] ?? 0), tool_calls: Number(row['tool_call_count'] ?? 0),
    machine: row['machine'], source_path: row['source_path'],
  }));
}

let db: Database | null = null;
afterEach(async () => {
  await db?.close();
  db = null;
});

async function storeWith(sessions: readonly string[]): Promise<Database> {
  db = await Database.open(':memory:');
  await db.run(`INSERT INTO sources (key, path, format, ingested_at, machine, original_path) VALUES
    ('k1', '/a/one.jsonl', 'claude', TIMESTAMP '2026-01-01', 'vm', '~/.claude/one.jsonl'), ('k1', '/b/one.jsonl', 'claude', TIMESTAMP '2026-01-01', 'laptop', NULL)`);
  for (const values of sessions) {
    await db.run(`INSERT INTO sessions (id, agent, source, parent_id, title, directory, started_at, ended_at, model, message_count, tool_call_count, machine) VALUES ${values}`);
  }
  return db;
}

const ORDINARY = [
  `('b', 'claude', 'k1', NULL, 'Deploy "qwen" \\ on\tspark\n2', '/home/u', TIMESTAMP '2026-02-26 13:41:05.123456', TIMESTAMP '2026-02-26 15:00:00', 'opus', 42, 45, 'vm')`,
  `('a', 'codex', 'k1', 'b', 'ünïcödé 😀 \x1b[31mred', NULL, TIMESTAMP '2026-02-26 13:41:05.123456', NULL, NULL, NULL, NULL, 'laptop')`,
  `('c', 'opencode', 'none', NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, NULL)`,
  `('d', 'claude', NULL, NULL, 'old', NULL, TIMESTAMP '1969-12-31 23:59:59.9995', TIMESTAMP '1900-01-01 00:00:00.0001', NULL, 2147483647, 1, NULL)`,
];

describe('listSessions', () => {
  it('lists what reading the rows lists: order, times to the millisecond, nulls, numbers, text of every kind, the source path', async () => {
    const store = await storeWith(ORDINARY);
    const listed = await listSessions(store);
    expect(listed.map((s) => s.id)).toEqual(['d', 'a', 'b', 'c']);
    expect(listed).toEqual(await listedAsRows(store));
    expect(listed.find((s) => s.id === 'b')?.started_at).toBe('2026-02-26T13:41:05.123Z');
  });

  it('an empty store lists nothing', async () => {
    expect(await listSessions(await storeWith([]))).toEqual([]);
  });

  it('a time no JavaScript Date holds is read as rows, as before', async () => {
    const store = await storeWith([...ORDINARY, `('e', 'claude', NULL, NULL, NULL, NULL, TIMESTAMP '294000-01-01', NULL, NULL, 1, 1, NULL)`]);
    await expect(listedAsRows(store)).rejects.toThrow(/out of range/);
    await expect(listSessions(store)).rejects.toThrow(/out of range/);
  });
});
