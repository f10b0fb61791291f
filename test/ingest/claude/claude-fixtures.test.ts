import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestPaths, queryStore } from '../../helpers/ingest.js';
import { tempDbPath, tempDir } from '../../helpers/temp.js';
import type { IngestSummary } from '../../../src/store/ingest-pipeline.js';
import { CLAUDE_A, CLAUDE_PROJECT, expectedSessions, storedCounts } from '../agent-fixtures.js';

const dir = tempDir();
const A = 'd96690bf-84e5-4021-84e4-48dbd0b8dfa3';
const B = '9572fbe8-2f61-4b6b-98a6-d20b6e222bae';

describe('Claude Code fixtures', () => {
  const dbPath = tempDbPath(dir);
  let summary: IngestSummary;
  beforeAll(async () => {
    summary = await ingestPaths(dbPath, [CLAUDE_PROJECT]);
  });

  it('ingest every file without a problem: 2 sessions and 2 subagent sessions', () => {
    expect(summary.errors).toEqual([]);
    expect(summary.failed_sources).toBe(0);
    expect(summary.sources).toBe(4);
    expect(summary.sessions).toBe(4);
  });

  for (const expected of expectedSessions('claude')) {
    it(`${expected.storeId}: the counts test/fixtures/README.md states`, async () => {
      expect(await storedCounts(dbPath, expected.storeId, 'claude')).toEqual(expected.counts);
      const session = await queryStore(dbPath, (db) => db.all(`SELECT agent, parent_id FROM sessions WHERE id = ?`, [expected.storeId]));
      expect(session).toEqual([{ agent: 'claude', parent_id: expected.parentId }]);
    });
  }

  it('keeps every line type it does not model, counted by type', async () => {
    const rows = await queryStore(dbPath, (db) =>
      db.all(`SELECT what, count(*)::INTEGER AS n FROM unknown_records WHERE session_id = ? GROUP BY what ORDER BY what`, [A]),
    );
    expect(rows).toEqual([
      { what: 'line:file-history-snapshot', n: 1 },
      { what: 'line:last-prompt', n: 1 },
      { what: 'line:progress', n: 15 },
      { what: 'line:queue-operation', n: 2 },
      { what: 'line:system', n: 1 },
    ]);
  });

  it('reads exit codes, timeouts, durations and commands the way opencode records them', async () => {
    const calls = await queryStore(dbPath, (db) =>
      db.all(
        `SELECT call_id, tool, status, exit_code, timed_out, duration_ms, command IS NOT NULL AS has_command, title
         FROM tool_calls WHERE call_id IN (?, ?, ?, ?, ?) ORDER BY call_id`,
        ['toolu_01l2m0F4MmDTz6SW3SituWva', 'toolu_01Lsa0DgPoDJN0H6URHbd6z6', 'toolu_014XQ6IsRqZXfSv5xDRrCL61', 'toolu_01xuJPCQ0tJD2KCQbvp0MzRU', 'toolu_019iJ31FSg3tZHtNev4ZTDwz'],
      ),
    );
    expect(calls).toEqual([
      // The timed-out download: no exit code, 120.4 s from tool_use to tool_result.
      { call_id: 'toolu_014XQ6IsRqZXfSv5xDRrCL61', tool: 'Bash', status: 'completed', exit_code: null, timed_out: true, duration_ms: 120412, has_command: true, title: expect.any(String) },
      { call_id: 'toolu_019iJ31FSg3tZHtNev4ZTDwz', tool: 'Task', status: 'completed', exit_code: null, timed_out: false, duration_ms: 21022, has_command: false, title: expect.any(String) },
      { call_id: 'toolu_01Lsa0DgPoDJN0H6URHbd6z6', tool: 'Bash', status: 'completed', exit_code: 1, timed_out: false, duration_ms: 2951, has_command: true, title: 'Pull upstream vLLM v0.10.1 image' },
      { call_id: 'toolu_01l2m0F4MmDTz6SW3SituWva', tool: 'Bash', status: 'completed', exit_code: 0, timed_out: false, duration_ms: 2424, has_command: true, title: expect.any(String) },
      { call_id: 'toolu_01xuJPCQ0tJD2KCQbvp0MzRU', tool: 'WebSearch', status: 'completed', exit_code: null, timed_out: false, duration_ms: 9847, has_command: false, title: null },
    ]);
  });

  it('links a Task call to the subagent session it spawned', async () => {
    const rows = await queryStore(dbPath, (db) =>
      db.all(`SELECT extra->>'childSessionId' AS child FROM tool_calls WHERE call_id = 'toolu_019iJ31FSg3tZHtNev4ZTDwz'`),
    );
    expect(rows).toEqual([{ child: `${A}:a1fa2b2b182f4b48c` }]);
    const child = await queryStore(dbPath, (db) => db.all(`SELECT id FROM sessions WHERE id = ?`, [String(rows[0]?.['child'])]));
    expect(child).toHaveLength(1);
  });

  it('counts tokens once per message id, though every line of a response repeats its usage', async () => {
    const rows = await queryStore(dbPath, (db) =>
      db.all(`SELECT tokens_input, tokens_output, tokens_cache_read, tokens_cache_write, text, reasoning <> '' AS reasoned
              FROM messages WHERE id = 'msg_01G0ctNqKyBxHd3fN8gezQC9'`),
    );
    expect(rows).toEqual([
      { tokens_input: 4, tokens_output: 642, tokens_cache_read: 12306, tokens_cache_write: 21877, text: expect.stringContaining('quick survey'), reasoned: true },
    ]);
  });

  it('titles sessions from ai-title over summary, and from the first prompt when they have none', async () => {
    const rows = await queryStore(dbPath, (db) => db.all(`SELECT id, title FROM sessions WHERE id IN (?, ?) ORDER BY id`, [B, A]));
    expect(rows).toEqual([
      { id: B, title: expect.stringMatching(/^Before we deploy anything: is there an arm64 vLLM image/) },
      { id: A, title: 'Deploy gpt-oss-120b on DGX Spark with NGC vLLM' },
    ]);
  });

  it('tells the format by content: a transcript renamed to x.jsonl is still Claude Code', async () => {
    const renamed = join(dir, 'x.jsonl');
    copyFileSync(CLAUDE_A, renamed);
    const db = tempDbPath(dir);
    const result = await ingestPaths(db, [renamed]);
    expect(result.errors).toEqual([]);
    const rows = await queryStore(db, (store) => store.all(`SELECT s.id, s.agent, src.format FROM sessions s JOIN sources src ON src.key = s.source`));
    expect(rows).toEqual([{ id: A, agent: 'claude', format: 'claude-jsonl' }]);
  });
});
