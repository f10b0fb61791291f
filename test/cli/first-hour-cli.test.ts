import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runRetrace, runRetraceJson } from '../helpers/cli.js';
import { sampleExportPath, SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

/** What a new user meets in the first hour (issue 16): every output says what it found and what it left out. */
const dir = tempDir();
const db = tempDbPath(dir);
/** The sample, and a second copy of it under another id: a store of two sessions. */
const twoSessions = tempDbPath(dir);

beforeAll(async () => {
  const run = await runRetrace(['ingest', SESSIONS_DIR, '--db', db]);
  expect(run.code, run.stderr).toBe(0);
  const sample = readFileSync(sampleExportPath(), 'utf8');
  const id = (JSON.parse(sample) as { info: { id: string } }).info.id;
  const copyDir = join(dir, 'copy');
  mkdirSync(copyDir);
  writeFileSync(join(copyDir, 'ses_second.json'), sample.replaceAll(id, 'ses_secondcopy0000000000000000'));
  const both = await runRetrace(['ingest', SESSIONS_DIR, copyDir, '--db', twoSessions]);
  expect(both.code, both.stderr).toBe(0);
});

describe('ingest says what it found', () => {
  it('a folder with no transcripts: "no transcripts found in PATH (looked for …)", exit 2, no store file', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'notes.txt'), 'not a transcript');
    const store = tempDbPath(dir);
    const run = await runRetrace(['ingest', empty, '--db', store]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`no transcripts found in ${empty} (looked for opencode exports`);
    expect(run.stderr).toMatch(/Claude Code \.jsonl.*Codex/);
    expect(existsSync(store)).toBe(false);
  });

  it('a missing path is reported and creates no store file either', async () => {
    const store = tempDbPath(dir);
    const run = await runRetrace(['ingest', join(dir, 'nowhere'), '--db', store]);
    expect(run.code).toBe(2);
    expect(existsSync(store)).toBe(false);
  });

  it('a --db whose folder does not exist is a usage error (exit 2)', async () => {
    const store = join(dir, 'no-such-folder', 'deeper', 'store.duckdb');
    const run = await runRetraceJson<{ error: { kind: string; message: string } }>(['ingest', SESSIONS_DIR, '--db', store]);
    expect(run.code).toBe(2);
    expect(run.json.error.kind).toBe('usage');
    expect(run.json.error.message).toContain(join(dir, 'no-such-folder', 'deeper'));
    expect(existsSync(join(dir, 'no-such-folder'))).toBe(false);
  });
});

describe('show can show everything', () => {
  it('keeps the timeout line of the timed-out pull, and says how much it cut', async () => {
    const run = await runRetrace(['show', 'qwen', '--from', '13', '--to', '13', '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('bash tool terminated command after exceeding timeout 120000 ms');
    expect(run.stdout).toMatch(/… \(\d+ lines?, \d+ chars left out; --full shows them\)/);
    // A long command is cut too, ending in … and saying how much is missing.
    expect(run.stdout).toMatch(/ls ~\/\.cache\/huggingface.*… \(\+\d+ chars\)/);
    expect(run.stdout).toContain('(messages #14–#42 follow: --from 14)');
  });

  it('--full prints every text and output whole', async () => {
    const full = await runRetraceJson<{ messages: { ordinal: number; text: string; tool_calls: { output: string | null; command: string | null }[] }[] }>(['show', 'qwen', '--from', '13', '--to', '13', '--db', db]);
    const run = await runRetrace(['show', 'qwen', '--from', '13', '--to', '13', '--full', '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/left out; --full/);
    const message = full.json.messages[0];
    for (const line of (message?.text ?? '').split('\n')) expect(run.stdout).toContain(line);
    for (const call of message?.tool_calls ?? []) {
      for (const line of (call.output ?? '').trimEnd().split('\n').filter((l) => l.trim())) expect(run.stdout).toContain(line);
      if (call.command) expect(run.stdout).toContain(call.command.replace(/\s+/g, ' '));
    }
  });

  it('--from past the end says so (exit 2)', async () => {
    const run = await runRetrace(['show', 'qwen', '--from', '99', '--db', db]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--from 99 is past the end');
    expect(run.stderr).toContain('its last message is #42');
  });
});

describe('timings tells the truth', () => {
  it('a probe that rejected its candidate reads negative, the accepted one positive', async () => {
    const run = await runRetrace(['timings', '--kind', 'probe', '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/scitrera\/dgx-spark-sglang:0\.5\.10rc0.*negative/);
    expect(run.stdout).toMatch(/hellohal2064\/vllm-qwen3\.5-gb10.*positive/);
    expect(run.stdout).not.toMatch(/\bok\b/);
    expect(run.stdout.split('\n')[0]).not.toMatch(/session/);
  });

  it('several sessions get a session column', async () => {
    const run = await runRetrace(['timings', '--kind', 'pull', '--db', twoSessions]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(/^session\s+kind/);
    expect(run.stdout).toContain('ses_secondcopy0000000000000000');
    expect(run.stdout).toContain('ses_365d176c7ffeX5TaQTV86dNCf0');
  });

  it('sizes read as du -h counts them (GiB)', async () => {
    const run = await runRetrace(['timings', '--kind', 'download', '--db', db]);
    expect(run.stdout).toContain('119 GiB');
  });

  it('--help lists every outcome', async () => {
    const run = await runRetrace(['timings', '--help']);
    for (const outcome of ['ok', 'failed', 'timeout', 'negative', 'positive', 'unknown']) expect(run.stdout).toMatch(new RegExp(`^\\s+${outcome}\\s`, 'm'));
  });
});

describe('why', () => {
  it('suggests the nearest name on a typo', async () => {
    const run = await runRetrace(['why', 'scitrea', '--db', db]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('did you mean scitrera/dgx-spark-sglang:0.5.10rc0?');
  });

  it('says how many candidates matched when several do', async () => {
    const run = await runRetrace(['why', 'sglang', '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('4 candidates match "sglang":');
    const json = await runRetraceJson<{ matched: number; candidates: unknown[] }>(['why', 'sglang', '--db', db]);
    expect(json.json.matched).toBe(4);
    expect(json.json.candidates).toHaveLength(4);
  });

  it('an empty name is a usage error', async () => {
    for (const name of ['', '   ']) {
      const run = await runRetrace(['why', name, '--db', db]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('name a candidate');
    }
  });
});

describe('help texts match behaviour', () => {
  it('export --help does not offer --role (an option of the exported script, not of export)', async () => {
    const run = await runRetrace(['export', '--help']);
    expect(run.stdout).not.toMatch(/\(--role\)/);
    expect(run.stdout).not.toMatch(/^\s+--role\b/m);
    expect(run.stdout).toContain('--role ROLE');
    expect((await runRetrace(['export', 'qwen', '--to', 'sh', '--role', 'head', '--db', db])).code).toBe(2);
  });

  it('tree --help lists untested', async () => {
    expect((await runRetrace(['tree', '--help'])).stdout).toMatch(/untested/);
  });

  it('--tui without --live is a usage error', async () => {
    const run = await runRetrace(['replay', 'qwen', '--tui', '--db', db]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--tui watches a live run');
  });
});
