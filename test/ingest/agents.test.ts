import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { CLAUDE_A, CODEX_C, FIXTURES } from './agent-fixtures.js';

const dir = tempDir();

/** The lines of a fixture, each with its newline. */
function fixtureLines(file: string): string[] {
  return readFileSync(file, 'utf8').split(/(?<=\n)/);
}

/**
 * A copy of a transcript in a folder of its own: a Claude session file beside its `<session>/`
 * folder brings its subagents along, and the runs compared here read the one file only.
 */
function alone(source: string, name: string): string {
  const folder = join(dir, `alone-${name}`);
  mkdirSync(folder, { recursive: true });
  const copy = join(folder, source.slice(source.lastIndexOf('/') + 1));
  writeFileSync(copy, readFileSync(source));
  return copy;
}

/** Every row a transcript produced, ordinals included, to compare two ways of ingesting it. */
function snapshot(dbPath: string) {
  return queryStore(dbPath, async (db) => ({
    sessions: await db.all(`SELECT id, agent, parent_id, title, directory, started_at, ended_at, model, message_count, tool_call_count, extra FROM sessions ORDER BY id`),
    messages: await db.all(`SELECT * FROM messages ORDER BY session_id, ordinal`),
    calls: await db.all(`SELECT * FROM tool_calls ORDER BY session_id, ordinal`),
  }));
}

describe('all three agents in one store', () => {
  const dbPath = tempDbPath(dir);

  it('ingest side by side with no problem, each session with its agent', async () => {
    const summary = await ingestPaths(dbPath, [join(FIXTURES, 'claude', 'projects'), join(FIXTURES, 'codex', 'sessions'), SESSIONS_DIR]);
    expect(summary.errors).toEqual([]);
    const agents = await queryStore(dbPath, (db) =>
      db.all(`SELECT agent, count(*)::INTEGER AS sessions, count(parent_id)::INTEGER AS subagents FROM sessions GROUP BY agent ORDER BY agent`),
    );
    expect(agents).toEqual([
      { agent: 'claude', sessions: 4, subagents: 2 },
      { agent: 'codex', sessions: 4, subagents: 1 },
      { agent: 'opencode', sessions: 1, subagents: 0 },
    ]);
  });

  it('answer the same SQL over tool_calls with the same meanings for every agent', async () => {
    const perAgent = await queryStore(dbPath, (db) =>
      db.all(`SELECT s.agent,
                count(c.command)::INTEGER AS commands,
                count(*) FILTER (WHERE c.command IS NOT NULL AND c.exit_code = 0)::INTEGER AS succeeded,
                count(*) FILTER (WHERE c.exit_code <> 0 AND NOT c.timed_out)::INTEGER AS failed,
                count(*) FILTER (WHERE c.timed_out)::INTEGER AS timed_out,
                count(*) FILTER (WHERE c.command IS NOT NULL AND c.duration_ms IS NULL)::INTEGER AS commands_without_duration,
                min(c.duration_ms) FILTER (WHERE c.timed_out) AS shortest_timeout_ms
              FROM tool_calls c JOIN sessions s ON s.id = c.session_id GROUP BY s.agent ORDER BY s.agent`),
    );
    for (const row of perAgent) {
      expect(row['commands']).toBeGreaterThan(0);
      expect(row['succeeded']).toBeGreaterThan(0);
      expect(row['failed']).toBeGreaterThan(0);
      expect(row['timed_out']).toBe(1);
      expect(row['commands_without_duration']).toBe(0);
      // Every recorded timeout is a command killed at its limit (120 s for Claude Code and opencode, 300 s here for Codex).
      expect(Number(row['shortest_timeout_ms'])).toBeGreaterThanOrEqual(120_000);
    }
    expect(perAgent.map((row) => row['agent'])).toEqual(['claude', 'codex', 'opencode']);
    const pulls = await queryStore(dbPath, (db) =>
      db.all(`SELECT s.agent, c.exit_code, c.timed_out FROM tool_calls c JOIN sessions s ON s.id = c.session_id
              WHERE c.command LIKE '%docker pull%' AND c.timed_out ORDER BY s.agent`),
    );
    // A timeout is never a failure with an exit code, except that Codex records the 124 it killed with.
    expect(pulls).toEqual([
      { agent: 'codex', exit_code: 124, timed_out: true },
      { agent: 'opencode', exit_code: null, timed_out: true },
    ]);
  });
});

describe('a transcript that grows', () => {
  async function grow(name: string, source: string, cutAfter: number, firstProblems: number) {
    const lines = fixtureLines(source);
    const folder = join(dir, `grow-${name}`);
    mkdirSync(folder, { recursive: true });
    const copy = join(folder, source.slice(source.lastIndexOf('/') + 1));
    writeFileSync(copy, lines.slice(0, cutAfter).join(''));
    const growing = tempDbPath(dir);
    const first = await ingestPaths(growing, [copy]);
    expect(first.errors).toHaveLength(firstProblems);
    const consumed = await queryStore(growing, (db) => db.all(`SELECT bytes_consumed, size FROM sources`));
    appendFileSync(copy, lines.slice(cutAfter).join(''));
    const second = await ingestPaths(growing, [copy]);
    const third = await ingestPaths(growing, [copy]);
    const whole = tempDbPath(dir);
    await ingestPaths(whole, [alone(source, name)]);
    return { first, second, third, consumed: consumed[0] as { bytes_consumed: bigint | number; size: bigint | number }, growing, whole };
  }

  it('Claude Code: reads only from the last settled line, and completes a call whose result came later', async () => {
    // Line 22 issues the download; its (timed-out) result is line 25, in the appended part.
    const run = await grow('claude', CLAUDE_A, 23, 0);
    expect(Number(run.consumed.bytes_consumed)).toBeLessThan(Number(run.consumed.size));
    expect(run.second).toMatchObject({ resumed: 1, errors: [] });
    expect(run.second.messages + run.first.messages).toBe(17); // the message still waiting was written again, in place
    expect(run.second.tool_calls_updated).toBe(1);
    expect(run.third.skipped_unchanged).toBe(1);
    const call = await queryStore(run.growing, (db) =>
      db.all(`SELECT status, timed_out, duration_ms FROM tool_calls WHERE call_id = 'toolu_014XQ6IsRqZXfSv5xDRrCL61'`),
    );
    expect(call).toEqual([{ status: 'completed', timed_out: true, duration_ms: 120412 }]);
    expect(await snapshot(run.growing)).toEqual(await snapshot(run.whole));
  });

  it('Codex: a last line cut mid-write is reported, then read whole once the rest arrives', async () => {
    const lines = fixtureLines(CODEX_C);
    // Lines 45–46 issue two pulls, line 47 counts tokens; line 48 (an output) is cut in half.
    const half = (lines[47] as string).slice(0, 60);
    const folder = join(dir, 'grow-codex-cut');
    mkdirSync(folder, { recursive: true });
    const copy = join(folder, 'rollout-2026-03-11T09-14-03-019cdc2c-b578-75be-8b9e-001e204112ed.jsonl');
    writeFileSync(copy, lines.slice(0, 47).join('') + half);
    const growing = tempDbPath(dir);
    const first = await ingestPaths(growing, [copy]);
    expect(first.errors).toEqual([expect.objectContaining({ file: copy, line: 48, message: expect.stringMatching(/^incomplete last line/) })]);
    appendFileSync(copy, (lines[47] as string).slice(60) + lines.slice(48).join(''));
    const second = await ingestPaths(growing, [copy]);
    expect(second).toMatchObject({ resumed: 1, errors: [] });
    const whole = tempDbPath(dir);
    await ingestPaths(whole, [CODEX_C]);
    expect(await snapshot(growing)).toEqual(await snapshot(whole));
  });

  it('Codex: resuming mid-turn still knows the session and the model of the turn', async () => {
    // After line 81 (two calls of gpt-5.2-codex's first response, no outputs yet).
    const run = await grow('codex', CODEX_C, 81, 0);
    expect(run.second).toMatchObject({ resumed: 1, errors: [] });
    expect(await snapshot(run.growing)).toEqual(await snapshot(run.whole));
    expect(statSync(CODEX_C).size).toBe(Number((await queryStore(run.growing, (db) => db.all(`SELECT bytes_consumed FROM sources`)))[0]?.['bytes_consumed']));
  });
});

describe('a transcript cut at any byte and then completed', () => {
  for (const [name, source] of [['Claude Code', CLAUDE_A], ['Codex', CODEX_C]] as const) {
    it(`${name}: ingests what is there, then ends with the same rows as a whole read`, async () => {
      const bytes = readFileSync(source);
      const whole = tempDbPath(dir);
      await ingestPaths(whole, [alone(source, `cut-${name.replace(' ', '')}`)]);
      const expected = await snapshot(whole);
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: bytes.length - 1 }), async (cut) => {
          const folder = join(dir, `cut-${name.replace(' ', '')}-${cut}`);
          mkdirSync(folder, { recursive: true });
          const copy = join(folder, source.slice(source.lastIndexOf('/') + 1));
          writeFileSync(copy, bytes.subarray(0, cut));
          const growing = tempDbPath(dir);
          const first = await ingestPaths(growing, [copy]);
          expect(first.failed_sources).toBe(0);
          appendFileSync(copy, bytes.subarray(cut));
          const second = await ingestPaths(growing, [copy]);
          expect(second.failed_sources).toBe(0);
          expect(await snapshot(growing)).toEqual(expected);
        }),
        { numRuns: 10 },
      );
    }, 120_000);
  }
});

describe('bad lines', () => {
  it('are reported with file and line while everything around them is ingested', async () => {
    const lines = fixtureLines(CLAUDE_A);
    const file = join(dir, 'broken', 'd96690bf-84e5-4021-84e4-48dbd0b8dfa3.jsonl');
    mkdirSync(join(dir, 'broken'), { recursive: true });
    const wrongTypes = JSON.parse(lines[20] as string) as { message: { id: unknown } };
    wrongTypes.message.id = 42;
    const parts: (string | Buffer)[] = [
      ...lines.slice(0, 3),
      '{"type":"user", "message": {oops\n', // line 4: invalid JSON
      Buffer.from([0x7b, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]), // line 5: {"type":"\xff\xfe"} not UTF-8
      `${JSON.stringify(wrongTypes)}\n`, // line 6: message.id is a number
      '{"type":"brand-new-record","sessionId":"d96690bf-84e5-4021-84e4-48dbd0b8dfa3","what":"from a future version"}\n', // line 7
      ...lines.slice(3),
      '{"type":"assistant","message":{"id":"msg_cut', // a last line still being written
    ];
    writeFileSync(file, Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part))));
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [file]);
    const total = lines.length + 5;
    expect(summary.errors.map((error) => [error.file, error.line, error.message.split(':')[0]])).toEqual([
      [file, 4, 'invalid JSON'],
      [file, 5, 'line is not valid UTF-8; read with U+FFFD in place of the bad bytes'],
      [file, 6, 'assistant message'],
      [file, total, 'incomplete last line (no newline after it; still being written?)'],
    ]);
    expect(summary.failed_sources).toBe(0);
    expect([summary.sessions, summary.messages, summary.tool_calls]).toEqual([1, 17, 17]);
    const kept = await queryStore(dbPath, (db) => db.all(`SELECT what, line FROM unknown_records WHERE what NOT IN ('line:progress') ORDER BY line`));
    expect(kept).toEqual(expect.arrayContaining([{ what: 'line:brand-new-record', line: 7 }, { what: `line:\ufffd\ufffd`, line: 5 }]));
  });
});
