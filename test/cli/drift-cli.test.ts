import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRetrace, runRetraceJson } from '../helpers/cli.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { FIXTURES } from '../ingest/agent-fixtures.js';

/** Issue 11, points 4 and 6 as a user meets them: drift warnings in the summary and in --json; compaction in `show`. */
const dir = tempDir();
const CLAUDE_FUTURE = join(FIXTURES, 'claude', 'drift', 'future');
const CODEX_FUTURE = join(FIXTURES, 'codex', 'drift', 'future');
const CLAUDE_PROJECT = join(FIXTURES, 'claude', 'drift', 'projects');

interface Warning {
  file: string;
  agent: string;
  version: string | null;
  reason: string;
}

describe('retrace ingest, loud on drift', () => {
  it('lists the warnings in --json, each with the file and the version it states', async () => {
    const run = await runRetraceJson<{ warnings: Warning[]; errors: unknown[] }>(['ingest', CLAUDE_FUTURE, CODEX_FUTURE, '--db', tempDbPath(dir)]);
    expect(run.code).toBe(0);
    expect(run.json.errors).toEqual([]);
    expect(run.json.warnings.map((w) => [w.agent, w.version, w.reason.split(' ').slice(0, 3).join(' ')])).toEqual([
      ['claude', '2.3.0', 'no messages read'],
      ['claude', '2.3.0', '8 of 8'],
      ['codex', '0.150.0', 'no messages read'],
      ['codex', '0.150.0', '9 of 9'],
    ]);
  });

  it('names them after the summary table', async () => {
    const run = await runRetrace(['ingest', CODEX_FUTURE, '--db', tempDbPath(dir)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Warnings (2): read without error, but worth a look:');
    expect(run.stdout).toMatch(/rollout-2027-01-05T11-00-00-019f0000-0150-7000-8000-0000000f0150\.jsonl \(codex 0\.150\.0\): no messages read from 9 records/);
  });
});

describe('retrace show, a compaction', () => {
  it('prints the boundary as a rule in the story', async () => {
    const db = tempDbPath(dir);
    expect((await runRetrace(['ingest', CLAUDE_PROJECT, '--db', db])).code).toBe(0);
    const run = await runRetrace(['show', '7c0ffee0-2222-4aaa-8bbb-000000000001', '--db', db]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^#\d+ ── Context compacted \(auto, 155,432 tokens before\) ── {2}2026-08-03 16:01:\d\d$/m);
  });
});
