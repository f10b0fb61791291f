// Real transcripts people committed to public repositories (test/fixtures/real/, provenance in
// SOURCES.md) are ingested together by one run of the built CLI, and the store's counts of each
// file's sessions are compared with what the independent counter (scripts/count-real/count.mjs,
// definitions in COUNTING.md) read in the same files. A failure names the file; known format gaps are expected to fail here until
// they are fixed, which is the point: the expectations come from the transcripts, not from retrace.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runRetraceJson } from '../helpers/cli.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { Database } from '../../src/store/database.js';

const CORPUS = join(REPO_ROOT, 'test/fixtures/real');
const COUNTER = join(REPO_ROOT, 'scripts/count-real/count.mjs');

interface Expected {
  agent: 'claude' | 'codex' | 'opencode';
  sessions: number;
  messages: number;
  tool_calls: number;
  shell_calls: number;
  exit_codes: Record<string, number>;
  timeouts: number;
  duration_ms: number;
  deploys: boolean | null;
  first_request: string | null;
}

/** The tools that run a shell command, by the name each agent gives them (COUNTING.md). */
const SHELL_TOOLS: Record<Expected['agent'], readonly string[]> = {
  claude: ['Bash', 'PowerShell'],
  codex: ['shell', 'container.exec', 'shell_command', 'exec_command', 'local_shell'],
  opencode: ['bash'],
};

const expected = JSON.parse(readFileSync(join(CORPUS, 'expected.json'), 'utf8')) as Record<string, Expected>;
const dir = tempDir('retrace-real-');

/** Reads the store the CLI wrote (read-only, in this process: a second CLI start per query costs more than the query). */
async function sql<T>(db: string, query: string): Promise<T[]> {
  const store = await Database.open(db, { readOnly: true });
  try {
    return (await store.all(query)) as T[];
  } finally {
    store.close();
  }
}

/** One store holding every fixture, ingested by one CLI run as a user's archive would be. */
let corpusDb: Promise<string> | undefined;
function ingestCorpus(): Promise<string> {
  corpusDb ??= (async () => {
    const db = tempDbPath(dir);
    const paths = Object.keys(expected).map((fixture) => join(CORPUS, fixture));
    const ingest = await runRetraceJson<{ errors: unknown[] }>(['ingest', ...paths, '--db', db]);
    if (ingest.code !== 0) throw new Error(`retrace ingest of the real corpus failed (exit ${ingest.code}): ${ingest.stderr}`);
    return db;
  })();
  return corpusDb;
}

/** What the store holds of one fixture (the sessions of the sources read from it), in the counter's terms. */
async function storeCounts(fixture: string, agent: Expected['agent']) {
  const db = await ingestCorpus();
  const path = join(CORPUS, fixture).replaceAll("'", "''");
  // A folder holds what is under it; a Claude session file also holds its subagents (`<id>/subagents/*.jsonl`), as ingesting it alone reads them.
  const under = [path, path.replace(/\.jsonl$/, '')].map((prefix) => `starts_with(path, '${prefix}/')`).join(' OR ');
  const ofFixture = `session_id IN (SELECT id FROM sessions WHERE source IN (SELECT key FROM sources WHERE path = '${path}' OR ${under}))`;
  const shell = SHELL_TOOLS[agent].map((name) => `'${name}'`).join(', ');
  const [totals] = await sql<Record<string, number>>(db, `SELECT
      (SELECT count(*) FROM sessions WHERE ${ofFixture.replace('session_id IN', 'id IN')}) AS sessions,
      (SELECT count(*) FROM messages WHERE ${ofFixture}) AS messages,
      (SELECT count(*) FROM tool_calls WHERE ${ofFixture}) AS tool_calls,
      (SELECT count(*) FROM tool_calls WHERE ${ofFixture} AND tool IN (${shell})) AS shell_calls,
      (SELECT count(*) FROM tool_calls WHERE ${ofFixture} AND tool IN (${shell}) AND timed_out) AS timeouts,
      (SELECT coalesce(sum(duration_ms), 0) FROM tool_calls WHERE ${ofFixture}) AS duration_ms`);
  const exits = await sql<{ code: string; n: number }>(db, `SELECT coalesce(CAST(exit_code AS VARCHAR), 'null') AS code, count(*) AS n
      FROM tool_calls WHERE ${ofFixture} AND tool IN (${shell}) GROUP BY 1`);
  return {
    sessions: Number(totals?.sessions),
    messages: Number(totals?.messages),
    tool_calls: Number(totals?.tool_calls),
    shell_calls: Number(totals?.shell_calls),
    exit_codes: Object.fromEntries(exits.map((row) => [row.code, Number(row.n)])),
    timeouts: Number(totals?.timeouts),
    duration_ms: Number(totals?.duration_ms),
  };
}

describe('real transcripts: retrace ingest counts what the independent counter counts', () => {
  it('covers at least 45 fixtures of all three agents', () => {
    const agents = new Set(Object.values(expected).map((e) => e.agent));
    expect(Object.keys(expected).length).toBeGreaterThanOrEqual(45);
    expect(agents).toEqual(new Set(['claude', 'codex', 'opencode']));
  });

  for (const [fixture, want] of Object.entries(expected)) {
    it(`${fixture}`, { timeout: 600_000 }, async () => {
      const got = await storeCounts(fixture, want.agent);
      const { agent: _agent, deploys: _deploys, first_request: _first, ...counts } = want;
      expect(got).toEqual(counts);
    });
  }
});

describe('the independent counter', () => {
  it('reproduces expected.json from the fixtures (so the expectations cannot drift)', { timeout: 120_000 }, () => {
    const printed = execFileSync(process.execPath, [COUNTER], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(JSON.parse(printed)).toEqual(expected);
  });
});
