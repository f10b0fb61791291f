import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IngestSummary } from '../../../src/store/ingest-pipeline.js';
import { ingestPaths, queryStore } from '../../helpers/ingest.js';
import { tempDbPath, tempDir } from '../../helpers/temp.js';
import { FIXTURES } from '../agent-fixtures.js';

/**
 * Claude Code 2.1 shapes retrace read wrongly or not at all (issue 11, point 4). The fixtures
 * (test/fixtures/claude/drift/, built by scripts/build-drift-fixtures.ts) follow the shapes of
 * real transcripts quoted in public readers and viewers, as their README says for each.
 */
const PROJECT = join(FIXTURES, 'claude', 'drift', 'projects', '-home-dev-shop');
const SESSION = '7c0ffee0-2222-4aaa-8bbb-000000000001';
const MAIN = join(PROJECT, `${SESSION}.jsonl`);
const ASIDE = `${SESSION}:aside_question-5c1e9a7b3d2f4e60`;
const EXPLORE = `${SESSION}:a3f9c2e81b7d4a605`;
const FUTURE = join(FIXTURES, 'claude', 'drift', 'future', '-home-dev-shop', '0fe70000-3333-4ccc-8ddd-000000000300.jsonl');

const dir = tempDir();

describe('Claude Code 2.1 drift, from one session file', () => {
  const dbPath = tempDbPath(dir);
  let summary: IngestSummary;
  beforeAll(async () => {
    summary = await ingestPaths(dbPath, [MAIN]);
  });

  const call = async (callId: string) =>
    (await queryStore(dbPath, (db) =>
      db.all(`SELECT tool, status, exit_code, truncated, output, title, extra->>'persistedOutput' AS whole_from, extra->>'runBy' AS run_by
              FROM tool_calls WHERE call_id = ?`, [callId]),
    ))[0];

  it('reads the session and its <session>/subagents/ folder, with no problem and no warning', async () => {
    expect(summary.errors).toEqual([]);
    expect(summary.warnings).toEqual([]);
    expect([summary.sources, summary.sessions]).toEqual([3, 3]);
    const sessions = await queryStore(dbPath, (db) => db.all(`SELECT id, parent_id FROM sessions ORDER BY id`));
    expect(sessions).toEqual([
      { id: SESSION, parent_id: null },
      { id: EXPLORE, parent_id: SESSION },
      { id: ASIDE, parent_id: SESSION },
    ]);
  });

  it('keeps the whole of a persisted output from the file beside the session', async () => {
    const whole = readFileSync(join(PROJECT, SESSION, 'tool-results', 'b7k2m9xq1.txt'), 'utf8');
    expect(await call('toolu_01Build')).toMatchObject({ status: 'completed', exit_code: 2, truncated: false, output: whole, whole_from: 'tool-results' });
  });

  it('keeps the whole of a persisted output the line holds in toolUseResult.stdout', async () => {
    const tests = await call('toolu_01Tests');
    expect(tests).toMatchObject({ exit_code: 0, truncated: false, whole_from: 'toolUseResult' });
    expect(String(tests?.output).split('\n')).toHaveLength(126);
    expect(tests?.output).toContain('Tests  120 passed (120)');
  });

  it('keeps the preview of a persisted output found in neither, marked truncated', async () => {
    const grep = await call('toolu_01Grep');
    expect(grep).toMatchObject({ truncated: true, whole_from: null });
    expect(grep?.output).toContain('<persisted-output>');
  });

  it('makes provider-run server_tool_use blocks tool calls, completed by their result blocks', async () => {
    expect(await call('srvtoolu_01Search')).toMatchObject({
      tool: 'web_search', status: 'completed', title: 'vite 6 tsc TS2322 build', run_by: 'provider',
      output: 'Vite 6 migration guide — https://vite.dev/guide/migration\nTS2322 explained — https://example.com/ts2322',
    });
    expect(await call('srvtoolu_01Fetch')).toMatchObject({ tool: 'web_fetch', status: 'error', output: 'error: url_not_accessible' });
    const tools = await queryStore(dbPath, (db) => db.all(`SELECT tool, count(*)::INTEGER AS n FROM tool_calls WHERE session_id = ? GROUP BY tool ORDER BY tool`, [SESSION]));
    expect(tools).toEqual([{ tool: 'Bash', n: 2 }, { tool: 'Grep', n: 1 }, { tool: 'web_fetch', n: 1 }, { tool: 'web_search', n: 1 }]);
  });

  it('keeps the compaction boundary as an event before the summary it continues from', async () => {
    const messages = await queryStore(dbPath, (db) => db.all(`SELECT role, text, extra->>'kind' AS kind FROM messages WHERE session_id = ? ORDER BY ordinal`, [SESSION]));
    const at = messages.findIndex((message) => message.role === 'compaction');
    expect(messages[at]).toEqual({ role: 'compaction', text: 'Context compacted (auto, 155,432 tokens before)', kind: 'compact_boundary' });
    expect(messages[at + 1]).toMatchObject({ role: 'system', kind: 'compact_summary' });
  });

  it('titles the session with the request after the IDE preamble', async () => {
    const title = await queryStore(dbPath, (db) => db.scalar(`SELECT title FROM sessions WHERE id = ?`, [SESSION]));
    expect(title).toBe('The cart build fails. Find out why and fix it.');
  });

  it('stores a side-question fork without the parent records it replays', async () => {
    const rows = await queryStore(dbPath, (db) =>
      db.all(`SELECT role, text FROM messages WHERE session_id = ? ORDER BY ordinal`, [ASIDE]),
    );
    expect(rows).toEqual([
      { role: 'user', text: 'btw, what does TS2322 mean?' },
      { role: 'assistant', text: 'TS2322: a value of one type is assigned where another type is expected.' },
    ]);
    const counts = await queryStore(dbPath, (db) =>
      db.all(`SELECT (SELECT count(*) FROM tool_calls WHERE session_id = ?)::INTEGER AS calls,
                     (SELECT count(*) FROM tool_calls WHERE call_id = 'toolu_01Build')::INTEGER AS build_copies,
                     (SELECT (extra->>'replayedParentRecords')::INTEGER FROM sessions WHERE id = ?) AS replayed`, [ASIDE, ASIDE]),
    );
    expect(counts).toEqual([{ calls: 0, build_copies: 1, replayed: 7 }]);
  });

  it('reads an ordinary subagent beside it as before', async () => {
    const explore = await queryStore(dbPath, (db) =>
      db.all(`SELECT title, message_count, tool_call_count FROM sessions WHERE id = ?`, [EXPLORE]),
    );
    expect(explore).toEqual([{ title: 'Find reads of cart.total', message_count: 3, tool_call_count: 1 }]);
  });
});

describe('loud on drift', () => {
  it('warns of a transcript that yields no message and is all unknown records, with its version', async () => {
    const summary = await ingestPaths(tempDbPath(dir), [FUTURE]);
    expect(summary.errors).toEqual([]);
    expect(summary.warnings).toEqual([
      { file: FUTURE, agent: 'claude', version: '2.3.0', reason: 'no messages read from 8 records (line:reply 4, line:turn 4)' },
      { file: FUTURE, agent: 'claude', version: '2.3.0', reason: '8 of 8 records are of kinds retrace does not know: line:reply 4, line:turn 4' },
    ]);
  });
});
