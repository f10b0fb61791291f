import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { decompress } from 'fzstd';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IngestSummary } from '../../../src/store/ingest-pipeline.js';
import { ingestPaths, queryStore } from '../../helpers/ingest.js';
import { tempDbPath, tempDir } from '../../helpers/temp.js';
import { CODEX_E_ZST, FIXTURES } from '../agent-fixtures.js';

/**
 * Codex rollouts of the versions retrace read wrongly or not at all (issue 11, point 3). The
 * fixtures (test/fixtures/codex/drift/, built by scripts/build-drift-fixtures.ts) are written the
 * way codex-rs writes each shape; their README names the source file of every shape.
 */
const DRIFT = join(FIXTURES, 'codex', 'drift');
const V0118 = join(DRIFT, 'sessions/2026/04/14/rollout-2026-04-14T11-00-00-019d8a10-0118-7000-8000-00000000a118.jsonl');
const V0042 = join(DRIFT, 'sessions/2025/10/02/rollout-2025-10-02T16-30-00-0199a3f0-0042-7000-8000-0000000a0042.jsonl');
const CURRENT = join(DRIFT, 'sessions/2026/09/21/rollout-2026-09-21T09-45-00-019e2b40-0141-7000-8000-0000000c0141.jsonl');
const FUTURE = join(DRIFT, 'future/rollout-2027-01-05T11-00-00-019f0000-0150-7000-8000-0000000f0150.jsonl');

const dir = tempDir();

async function ingestOne(file: string): Promise<{ dbPath: string; summary: IngestSummary }> {
  const dbPath = tempDbPath(dir);
  return { dbPath, summary: await ingestPaths(dbPath, [file]) };
}

describe('Codex 0.118: unified exec with a `Command:` header and exec_command_end events', () => {
  let dbPath: string;
  let summary: IngestSummary;
  beforeAll(async () => ({ dbPath, summary } = await ingestOne(V0118)));

  const calls = () =>
    queryStore(dbPath, (db) =>
      db.all(`SELECT call_id, tool, status, command, exit_code, duration_ms, output, extra->>'shellCommand' AS shell,
                     (extra->>'approvalWaitMs')::INTEGER AS approval_wait, extra->>'completedBy' AS completed_by,
                     extra->>'completes' AS completes, extra->>'polls' AS polls
              FROM tool_calls ORDER BY ordinal`),
    );

  it('reads every line as a known kind, with no problem and no warning', () => {
    expect(summary.errors).toEqual([]);
    expect(summary.unknown_records).toBe(0);
    expect(summary.warnings).toEqual([]);
  });

  it('takes the exit code and run time from exec_command_end when the output has no exit line', async () => {
    const build = (await calls()).find((call) => call.call_id === 'call_build');
    expect(build).toMatchObject({
      tool: 'exec_command', status: 'completed', command: 'pnpm build', exit_code: 2, duration_ms: 8412, shell: "/bin/bash -lc 'pnpm build'",
    });
    // The header is not part of what the command printed.
    expect(build?.output).toBe("src/cart.ts(12,7): error TS2322: Type 'string' is not assignable to type 'number'.\n");
  });

  it('takes stdout from an exec_command_end that comes after an output holding none', async () => {
    const status = (await calls()).find((call) => call.call_id === 'call_status');
    expect(status).toMatchObject({ exit_code: 0, duration_ms: 61, output: ' M src/cart.ts\n' });
  });

  it('times a command that waited for approval by its Wall time, and keeps the wait apart', async () => {
    const test = (await calls()).find((call) => call.call_id === 'call_test');
    // 93.6 s from the call's line to its output's: 90.4 s of it the user's approval, 3.2 s the run.
    expect(test).toMatchObject({ exit_code: 0, duration_ms: 3200, approval_wait: 90_400 });
  });

  it('keeps joining a running process across a write_stdin that failed on its closed stdin', async () => {
    const byId = new Map((await calls()).map((call) => [call.call_id, call]));
    expect(byId.get('call_quit')).toMatchObject({ tool: 'write_stdin', status: 'error', exit_code: null, completes: null, polls: 'call_dev' });
    // The dev server ran from its first output less that output's 5.001 s wall time to the poll that saw it exit.
    expect(byId.get('call_dev')).toMatchObject({ status: 'completed', exit_code: 0, completed_by: 'call_wait', duration_ms: 38_251 });
    expect(byId.get('call_dev')?.output).toContain('server stopped');
    expect(byId.get('call_wait')).toMatchObject({ exit_code: null, completes: 'call_dev' });
  });

  it('titles the session with the request, not the IDE context before it', async () => {
    const session = await queryStore(dbPath, (db) => db.all(`SELECT title, extra->>'cliVersion' AS version FROM sessions`));
    expect(session).toEqual([{ title: 'Why does the cart build fail? Fix it and run the tests.', version: '0.118.0' }]);
    const roles = await queryStore(dbPath, (db) => db.all(`SELECT role, count(*)::INTEGER AS n FROM messages GROUP BY role ORDER BY role`));
    // AGENTS.md, <environment_context> and the developer message are context, not prompts; each of
    // the model's 8 responses (a call, or the final answer) is one assistant message.
    expect(roles).toEqual([{ role: 'assistant', n: 8 }, { role: 'system', n: 3 }, { role: 'user', n: 1 }]);
  });
});

describe('Codex 0.40/0.42: a call and its output under one timestamp', () => {
  it('times the command by metadata.duration_seconds', async () => {
    const { dbPath, summary } = await ingestOne(V0042);
    expect(summary.errors).toEqual([]);
    const calls = await queryStore(dbPath, (db) => db.all(`SELECT call_id, exit_code, duration_ms, started_at = ended_at AS one_stamp FROM tool_calls`));
    expect(calls).toEqual([{ call_id: 'call_install', exit_code: 0, duration_ms: 41_300, one_stamp: true }]);
  });
});

describe('current Codex: every line type of codex-rs is known', () => {
  it('passes over world_state, token_usage_record and the rest, and keeps the compaction as an event', async () => {
    const { dbPath, summary } = await ingestOne(CURRENT);
    expect(summary.errors).toEqual([]);
    expect(summary.unknown_records).toBe(0);
    expect(summary.warnings).toEqual([]);
    const messages = await queryStore(dbPath, (db) => db.all(`SELECT role, text FROM messages ORDER BY ordinal`));
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'compaction', 'assistant']);
    // One boundary for the `compacted` line and the `context_compacted` event that follows it.
    expect(messages[2]?.text).toBe('Context compacted\n\nSummary: the user asked to bump vite to 6.3; it is bumped and the build passes.');
    const call = await queryStore(dbPath, (db) => db.all(`SELECT exit_code, duration_ms FROM tool_calls`));
    expect(call).toEqual([{ exit_code: 0, duration_ms: 14_200 }]);
  });
});

describe('loud on drift', () => {
  it('warns of a rollout that yields no message, and of one whose records are mostly unknown, with its cli_version', async () => {
    const { summary } = await ingestOne(FUTURE);
    expect(summary.errors).toEqual([]);
    expect(summary.warnings).toEqual([
      { file: FUTURE, agent: 'codex', version: '0.150.0', reason: 'no messages read from 9 records (line:conversation_item 6, line:turn_frame 3)' },
      { file: FUTURE, agent: 'codex', version: '0.150.0', reason: '9 of 9 records are of kinds retrace does not know: line:conversation_item 6, line:turn_frame 3' },
    ]);
  });

  it('reads a rollout and its .jsonl.zst twin once, and says which one it left', async () => {
    const folder = join(dir, 'twins');
    mkdirSync(folder, { recursive: true });
    const zst = join(folder, basename(CODEX_E_ZST));
    copyFileSync(CODEX_E_ZST, zst);
    const plain = zst.replace(/\.zst$/, '');
    writeFileSync(plain, Buffer.from(decompress(readFileSync(CODEX_E_ZST))));
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [folder]);
    expect([summary.sources, summary.sessions, summary.errors]).toEqual([1, 1, []]);
    expect(summary.warnings).toEqual([
      { file: zst, agent: 'codex', version: '0.112.0', reason: `same session as ${plain} (its uncompressed twin): read once, from that file` },
    ]);
    const sources = await queryStore(dbPath, (db) => db.all(`SELECT path FROM sources`));
    expect(sources).toEqual([{ path: plain }]);
  });
});
