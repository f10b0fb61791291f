import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../../src/ingest/claude/index.js';
import { claudePathIds } from '../../../src/ingest/claude/paths.js';
import { ingestPaths, queryStore } from '../../helpers/ingest.js';
import { tempDbPath, tempDir } from '../../helpers/temp.js';

const dir = tempDir();
const SID = '5d1c0de0-0000-4000-8000-000000000001';
const base = { isSidechain: false, userType: 'external', cwd: '/work/demo', sessionId: SID, version: '2.1.19', gitBranch: 'main' };
let clock = Date.parse('2026-03-01T10:00:00.000Z');
const at = (): string => new Date((clock += 1000)).toISOString();

const prompt = (uuid: string, content: string, extra: object = {}) => ({ ...base, type: 'user', uuid, timestamp: at(), message: { role: 'user', content }, ...extra });
const block = (uuid: string, id: string, content: object, extra: object = {}) => ({
  ...base, type: 'assistant', uuid, timestamp: at(),
  message: { model: 'claude-opus-4-5-20251101', id, type: 'message', role: 'assistant', content: [content], stop_reason: 'tool_use', usage: { input_tokens: 3, output_tokens: 50 } },
  ...extra,
});
const bash = (id: string, command: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command, description: `run ${command}` } });
const result = (uuid: string, toolUseId: string, content: string, isError = false) => ({
  ...base, type: 'user', uuid, timestamp: at(), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content, is_error: isError }] },
});

function transcript(name: string, lines: object[]): string {
  const file = join(dir, name);
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}

describe('Claude Code lines', () => {
  it('assembles a message whose blocks arrive around a tool result, and prefers a custom title', async () => {
    const file = transcript(`${SID}.jsonl`, [
      { type: 'ai-title', aiTitle: 'machine title', sessionId: SID },
      prompt('u1', 'check the disks'),
      prompt('u2', 'Caveat: local command output follows', { isMeta: true }),
      block('a1', 'msg_1', { type: 'text', text: 'Looking.' }),
      block('a2', 'msg_1', bash('toolu_a', 'df -h')),
      result('r1', 'toolu_a', 'Filesystem  Size\n/dev/sda1 100G'),
      // A later block of msg_1 after its first result: the message is written again, whole.
      block('a3', 'msg_1', bash('toolu_b', 'lsblk')),
      result('r2', 'toolu_b', 'Exit code 2\nlsblk: not found', true),
      result('r3', 'toolu_gone', 'nobody asked'),
      block('a4', 'msg_2', { type: 'text', text: 'API Error: overloaded' }, { isApiErrorMessage: true }),
      { type: 'custom-title', customTitle: 'disk check', sessionId: SID },
    ]);
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [file]);
    expect(summary.errors).toEqual([]);
    const messages = await queryStore(dbPath, (db) => db.all(`SELECT id, role, text, error FROM messages ORDER BY ordinal`));
    expect(messages).toEqual([
      { id: 'u1', role: 'user', text: 'check the disks', error: null },
      { id: 'u2', role: 'system', text: 'Caveat: local command output follows', error: null },
      { id: 'msg_1', role: 'assistant', text: 'Looking.', error: null },
      { id: 'msg_2', role: 'assistant', text: 'API Error: overloaded', error: 'API Error: overloaded' },
    ]);
    const calls = await queryStore(dbPath, (db) => db.all(`SELECT call_id, message_id, exit_code, output FROM tool_calls ORDER BY call_id`));
    expect(calls).toEqual([
      { call_id: 'toolu_a', message_id: 'msg_1', exit_code: 0, output: 'Filesystem  Size\n/dev/sda1 100G' },
      { call_id: 'toolu_b', message_id: 'msg_1', exit_code: 2, output: 'lsblk: not found' },
    ]);
    const orphans = await queryStore(dbPath, (db) => db.all(`SELECT what, line FROM unknown_records`));
    expect(orphans).toEqual([{ what: 'tool_result:orphan', line: 9 }]);
    const session = await queryStore(dbPath, (db) => db.all(`SELECT title, directory, extra->>'titleSource' AS source FROM sessions`));
    expect(session).toEqual([{ title: 'disk check', directory: '/work/demo', source: 'custom' }]);
  });

  it('keeps the summaries of a file that holds nothing else, and writes no session for it', async () => {
    const file = transcript('0000aaaa-summary-only.jsonl', [
      { type: 'summary', summary: 'Old conversation', leafUuid: 'x-1' },
      { type: 'summary', summary: 'Older conversation', leafUuid: 'x-2' },
    ]);
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [file]);
    expect(summary.errors).toEqual([]);
    expect(summary.sessions).toBe(0);
    expect(summary.unknown_records).toBe(2);
    // A known layout, not drift: no warning.
    expect(summary.warnings).toEqual([]);
  });

  it('writes a call that never got its result as still running, and its message all the same', async () => {
    const file = transcript(`${SID.replace('1', '2')}.jsonl`, [prompt('u1', 'go'), block('a1', 'msg_9', bash('toolu_x', 'sleep 999'))]);
    const dbPath = tempDbPath(dir);
    await ingestPaths(dbPath, [file]);
    const calls = await queryStore(dbPath, (db) => db.all(`SELECT status, exit_code, ended_at FROM tool_calls`));
    expect(calls).toEqual([{ status: 'running', exit_code: null, ended_at: null }]);
  });
});

describe('Claude Code locations', () => {
  it('reads ~/.claude/projects and every $CLAUDE_CONFIG_DIR/projects', () => {
    expect(claudeAdapter.defaultLocations({}, '/home/u')).toEqual(['/home/u/.claude/projects', '/home/u/.config/claude/projects']);
    expect(claudeAdapter.defaultLocations({ CLAUDE_CONFIG_DIR: '/a, /b' }, '/home/u')).toEqual([
      '/a/projects', '/b/projects', '/home/u/.claude/projects', '/home/u/.config/claude/projects',
    ]);
  });

  it('takes session and agent ids from the path until a record names them', () => {
    expect(claudePathIds('/p/-x/abc.jsonl')).toEqual({ sessionId: 'abc', agentId: null, metaFile: null });
    expect(claudePathIds('/p/-x/abc/subagents/agent-a1.jsonl')).toEqual({ sessionId: 'abc', agentId: 'a1', metaFile: '/p/-x/abc/subagents/agent-a1.meta.json' });
    expect(claudePathIds('/p/-x/agent-f80.jsonl')).toEqual({ sessionId: null, agentId: 'f80', metaFile: '/p/-x/agent-f80.meta.json' });
  });
});
