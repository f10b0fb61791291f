import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decompress } from 'fzstd';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IngestSummary } from '../../../src/store/ingest-pipeline.js';
import { ingestPaths, queryStore } from '../../helpers/ingest.js';
import { tempDbPath, tempDir } from '../../helpers/temp.js';
import { CODEX_C, CODEX_D_LEGACY, CODEX_E_ZST, FIXTURES, expectedSessions, storedCounts } from '../agent-fixtures.js';

const dir = tempDir();
const C = '019cdc2c-b578-75be-8b9e-001e204112ed';

describe('Codex fixtures', () => {
  const dbPath = tempDbPath(dir);
  let summary: IngestSummary;
  beforeAll(async () => {
    summary = await ingestPaths(dbPath, [join(FIXTURES, 'codex', 'sessions')]);
  });

  it('ingest every rollout without a problem, the zstd one included', () => {
    expect(summary.errors).toEqual([]);
    expect([summary.sources, summary.sessions, summary.unknown_records]).toEqual([4, 4, 0]);
  });

  for (const expected of expectedSessions('codex')) {
    it(`${expected.storeId}: the counts test/fixtures/README.md states`, async () => {
      expect(await storedCounts(dbPath, expected.storeId, 'codex')).toEqual(expected.counts);
      const session = await queryStore(dbPath, (db) => db.all(`SELECT agent, parent_id FROM sessions WHERE id = ?`, [expected.storeId]));
      expect(session).toEqual([{ agent: 'codex', parent_id: expected.parentId }]);
    });
  }

  it('reads exit codes, timeouts and durations from each output style', async () => {
    const rows = await queryStore(dbPath, (db) =>
      db.all(`SELECT call_id, tool, status, exit_code, timed_out, duration_ms, command IS NOT NULL AS has_command FROM tool_calls
              WHERE call_id IN ('call_Xj3jsQ2jLUxLr8rQXnMKC86h', 'call_QijVdLEfPITlFaX7fGKeuO2w', 'call_EZdL2t5QijcP1j87kbKKNabn',
                                'call_2IbDT1BQGRHzfk9Xg7ojfTA9', 'call_tHJRcMvrOfNFDqr2u16fayG6') ORDER BY call_id`),
    );
    // Durations are the tool's own measure (`duration_seconds`, `Wall time:`), not the span of the
    // call and output lines, which also holds the model's streaming and any wait before the run.
    expect(rows).toEqual([
      { call_id: 'call_2IbDT1BQGRHzfk9Xg7ojfTA9', tool: 'apply_patch', status: 'completed', exit_code: 0, timed_out: false, duration_ms: 0, has_command: false },
      // The gpu-b pull killed at its 300 s limit: exit 124 as Codex records it.
      { call_id: 'call_EZdL2t5QijcP1j87kbKKNabn', tool: 'shell', status: 'completed', exit_code: 124, timed_out: true, duration_ms: 300000, has_command: true },
      { call_id: 'call_QijVdLEfPITlFaX7fGKeuO2w', tool: 'shell', status: 'completed', exit_code: 1, timed_out: false, duration_ms: 48300, has_command: true },
      { call_id: 'call_Xj3jsQ2jLUxLr8rQXnMKC86h', tool: 'local_shell', status: 'completed', exit_code: 0, timed_out: false, duration_ms: 1900, has_command: true },
      // Legacy lines have no timestamps: the duration is the one the output reports.
      { call_id: 'call_tHJRcMvrOfNFDqr2u16fayG6', tool: 'shell', status: 'completed', exit_code: 1, timed_out: false, duration_ms: 1400, has_command: true },
    ]);
  });

  it('finishes an exec_command that was still running with the write_stdin poll that saw it exit', async () => {
    const rows = await queryStore(dbPath, (db) =>
      db.all(`SELECT call_id, tool, status, exit_code, duration_ms, output LIKE '%health 200%' AS healthy, command IS NOT NULL AS has_command,
                     extra->>'completedBy' AS completed_by, extra->>'completes' AS completes
              FROM tool_calls WHERE call_id IN ('call_Xe9zsdqgDqw3CScrVE1iUCaB', 'call_ZM8BkRxPegxZT3icMcVq2buq') ORDER BY call_id`),
    );
    // The process ran from its first output less that output's wall time (10.0021 s), not from the
    // call's line, to the poll that saw it exit; the poll itself took its own wall time.
    expect(rows).toEqual([
      { call_id: 'call_Xe9zsdqgDqw3CScrVE1iUCaB', tool: 'exec_command', status: 'completed', exit_code: 0, duration_ms: 198866, healthy: true, has_command: true, completed_by: 'call_ZM8BkRxPegxZT3icMcVq2buq', completes: null },
      { call_id: 'call_ZM8BkRxPegxZT3icMcVq2buq', tool: 'write_stdin', status: 'completed', exit_code: null, duration_ms: 187200, healthy: true, has_command: false, completed_by: null, completes: 'call_Xe9zsdqgDqw3CScrVE1iUCaB' },
    ]);
  });

  it('takes each message’s model from its turn_context and its tokens from the token_count after it', async () => {
    const models = await queryStore(dbPath, (db) =>
      db.all(`SELECT model, count(*)::INTEGER AS n FROM messages WHERE session_id = ? AND role = 'assistant' GROUP BY model ORDER BY model`, [C]),
    );
    expect(models).toEqual([
      { model: 'codex-mini-latest', n: 2 },
      { model: 'gpt-5.1-codex', n: 6 },
      { model: 'gpt-5.2-codex', n: 8 },
    ]);
    const first = await queryStore(dbPath, (db) =>
      db.all(`SELECT tokens_input, tokens_cache_read, tokens_output, tokens_reasoning FROM messages WHERE session_id = ? AND id = 'line-14'`, [C]),
    );
    // last_token_usage {input 10601 (9856 cached), output 188, reasoning 64}: input is stored without the cached part.
    expect(first).toEqual([{ tokens_input: 745, tokens_cache_read: 9856, tokens_output: 188, tokens_reasoning: 64 }]);
  });

  it('links the spawn_agent call to the child thread it started', async () => {
    const rows = await queryStore(dbPath, (db) =>
      db.all(`SELECT c.extra->>'childSessionId' AS child, s.parent_id FROM tool_calls c JOIN sessions s ON s.id = (c.extra->>'childSessionId') WHERE c.tool = 'spawn_agent'`),
    );
    expect(rows).toEqual([{ child: '019cdc47-3b0f-72ff-ae00-524767c862ca', parent_id: C }]);
  });

  it('ingests a .jsonl.zst rollout to the same rows as its decompressed copy', async () => {
    const plain = join(dir, 'rollout-2026-03-12T08-05-51-019ce114-a1f2-7011-ada0-35d9c733931e.jsonl');
    writeFileSync(plain, decompress(readFileSync(CODEX_E_ZST)));
    const [zstDb, plainDb] = [tempDbPath(dir), tempDbPath(dir)];
    await ingestPaths(zstDb, [CODEX_E_ZST]);
    await ingestPaths(plainDb, [plain]);
    const rows = (db: string) =>
      queryStore(db, async (store) => ({
        sessions: await store.all(`SELECT id, agent, title, directory, started_at, ended_at, model, extra FROM sessions`),
        messages: await store.all(`SELECT * FROM messages ORDER BY ordinal`),
        calls: await store.all(`SELECT * FROM tool_calls ORDER BY ordinal`),
      }));
    const fromZst = await rows(zstDb);
    expect(fromZst.calls).toHaveLength(1);
    expect(fromZst).toEqual(await rows(plainDb));
    const appendable = await queryStore(zstDb, (db) => db.all(`SELECT bytes_consumed FROM sources`));
    expect(appendable).toEqual([{ bytes_consumed: null }]);
  });

  it('tells the format by content: rollouts renamed to x.jsonl (and a zstd one) are still Codex', async () => {
    for (const [source, name] of [[CODEX_C, 'x.jsonl'], [CODEX_D_LEGACY, 'y.jsonl'], [CODEX_E_ZST, 'z.jsonl']] as const) {
      const renamed = join(dir, name);
      copyFileSync(source, renamed);
      const db = tempDbPath(dir);
      const result = await ingestPaths(db, [renamed]);
      expect(result.errors).toEqual([]);
      const rows = await queryStore(db, (store) => store.all(`SELECT DISTINCT s.agent, src.format FROM sessions s JOIN sources src ON src.key = s.source`));
      expect(rows).toEqual([{ agent: 'codex', format: 'codex-jsonl' }]);
    }
  });
});
