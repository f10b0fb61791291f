import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

/**
 * Issue 11, points 3 and 4, each on a real transcript of the corpus (test/fixtures/real/,
 * provenance in SOURCES.md) where the corpus holds the shape; the expected values are read from the
 * file in the test, not from retrace. Shapes no real file shows are tested on fixtures built from
 * the agent's own source (codex-drift, claude-drift, opencode-v2 tests; their READMEs say so).
 */
const REAL = join(REPO_ROOT, 'test', 'fixtures', 'real');
const dir = tempDir('retrace-real-shapes-');

const CLAUDE_XU = join(REAL, 'claude', 'Xu-Wentao__dotfile', '.claude', 'projects');
const PERSISTED_SESSION = join(CLAUDE_XU, '-Users-xuwentao-Projects-tele-tap-edu-backend', '995e76d3-7760-49f1-a8b7-9a806038cd27');
const PERSISTED_AGENT = join(PERSISTED_SESSION, 'subagents', 'agent-a2031b11586512707.jsonl');
const PERSISTED_CALL = 'toolu_019Ens3ePi9TkBwX5mDrGEpQ';
const WITH_SUBAGENTS = join(CLAUDE_XU, '-Users-xuwentao', 'd4fd5afb-e837-4595-a12a-6c44c0f09739.jsonl');
const IDE_AND_AI_TITLE = join(REAL, 'claude', 'KaceyBui__Claude-global-test', 'projects', '-Users-akatsukijin--claude', '19a51d1b-12a8-4a21-8633-5df5f2562462.jsonl');
const CODEX_0118 = join(REAL, 'codex', 'Xu-Wentao__dotfile', '.codex', 'sessions', '2026', '04', '08', 'rollout-2026-04-08T22-02-46-019d6d67-1952-7e83-93ef-94497e3c15b6.jsonl');
const CODEX_046 = join(REAL, 'codex', 'chunrui-qashier__md-http-server', '.codex', 'sessions', '2025', '11', '24', 'rollout-2025-11-24T00-07-08-019ab178-1682-7892-912f-cd70b0725a0c.jsonl');

type Json = Record<string, unknown>;
const lines = (file: string): Json[] => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Json);
const payload = (line: Json): Json => (line['payload'] ?? {}) as Json;

describe('Claude Code, on real files', () => {
  it('a <persisted-output> result whose whole output is nowhere is truncated; with its tool-results file beside the session, it is whole', async () => {
    const alone = tempDbPath(dir);
    expect((await ingestPaths(alone, [PERSISTED_AGENT])).errors).toEqual([]);
    const cut = await queryStore(alone, (db) => db.one(`SELECT truncated, output FROM tool_calls WHERE call_id = ?`, [PERSISTED_CALL]));
    expect(cut?.['truncated']).toBe(true);
    expect(String(cut?.['output'])).toContain('<persisted-output>');

    // The same real session folder, with the file Claude Code wrote beside it (its text made here).
    const copy = join(dir, 'persisted', '995e76d3-7760-49f1-a8b7-9a806038cd27');
    cpSync(PERSISTED_SESSION, copy, { recursive: true });
    const whole = 'handler.go:1: package volcano\n'.repeat(800);
    mkdirSync(join(copy, 'tool-results'), { recursive: true });
    writeFileSync(join(copy, 'tool-results', `${PERSISTED_CALL}.txt`), whole);
    const restored = tempDbPath(dir);
    await ingestPaths(restored, [join(copy, 'subagents', 'agent-a2031b11586512707.jsonl')]);
    expect(await queryStore(restored, (db) => db.one(`SELECT truncated, output FROM tool_calls WHERE call_id = ?`, [PERSISTED_CALL]))).toEqual({ truncated: false, output: whole });
  });

  it('ingesting one session file reads its subagents/ folder too, each subagent a session under it', async () => {
    const db = tempDbPath(dir);
    await ingestPaths(db, [WITH_SUBAGENTS]);
    const sessions = await queryStore(db, (store) => store.all(`SELECT id, parent_id FROM sessions ORDER BY parent_id NULLS FIRST, id`));
    const agentIds = ['ada37e8b5cf03a018', 'adae2f20e326a65be'];
    expect(sessions.length).toBe(1 + agentIds.length);
    expect(sessions[0]).toEqual({ id: 'd4fd5afb-e837-4595-a12a-6c44c0f09739', parent_id: null });
    expect(sessions.slice(1).every((s) => s['parent_id'] === 'd4fd5afb-e837-4595-a12a-6c44c0f09739')).toBe(true);
  });

  it('takes the title from the ai-title line, and without it from the request, never from the IDE preamble before it', async () => {
    const aiTitle = lines(IDE_AND_AI_TITLE).find((line) => line['type'] === 'ai-title')?.['aiTitle'];
    expect(typeof aiTitle).toBe('string');
    const db = tempDbPath(dir);
    await ingestPaths(db, [IDE_AND_AI_TITLE]);
    expect(await queryStore(db, (store) => store.scalar(`SELECT title FROM sessions`))).toBe(aiTitle);

    // The same real file without its ai-title lines: the first prompt opens with <ide_opened_file>.
    const firstPrompt = lines(IDE_AND_AI_TITLE).find((line) => line['type'] === 'user');
    const blocks = ((firstPrompt?.['message'] as Json | undefined)?.['content'] ?? []) as Json[];
    expect(String(blocks[0]?.['text'])).toMatch(/^<ide_/);
    const request = String(blocks.find((block) => block['type'] === 'text' && !String(block['text']).startsWith('<ide_'))?.['text']);
    const untitled = join(dir, 'untitled', 'projects', 'p', '19a51d1b-12a8-4a21-8633-5df5f2562462.jsonl');
    mkdirSync(dirname(untitled), { recursive: true });
    writeFileSync(untitled, readFileSync(IDE_AND_AI_TITLE, 'utf8').split('\n').filter((line) => !line.includes('"type":"ai-title"')).join('\n'));
    const db2 = tempDbPath(dir);
    await ingestPaths(db2, [untitled]);
    const title = String(await queryStore(db2, (store) => store.scalar(`SELECT title FROM sessions`)));
    expect(title).not.toMatch(/ide_opened_file|The user opened the file/);
    expect(request.startsWith(title.replace(/…$/, ''))).toBe(true);
  });

  it('no real Claude Code file warns of drift (summary-only and 1.0 files included)', async () => {
    const summary = await ingestPaths(tempDbPath(dir), [join(REAL, 'claude')]);
    expect(summary.errors).toEqual([]);
    expect(summary.warnings).toEqual([]);
  });
});

describe('Codex, on real files', () => {
  it("0.118: an output's `Command:` header is not the command; the call's cmd is, the header's shell line kept in extra", async () => {
    const calls = lines(CODEX_0118).map(payload).filter((p) => p['type'] === 'function_call' && p['name'] === 'exec_command');
    const outputs = new Map(lines(CODEX_0118).map(payload).filter((p) => p['type'] === 'function_call_output').map((p) => [String(p['call_id']), String(p['output'])]));
    const headed = calls.filter((call) => outputs.get(String(call['call_id']))?.startsWith('Command: '));
    expect(headed.length).toBeGreaterThan(0);
    const db = tempDbPath(dir);
    expect((await ingestPaths(db, [CODEX_0118])).errors).toEqual([]);
    for (const call of headed) {
      const row = await queryStore(db, (store) => store.one(`SELECT command, output, extra->>'shellCommand' AS shell FROM tool_calls WHERE call_id = ?`, [String(call['call_id'])]));
      const cmd = (JSON.parse(String(call['arguments'])) as Json)['cmd'];
      expect(row?.['command']).toBe(cmd);
      // The header line may run over several lines (a quoted newline): it ends where the next header starts.
      const header = /^Command: ([\s\S]*?)\n(?:Chunk ID|Wall time|Process exited|Process running|Original token count|Output):/.exec(outputs.get(String(call['call_id'])) ?? '');
      expect(String(row?.['shell'])).toBe(header?.[1]);
      expect(String(row?.['output'] ?? '')).not.toMatch(/^Command: /);
    }
  });

  it('0.46: a structured output under the call\'s own timestamp takes its duration from metadata.duration_seconds', async () => {
    const all = lines(CODEX_046);
    const stamps = new Map(all.filter((l) => payload(l)['type'] === 'function_call').map((l) => [String(payload(l)['call_id']), l['timestamp']]));
    const structured = all.flatMap((l) => {
      const p = payload(l);
      if (p['type'] !== 'function_call_output' || !String(p['output']).startsWith('{')) return [];
      const meta = ((JSON.parse(String(p['output'])) as Json)['metadata'] ?? {}) as Json;
      return [{ callId: String(p['call_id']), sameStamp: stamps.get(String(p['call_id'])) === l['timestamp'], ms: Math.round(Number(meta['duration_seconds']) * 1000), exit: meta['exit_code'] }];
    });
    expect(structured.length).toBeGreaterThan(0);
    expect(structured.every((s) => s.sameStamp)).toBe(true);
    const db = tempDbPath(dir);
    await ingestPaths(db, [CODEX_046]);
    const rows = await queryStore(db, (store) => store.all(`SELECT call_id, duration_ms, exit_code FROM tool_calls WHERE call_id IN (${structured.map(() => '?').join(', ')}) `, structured.map((s) => s.callId)));
    const byId = (a: Json, b: Json): number => (String(a['call_id']) < String(b['call_id']) ? -1 : 1);
    expect(rows.sort(byId)).toEqual(structured.map((s) => ({ call_id: s.callId, duration_ms: s.ms, exit_code: s.exit })).sort(byId));
  });

  it('every line type of the real rollouts (turn_context included) is known: no unknown record, no drift warning', async () => {
    const summary = await ingestPaths(tempDbPath(dir), [join(REAL, 'codex')]);
    expect(summary.errors).toEqual([]);
    expect([summary.unknown_records, summary.warnings]).toEqual([0, []]);
  });
});
