import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/store/database.js';
import { runRetrace, runRetraceJson } from '../helpers/cli.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

/** The built CLI (`npm run build` first) as a child process, on a temp store of the bundled sample. */
const dir = tempDir();
const db = tempDbPath(dir);

beforeAll(async () => {
  const run = await runRetrace(['ingest', SESSIONS_DIR, '--db', db]);
  expect(run.code, run.stderr).toBe(0);
});

describe('retrace tree', () => {
  it('prints the indented tree with verdict marks, reasons and message ordinals', async () => {
    const run = await runRetrace(['tree', 'qwen', '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('✗ vllm-spark:v0.14.0rc2.dev262 — image, rejected (#5)');
    expect(run.stdout).toContain('✗ lmsysorg/sglang:spark — image, rejected (#13 #14 #15)');
    expect(run.stdout).toContain('✗ scitrera/dgx-spark-sglang:0.5.10rc0 — image, rejected (#16 #17)');
    expect(run.stdout).toMatch(/✓ hellohal2064\/vllm-qwen3\.5-gb10 — image, accepted/);
    expect(run.stdout).toContain('○ lmsysorg/sglang:dev-cu13');
    expect(run.stdout).toContain('○ NGC vLLM nightly');
    expect(run.stdout).toContain('↳ pivot at #13 → lmsysorg/sglang:spark');
    expect(run.stderr).toBe('');
  });

  it('--format json prints one document of the contract shape', async () => {
    const run = await runRetrace(['tree', 'qwen', '--db', db, '--format', 'json']);
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as { session: string; goal: string; candidates: { name: string; verdict: string; evidence: unknown[] }[]; pivots: { message_ordinal: number }[] };
    expect(Object.keys(json)).toEqual(['session', 'goal', 'candidates', 'pivots']);
    expect(json.candidates.map((c) => c.verdict)).toEqual(['rejected', 'rejected', 'rejected', 'accepted', 'untested', 'untested', 'untested']);
    expect(json.pivots.map((p) => p.message_ordinal)).toEqual([13, 16, 18]);
    const same = await runRetraceJson<typeof json>(['tree', 'qwen', '--db', db]);
    expect(same.json).toEqual(json);
  });

  it('--format mermaid prints a flowchart', async () => {
    const run = await runRetrace(['tree', 'qwen', '--db', db, '--format', 'mermaid']);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('flowchart TD')).toBe(true);
    expect(run.stdout).toContain('c0 -->|"#13 ');
    expect(run.stdout).toContain('classDef accepted');
  });

  it('derives the tree on demand when the stored one is missing or from older rules', async () => {
    const store = await Database.open(db);
    try {
      await store.run('DELETE FROM candidates');
      await store.run("UPDATE trees SET rules_fingerprint = 'older-rules'");
    } finally {
      store.close();
    }
    const run = await runRetraceJson<{ candidates: unknown[] }>(['tree', 'qwen', '--db', db]);
    expect(run.code).toBe(0);
    expect(run.json.candidates).toHaveLength(7);
  });

  it('exits 2 for an unknown session or a bad format, 1 when the store cannot be read', async () => {
    expect((await runRetrace(['tree', 'no-such-session', '--db', db])).code).toBe(2);
    expect((await runRetrace(['tree', 'qwen', '--db', db, '--format', 'svg'])).code).toBe(2);
    const missing = await runRetrace(['tree', 'qwen', '--db', join(dir, 'missing.duckdb')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no store at');
  });
});

describe('retrace why', () => {
  it('names transformers 4.57.6, the failed imports and the message ordinals', async () => {
    const run = await runRetrace(['why', 'scitrera', '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('scitrera/dgx-spark-sglang:0.5.10rc0  (image, rejected)');
    expect(run.stdout).toContain('Transformers: 4.57.6');
    expect(run.stdout).toContain("No module named 'sglang.srt.models.qwen3_5_moe'");
    expect(run.stdout).toMatch(/#17 probe → negative {2}\(decisive\)/);
    expect(run.stdout).toContain('what followed (#18)');
  });

  it('--json prints one document; --session narrows; no match exits 2', async () => {
    const run = await runRetraceJson<{ query: string; candidates: { name: string; evidence: { message_ordinal: number; lines: string[] }[] }[] }>(['why', 'sglang', '--session', 'qwen', '--db', db]);
    expect(run.code).toBe(0);
    expect(run.json.candidates.map((c) => c.name)).toEqual([
      'lmsysorg/sglang:spark',
      'scitrera/dgx-spark-sglang:0.5.10rc0',
      'ridanuae/dgx-spark-sglang-qwen35',
      'lmsysorg/sglang:dev-cu13',
    ]);
    expect((await runRetrace(['why', 'nothing-like-this', '--db', db])).code).toBe(2);
  });
});

describe('retrace timings', () => {
  it('--kind pull shows the timeout and the retry of lmsysorg/sglang:spark', async () => {
    const run = await runRetrace(['timings', '--kind', 'pull', '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    const first = lines.findIndex((l) => l.includes('lmsysorg/sglang:spark'));
    expect(lines[first]).toMatch(/pull\s+lmsysorg\/sglang:spark\s+10\.1\.230\.180\s+1\s+\S+ \S+\s+2m00s\s+timeout/);
    expect(lines[first + 1]).toMatch(/^\s+2\s+\S+ \S+\s+4m1\ds\s+ok/);
  });

  it('--json prints one row per attempt', async () => {
    const run = await runRetraceJson<{ kind: string; attempts: { kind: string; subject: string; host: string; attempt: number; started_at: string; duration_ms: number; outcome: string }[] }>(['timings', '--kind', 'all', '--session', 'qwen', '--db', db]);
    expect(run.code).toBe(0);
    const spark = run.json.attempts.filter((a) => a.kind === 'pull' && a.subject === 'lmsysorg/sglang:spark');
    expect(spark.map((a) => [a.attempt, a.outcome])).toEqual([[1, 'timeout'], [2, 'ok']]);
    expect(Object.keys(spark[0] ?? {})).toEqual(expect.arrayContaining(['kind', 'subject', 'host', 'attempt', 'started_at', 'duration_ms', 'outcome']));
    const download = run.json.attempts.find((a) => a.kind === 'download' && a.subject === 'Qwen/Qwen3.5-122B-A10B-FP8') as Record<string, unknown> | undefined;
    expect(download?.['mb_per_s']).toBeGreaterThan(0);
  });

  it('exits 2 for a bad --kind', async () => {
    expect((await runRetrace(['timings', '--kind', 'boot', '--db', db])).code).toBe(2);
  });
});

describe('retrace export', () => {
  it('--to markdown writes a report', async () => {
    const out = join(dir, 'report.md');
    const run = await runRetrace(['export', 'qwen', '--to', 'markdown', '-o', out, '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('# Deploy Qwen3.5-122B-A10B-FP8 on dual DGX Spark');
    expect(text).toContain('```mermaid');
    expect(text).toContain('### scitrera/dgx-spark-sglang:0.5.10rc0');
    expect(text).toContain('| pull | `lmsysorg/sglang:spark` | 10.1.230.180 | 1 |');
  });

  it('--to mermaid prints to stdout without -o', async () => {
    const run = await runRetrace(['export', 'qwen', '--to', 'mermaid', '--db', db]);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('flowchart TD')).toBe(true);
  });

  it('--to parquet writes the session rows of every table, readable by DuckDB', async () => {
    const folder = join(dir, 'parquet');
    const run = await runRetraceJson<{ files: string[] }>(['export', 'qwen', '--to', 'parquet', '-o', folder, '--db', db]);
    expect(run.code).toBe(0);
    for (const table of ['sessions', 'messages', 'tool_calls', 'commands', 'actions', 'candidates', 'pivots', 'trees']) {
      expect(existsSync(join(folder, `${table}.parquet`)), table).toBe(true);
    }
    const reader = await Database.open(':memory:');
    try {
      const count = Number(await reader.scalar(`SELECT count(*) FROM '${join(folder, 'candidates.parquet')}'`));
      expect(count).toBe(7);
      const calls = Number(await reader.scalar(`SELECT count(*) FROM '${join(folder, 'tool_calls.parquet')}'`));
      expect(calls).toBe(45);
    } finally {
      reader.close();
    }
  });

  it('exits 2 without --to or with an unknown format', async () => {
    expect((await runRetrace(['export', 'qwen', '--db', db])).code).toBe(2);
    expect((await runRetrace(['export', 'qwen', '--to', 'pdf', '--db', db])).code).toBe(2);
  });
});

describe('--help', () => {
  it('every new command answers --help with examples', async () => {
    for (const command of ['tree', 'why', 'timings', 'export']) {
      const run = await runRetrace([command, '--help']);
      expect(run.code, command).toBe(0);
      expect(run.stdout, command).toContain('Examples:');
    }
  });
});
