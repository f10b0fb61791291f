import { appendFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeTranscript, CLAUDE_SESSION, CODEX_SESSION, codexTranscript, opencodeExport } from '../helpers/agent-transcripts.js';
import { runRetraceJson } from '../helpers/cli.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir('retrace-quiet-');
const call = { command: 'nvidia-smi', output: 'GPU 0: GB10' };

interface Summary {
  sources: number;
  sessions: number;
  messages: number;
  skipped_unchanged: number;
  errors: { file: string; message: string }[];
  renamed_sessions: { id: string; agent: string; stored_as: string; file: string }[];
}

describe('symbolic links inside a walked folder are followed or reported (issue 15, point 7)', () => {
  it('reads linked transcripts and linked folders once each, survives a loop, and names a dangling link', async () => {
    const root = join(dir, 'walked');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(join(elsewhere, 'exports'), { recursive: true });
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, `${CLAUDE_SESSION}.jsonl`), claudeTranscript(call));
    writeFileSync(join(elsewhere, `rollout-2026-01-02T03-04-00-${CODEX_SESSION}.jsonl`), codexTranscript(call));
    writeFileSync(join(elsewhere, 'exports', 'export.json'), opencodeExport(call));
    symlinkSync(join(elsewhere, `rollout-2026-01-02T03-04-00-${CODEX_SESSION}.jsonl`), join(root, `rollout-2026-01-02T03-04-00-${CODEX_SESSION}.jsonl`));
    symlinkSync(join(elsewhere, 'exports'), join(root, 'exports'));
    symlinkSync(root, join(root, 'loop'));
    symlinkSync(join(root, `${CLAUDE_SESSION}.jsonl`), join(root, 'again.jsonl'));
    symlinkSync(join(elsewhere, 'gone.jsonl'), join(root, 'dangling.jsonl'));

    const run = await runRetraceJson<Summary>(['ingest', root, '--db', tempDbPath(dir)]);
    expect(run.json.sources).toBe(3);
    expect(run.json.sessions).toBe(3);
    expect(run.json.errors).toEqual([
      { file: join(root, 'dangling.jsonl'), line: null, path: null, message: `symbolic link to ${join(elsewhere, 'gone.jsonl')}, which does not exist: nothing read` },
    ]);
  }, 60_000);
});

describe("two agents' sessions that share an id are kept apart (issue 15, point 7)", () => {
  const shared = CODEX_SESSION;
  const folder = join(dir, 'shared-id');
  const codexFile = join(folder, `rollout-2026-01-02T03-04-00-${shared}.jsonl`);
  const claudeFile = join(folder, `${shared}.jsonl`);

  it('stores the second as <agent>:<id>, says so, and maps it the same way on every later ingest', async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(codexFile, codexTranscript(call));
    writeFileSync(claudeFile, claudeTranscript(call).replaceAll(CLAUDE_SESSION, shared));
    const db = tempDbPath(dir);

    const first = await runRetraceJson<Summary>(['ingest', codexFile, claudeFile, '--db', db]);
    expect(first.json.errors).toEqual([]);
    expect(first.json.sessions).toBe(2);
    expect(first.json.renamed_sessions).toEqual([{ id: shared, agent: 'claude', stored_as: `claude:${shared}`, file: claudeFile }]);
    const sessions = await runRetraceJson<{ id: string; agent: string; messages: number }[]>(['sessions', '--db', db]);
    expect(sessions.json.map(({ id, agent }) => ({ id, agent })).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: shared, agent: 'codex' },
      { id: `claude:${shared}`, agent: 'claude' },
    ].sort((a, b) => a.id.localeCompare(b.id)));
    const perSession = await runRetraceJson<{ session_id: string; calls: number; commands: number }[]>(['sql', '--db', db,
      'SELECT session_id, count(*) AS calls, count(DISTINCT command) AS commands FROM tool_calls GROUP BY 1 ORDER BY 1']);
    expect(perSession.json).toEqual([
      { session_id: shared, calls: 1, commands: 1 },
      { session_id: `claude:${shared}`, calls: 1, commands: 1 },
    ].sort((a, b) => a.session_id.localeCompare(b.session_id)));

    const unchanged = await runRetraceJson<Summary>(['ingest', codexFile, claudeFile, '--db', db]);
    expect(unchanged.json).toMatchObject({ sources: 0, skipped_unchanged: 2, sessions: 0 });

    // The Claude transcript grows: read from where it stopped, into the same qualified session.
    const last = JSON.parse(readFileSync(claudeFile, 'utf8').trim().split('\n').pop() as string) as Record<string, unknown>;
    appendFileSync(claudeFile, `${JSON.stringify({ ...last, uuid: 'a3', parentUuid: 'a2', message: { id: 'msg_03', role: 'assistant', model: 'claude-test', content: [{ type: 'text', text: 'One more.' }] } })}\n`);
    const grown = await runRetraceJson<Summary>(['ingest', codexFile, claudeFile, '--db', db]);
    expect(grown.json.errors).toEqual([]);
    expect(grown.json.sessions).toBe(0);
    const shown = await runRetraceJson<{ session: { id: string }; messages: { text: string }[] }>(['show', `claude:${shared}`, '--db', db]);
    expect(shown.json.session.id).toBe(`claude:${shared}`);
    expect(shown.json.messages.map((m) => m.text)).toContain('One more.');
  }, 120_000);
});
