import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runRetrace, runRetraceJson } from '../helpers/cli.js';
import { plantedSecrets, SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir();

interface Summary {
  sources: number;
  sessions: number;
  messages: number;
  tool_calls: number;
  redactions: number;
  skipped_unchanged: number;
  errors: { file: string; line: number | null; message: string }[];
}

/** Every byte of the store: the database file and its write-ahead log, if one is left. */
function storeBytes(dbPath: string): Buffer {
  const files = readdirSync(dir).filter((name) => name.startsWith(dbPath.split('/').pop() ?? ''));
  return Buffer.concat(files.map((name) => readFileSync(join(dir, name))));
}

describe('retrace ingest on the bundled sample (issue 2, done when)', () => {
  const db = tempDbPath(dir);
  let first: Summary;

  beforeAll(async () => {
    const run = await runRetraceJson<Summary>(['ingest', SESSIONS_DIR, '--db', db]);
    expect(run.code).toBe(0);
    first = run.json;
  });

  it('reports ≥ 1 session, ≥ 40 messages, ≥ 30 tool calls, and secrets redacted', () => {
    expect(first.sessions).toBeGreaterThanOrEqual(1);
    expect(first.messages).toBeGreaterThanOrEqual(40);
    expect(first.tool_calls).toBeGreaterThanOrEqual(30);
    expect(first.redactions).toBeGreaterThan(0);
    expect(first.errors).toEqual([]);
  });

  it('shows the first pull of lmsysorg/sglang:spark timed out at about 120 s, and the retry exiting 0', async () => {
    const run = await runRetraceJson<{ ordinal: number; timed_out: boolean; duration_ms: number; exit_code: number | null }[]>([
      'sql', '--db', db,
      `SELECT ordinal, timed_out, duration_ms, exit_code FROM tool_calls
       WHERE command LIKE '%docker pull lmsysorg/sglang:spark%' ORDER BY ordinal`,
    ]);
    expect(run.code).toBe(0);
    expect(run.json).toHaveLength(2);
    const [timedOut, retry] = run.json;
    expect(timedOut).toMatchObject({ timed_out: true, exit_code: null });
    expect(timedOut?.duration_ms).toBeGreaterThanOrEqual(119_000);
    expect(timedOut?.duration_ms).toBeLessThan(125_000);
    expect(retry).toMatchObject({ timed_out: false, exit_code: 0 });
  });

  it('puts the three calls of msg 6568 (the timed-out pull among them) in one parallel group', async () => {
    const run = await runRetraceJson<{ tool: string; timed_out: boolean; group_size: number }[]>([
      'sql', '--db', db,
      `SELECT c.tool, c.timed_out, count(*) OVER (PARTITION BY c.parallel_group) AS group_size
       FROM tool_calls c WHERE c.parallel_group = (
         SELECT parallel_group FROM tool_calls WHERE command LIKE '%docker pull lmsysorg/sglang:spark%' AND timed_out)
       ORDER BY c.ordinal`,
    ]);
    expect(run.json.map((r) => r.group_size)).toEqual([3, 3, 3]);
    expect(run.json.filter((r) => r.timed_out)).toHaveLength(1);
    expect(new Set(run.json.map((r) => r.tool))).toEqual(new Set(['exa_web_search_exa', 'bash']));
  });

  it('adds 0 rows on a second ingest', async () => {
    const again = await runRetraceJson<Summary>(['ingest', SESSIONS_DIR, '--db', db]);
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ sources: 0, sessions: 0, messages: 0, tool_calls: 0, skipped_unchanged: 1 });
  });

  it('keeps no planted secret anywhere in the database file', () => {
    const bytes = storeBytes(db);
    expect(bytes.length).toBeGreaterThan(0);
    for (const secret of plantedSecrets()) expect(bytes.includes(Buffer.from(secret))).toBe(false);
  });

  it('keeps them with --no-redact', async () => {
    const raw = tempDbPath(dir);
    const run = await runRetraceJson<Summary>(['ingest', SESSIONS_DIR, '--db', raw, '--no-redact']);
    expect(run.json.redactions).toBe(0);
    const found = await runRetraceJson<{ n: number }[]>([
      'sql', '--db', raw,
      `SELECT count(*) AS n FROM tool_calls WHERE ${plantedSecrets().map((s) => `contains(command, '${s}')`).join(' OR ')}`,
    ]);
    expect(found.json[0]?.n).toBeGreaterThan(0);
  });
});

describe('retrace CLI contract', () => {
  const db = tempDbPath(dir);

  beforeAll(async () => {
    await runRetrace(['ingest', SESSIONS_DIR, '--db', db]);
  });

  it('lists sessions as JSON with the documented fields', async () => {
    const run = await runRetraceJson<Record<string, unknown>[]>(['sessions', '--db', db]);
    expect(run.code).toBe(0);
    expect(run.json).toHaveLength(1);
    expect(Object.keys(run.json[0] ?? {})).toEqual(expect.arrayContaining(['id', 'agent', 'title', 'started_at', 'ended_at', 'messages', 'tool_calls']));
    expect(run.json[0]).toMatchObject({ agent: 'opencode', title: expect.stringContaining('Qwen3.5') });
  });

  it('shows a session by title substring and by id prefix, within an ordinal range', async () => {
    const byTitle = await runRetraceJson<{ session: { id: string }; messages: { ordinal: number }[] }>(['show', 'qwen3.5', '--db', db, '--from', '13', '--to', '14']);
    expect(byTitle.json.messages.map((m) => m.ordinal)).toEqual([13, 14]);
    const byPrefix = await runRetrace(['show', byTitle.json.session.id.slice(0, 10), '--db', db, '--from', '13', '--to', '13']);
    expect(byPrefix.code).toBe(0);
    expect(byPrefix.stdout).toContain('docker pull lmsysorg/sglang:spark');
    expect(byPrefix.stdout).toContain('TIMEOUT');
  });

  it('prints sql results as CSV with a header, integers as numbers in JSON', async () => {
    const csv = await runRetrace(['sql', '--db', db, `SELECT 1 AS n, 'a,"b"' AS s`, '--csv']);
    expect(csv.stdout.trim()).toBe('n,s\r\n1,"a,""b"""');
    const json = await runRetraceJson<unknown[]>(['sql', '--db', db, 'SELECT 42::BIGINT AS n, 1152921504606846976::BIGINT AS big']);
    expect(json.json).toEqual([{ n: 42, big: '1152921504606846976' }]);
  });

  it('exits 1 with the query error for bad SQL, 2 for an unknown session or bad usage, no stack traces', async () => {
    const bad = await runRetrace(['sql', '--db', db, 'SELEC nothing']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/query failed: .*syntax error/i);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    const missing = await runRetrace(['show', 'no-such-session', '--db', db]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no session matches "no-such-session"/);
    const usage = await runRetrace(['ingest', '--format', 'word']);
    expect(usage.code).toBe(2);
  });

  it('cannot change the store through sql', async () => {
    const run = await runRetrace(['sql', '--db', db, 'DELETE FROM messages']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/read-only/i);
  });

  it('answers --help on every command with an example', async () => {
    for (const command of ['ingest', 'sessions', 'show', 'sql']) {
      const run = await runRetrace([command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/Examples:\n\s+\$ retrace /);
    }
  });
});

describe('retrace ingest on bad input', () => {
  it('exits 2 when nothing could be read, naming the path', async () => {
    const run = await runRetraceJson<Summary>(['ingest', join(dir, 'nowhere'), '--db', tempDbPath(dir)]);
    expect(run.code).toBe(2);
    expect(run.json.errors[0]).toMatchObject({ file: join(dir, 'nowhere'), message: 'no such file or folder' });
  });

  it('exits 1 and names file and line when part of a source is broken, and ingests the rest', async () => {
    const sample = readFileSync(join(SESSIONS_DIR, readdirSync(SESSIONS_DIR).find((n) => n.endsWith('.json')) ?? ''), 'utf8');
    const broken = join(dir, 'broken-export.json');
    const lines = sample.split('\n');
    const at = lines.findIndex((line) => line.includes('"role": "assistant"')) ;
    lines[at] = '        "role": assistant,';
    writeFileSync(broken, lines.join('\n'));
    const run = await runRetraceJson<Summary>(['ingest', broken, '--db', tempDbPath(dir)]);
    expect(run.code).toBe(1);
    expect(run.json.errors).toHaveLength(1);
    expect(run.json.errors[0]?.file).toBe(broken);
    expect(run.json.errors[0]?.line).toBeLessThanOrEqual(at + 1);
    expect(run.json.errors[0]?.message).toMatch(/invalid JSON/);
    expect(run.json.messages).toBeGreaterThan(30);
  });

  it('refuses a file that is no transcript, with exit 2', async () => {
    const file = join(dir, 'notes.json');
    writeFileSync(file, '{"hello": "world"}');
    const run = await runRetraceJson<Summary>(['ingest', file, '--db', tempDbPath(dir)]);
    expect(run.code).toBe(2);
    expect(run.json.errors[0]?.message).toMatch(/not a transcript retrace can read/);
  });
});
