import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { atifProblems } from '../../src/core/atif/schema.js';
import { Database } from '../../src/store/database.js';
import type { Row } from '../../src/store/values.js';
import { REPO_ROOT, runRetrace, runRetraceJson } from '../helpers/cli.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

/**
 * ATIF both ways, through the built CLI: sessions of every agent (the opencode sample, Claude Code
 * with subagents, Codex) exported with `export --to atif`, each file checked against the schema
 * and its validators' rules, then ingested into a fresh store: the same messages and tool calls.
 */
const dir = tempDir('retrace-atif-');
const original = tempDbPath(dir);
const copy = tempDbPath(dir);
const exported: { id: string; file: string }[] = [];

const MESSAGE_COLUMNS = `session_id, id, ordinal, role, parent_id, created_at, completed_at, model, provider, tokens_input, tokens_output,
  tokens_reasoning, tokens_cache_read, tokens_cache_write, cost, text, reasoning, error, extra`;
const CALL_COLUMNS = `session_id, message_id, call_id, ordinal, tool, status, input, command, output, title, started_at, ended_at,
  duration_ms, exit_code, timed_out, truncated, parallel_group, extra`;

async function rows(path: string, sql: string): Promise<Row[]> {
  const db = await Database.open(path, { readOnly: true });
  try {
    return await db.all(sql);
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  for (const folder of ['sessions', 'test/fixtures/claude', 'test/fixtures/codex/sessions']) {
    const run = await runRetrace(['ingest', join(REPO_ROOT, folder), '--db', original, '--machine', 'origin-box']);
    expect(run.code, run.stderr).toBeLessThan(2);
  }
  const roots = await rows(original, `SELECT id FROM sessions WHERE parent_id IS NULL ORDER BY id`);
  for (const [index, row] of roots.entries()) {
    const file = join(dir, `session-${index}.atif.json`);
    const run = await runRetrace(['export', String(row['id']), '--to', 'atif', '--db', original, '-o', file]);
    expect(run.code, run.stderr).toBe(0);
    exported.push({ id: String(row['id']), file });
  }
  const ingest = await runRetraceJson<{ errors: unknown[] }>(['ingest', dir, '--db', copy]);
  expect(ingest.code, JSON.stringify(ingest.json.errors)).toBe(0);
}, 240_000);

describe('retrace export --to atif', () => {
  it('writes files that pass the ATIF-v1.7 schema and its validators', () => {
    expect(exported.length).toBeGreaterThanOrEqual(8);
    for (const { file } of exported) {
      const document = JSON.parse(readFileSync(file, 'utf8')) as { schema_version: string };
      expect(document.schema_version).toBe('ATIF-v1.7');
      expect(atifProblems(document), file).toEqual([]);
    }
  });

  it('embeds subagents as trajectories their spawning call refers to', () => {
    const withSubagents = exported
      .map(({ file }) => JSON.parse(readFileSync(file, 'utf8')) as { subagent_trajectories?: { trajectory_id: string }[]; steps: { observation?: { results: { subagent_trajectory_ref?: { trajectory_id: string }[] }[] } }[] })
      .filter((doc) => (doc.subagent_trajectories ?? []).length > 0);
    expect(withSubagents.length).toBeGreaterThan(0);
    for (const doc of withSubagents) {
      const refs = doc.steps.flatMap((step) => step.observation?.results ?? []).flatMap((result) => result.subagent_trajectory_ref ?? []).map((ref) => ref.trajectory_id);
      expect(refs.sort()).toEqual((doc.subagent_trajectories ?? []).map((sub) => sub.trajectory_id).sort());
    }
  });

  it('carries the decision tree in extra: candidates with verdicts and reasons, pivots', () => {
    const sample = exported.find((e) => e.id.startsWith('ses_365d'));
    const document = JSON.parse(readFileSync(sample?.file ?? '', 'utf8')) as { extra: { retrace: { candidates: { name: string; verdict: string; reason: string }[]; pivots: { message_ordinal: number }[] } } };
    const { candidates, pivots } = document.extra.retrace;
    expect(candidates.map((c) => c.verdict)).toEqual(['rejected', 'rejected', 'rejected', 'accepted', 'untested', 'untested', 'untested']);
    expect(candidates.every((c) => c.reason.length > 0)).toBe(true);
    expect(pivots.map((p) => p.message_ordinal)).toEqual([13, 16, 18]);
  });

  it('reads back as the same messages and tool calls, as agent atif keeping the source agent', async () => {
    const a = await rows(original, `SELECT ${MESSAGE_COLUMNS} FROM messages ORDER BY session_id, ordinal`);
    const b = await rows(copy, `SELECT ${MESSAGE_COLUMNS} FROM messages ORDER BY session_id, ordinal`);
    expect(a.length).toBeGreaterThan(100);
    expect(b).toEqual(a);
    const calls = await rows(original, `SELECT ${CALL_COLUMNS} FROM tool_calls ORDER BY session_id, ordinal`);
    expect(await rows(copy, `SELECT ${CALL_COLUMNS} FROM tool_calls ORDER BY session_id, ordinal`)).toEqual(calls);
    const sessions = await rows(copy, `SELECT s.id, s.agent, s.parent_id, s.title, s.directory, s.machine, s.extra->>'source_agent' AS source_agent FROM sessions s ORDER BY id`);
    const before = await rows(original, `SELECT id, agent, parent_id, title, directory, machine FROM sessions ORDER BY id`);
    expect(sessions.map((s) => ({ id: s['id'], parent_id: s['parent_id'], title: s['title'], directory: s['directory'], machine: s['machine'], agent: s['source_agent'] })))
      .toEqual(before.map((s) => ({ id: s['id'], parent_id: s['parent_id'], title: s['title'], directory: s['directory'], machine: s['machine'], agent: s['agent'] })));
    expect(new Set(sessions.map((s) => s['agent']))).toEqual(new Set(['atif']));
  });

  it('keeps the transcript it came from as the original path', async () => {
    const sources = await rows(copy, `SELECT path, original_path, machine FROM sources ORDER BY path`);
    for (const source of sources) {
      expect(String(source['path'])).toMatch(/\.atif\.json$/);
      expect(String(source['original_path'])).toContain(REPO_ROOT);
      expect(source['machine']).toBe('origin-box');
    }
  });
});

describe('retrace ingest of ATIF from other tools', () => {
  const foreign = {
    schema_version: 'ATIF-v1.7',
    session_id: 'run-42',
    trajectory_id: 'traj-root',
    agent: { name: 'terminus-2', version: '2.0.0', model_name: 'some-model' },
    steps: [
      { step_id: 1, timestamp: '2026-03-01T10:00:00Z', source: 'user', message: 'Check the GPU and start the server.' },
      {
        step_id: 2, timestamp: '2026-03-01T10:00:05Z', source: 'agent', message: 'Looking.', reasoning_content: 'First the GPU.',
        tool_calls: [{ tool_call_id: 'c1', function_name: 'bash', arguments: { command: 'nvidia-smi -L' } }, { tool_call_id: 'c2', function_name: 'delegate', arguments: { task: 'read logs' } }],
        observation: { results: [
          { source_call_id: 'c1', content: 'GPU 0: NVIDIA GB10' },
          { source_call_id: 'c2', content: [{ type: 'text', text: 'logs are clean' }], subagent_trajectory_ref: [{ trajectory_id: 'traj-child', session_id: 'run-42' }] },
        ] },
        metrics: { prompt_tokens: 1200, completion_tokens: 80, cached_tokens: 1000, cost_usd: 0.01 },
      },
    ],
    subagent_trajectories: [{
      schema_version: 'ATIF-v1.7', session_id: 'run-42', trajectory_id: 'traj-child', agent: { name: 'terminus-2', version: '2.0.0' },
      steps: [{ step_id: 1, source: 'user', message: 'read logs' }, { step_id: 2, source: 'agent', message: 'clean' }],
    }],
  };

  it('reads a trajectory another tool wrote: steps, shell commands, outputs, tokens, an embedded subagent', async () => {
    expect(atifProblems(foreign)).toEqual([]);
    const file = join(dir, 'foreign', 'trajectory.json');
    const store = tempDbPath(dir);
    await import('node:fs').then((fs) => fs.mkdirSync(join(dir, 'foreign'), { recursive: true }));
    writeFileSync(file, JSON.stringify(foreign));
    const run = await runRetraceJson<{ sessions: number; messages: number; tool_calls: number }>(['ingest', file, '--db', store, '--machine', 'ci-1']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ sessions: 2, messages: 4, tool_calls: 2 });
    const calls = await rows(store, `SELECT call_id, tool, command, output, status FROM tool_calls ORDER BY ordinal`);
    expect(calls).toEqual([
      { call_id: 'c1', tool: 'bash', command: 'nvidia-smi -L', output: 'GPU 0: NVIDIA GB10', status: 'completed' },
      { call_id: 'c2', tool: 'delegate', command: null, output: 'logs are clean', status: 'completed' },
    ]);
    const tokens = await rows(store, `SELECT tokens_input, tokens_cache_read, tokens_output, cost, reasoning FROM messages WHERE role = 'assistant' AND session_id = 'run-42'`);
    expect(tokens).toEqual([{ tokens_input: 200, tokens_cache_read: 1000, tokens_output: 80, cost: 0.01, reasoning: 'First the GPU.' }]);
    const sessions = await rows(store, `SELECT id, parent_id, agent, machine, title, extra->>'source_agent' AS source_agent FROM sessions ORDER BY id`);
    expect(sessions).toEqual([
      { id: 'run-42', parent_id: null, agent: 'atif', machine: 'ci-1', title: 'Check the GPU and start the server.', source_agent: 'terminus-2' },
      { id: 'traj-child', parent_id: 'run-42', agent: 'atif', machine: 'ci-1', title: 'read logs', source_agent: 'terminus-2' },
    ]);
  });

  it('names each broken rule by its JSON path and ingests every step that is readable', async () => {
    const broken = structuredClone(foreign) as unknown as { steps: Record<string, unknown>[] };
    broken.steps.push({ step_id: 5, source: 'user', message: 'later', tool_calls: [{ tool_call_id: 'x', function_name: 'bash', arguments: {} }] });
    broken.steps.push({ step_id: 4, source: 'agent', message: 'ok', observation: { results: [{ source_call_id: 'ghost', content: 'boo' }] } });
    const problems = atifProblems(broken);
    expect(problems).toEqual(expect.arrayContaining([
      expect.stringMatching(/^steps\.2\.step_id: expected 3/),
      expect.stringMatching(/^steps\.2\.tool_calls: only an agent step/),
      expect.stringMatching(/^steps\.3\.observation\.results\.0\.source_call_id: "ghost" is not a tool call of step 4/),
    ]));
    const file = join(dir, 'broken.atif.json');
    writeFileSync(file, JSON.stringify(broken));
    const store = tempDbPath(dir);
    const run = await runRetraceJson<{ messages: number; errors: { file: string; path: string; message: string }[] }>(['ingest', file, '--db', store]);
    expect(run.code).toBe(1);
    expect(run.json.errors.map((e) => e.path)).toEqual(expect.arrayContaining(['$.steps[2].step_id', '$.steps[2].tool_calls', '$.steps[3].observation.results[0].source_call_id']));
    expect(run.json.errors.every((e) => e.file === file)).toBe(true);
    // Steps 1 and 2 and the subagent's two; the two steps that break a rule are left out.
    expect(run.json.messages).toBe(4);
    const notJson = join(dir, 'cut.atif.json');
    writeFileSync(notJson, JSON.stringify(foreign, null, 2).slice(0, 300));
    const cut = await runRetraceJson<{ errors: { file: string; line: number | null; message: string }[] }>(['ingest', notJson, '--db', store, '--format', 'atif']);
    expect(cut.code).toBe(1);
    expect(cut.json.errors[0]).toMatchObject({ file: notJson });
    expect(cut.json.errors[0]?.message).toMatch(/not JSON/);
  });
});
