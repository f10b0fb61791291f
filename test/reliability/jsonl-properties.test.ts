import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { CLAUDE_A, CODEX_C } from '../ingest/agent-fixtures.js';

/**
 * The Claude Code and Codex adapters under mutated input: one line of a real-format transcript is
 * broken in one of the ways real files break, and the rest must still be there, with the bad line
 * reported by file and line number. (The opencode adapter has its own: opencode-properties.)
 */
const dir = tempDir('retrace-jsonl-props-');
let counter = 0;

type Mutation = 'truncate' | 'invalid-utf8' | 'wrong-type' | 'missing-field' | 'deep-nesting' | 'duplicate-key' | 'not-an-object';
const MUTATIONS: readonly Mutation[] = ['truncate', 'invalid-utf8', 'wrong-type', 'missing-field', 'deep-nesting', 'duplicate-key', 'not-an-object'];
/** Mutations that make a line unreadable: these must be reported at that line. */
const UNREADABLE: ReadonlySet<Mutation> = new Set(['truncate', 'invalid-utf8', 'not-an-object']);

function mutateLine(line: string, mutation: Mutation): Buffer {
  const body = line.replace(/\n$/, '');
  const object = JSON.parse(body) as Record<string, unknown>;
  switch (mutation) {
    case 'truncate':
      return Buffer.from(`${body.slice(0, Math.max(1, Math.floor(body.length / 2)))}\n`);
    case 'invalid-utf8':
      return Buffer.concat([Buffer.from(body.slice(0, 1)), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(`${body.slice(1)}\n`)]);
    case 'wrong-type':
      return Buffer.from(`${JSON.stringify({ ...object, timestamp: 42, payload: object['payload'] === undefined ? undefined : 'x', message: object['message'] === undefined ? undefined : 7 })}\n`);
    case 'missing-field': {
      const { type: _type, ...rest } = object;
      return Buffer.from(`${JSON.stringify(rest)}\n`);
    }
    case 'deep-nesting':
      return Buffer.from(`${body.slice(0, -1)},"deep":${'['.repeat(20_000)}${']'.repeat(20_000)}}\n`);
    case 'duplicate-key':
      return Buffer.from(`{"type":${JSON.stringify(object['type'])},${body.slice(1)}\n`);
    case 'not-an-object':
      return Buffer.from(`${JSON.stringify([object])}\n`);
  }
}

async function ids(dbPath: string): Promise<{ messages: Set<string>; calls: Set<string> }> {
  return queryStore(dbPath, async (db) => ({
    messages: new Set((await db.all('SELECT id FROM messages')).map((r) => String(r['id']))),
    calls: new Set((await db.all('SELECT call_id FROM tool_calls')).map((r) => String(r['call_id']))),
  }));
}

/** Ids a line itself carries: its loss may take these with it, and nothing else. */
function idsOnLine(line: string): string[] {
  return [...line.matchAll(/"(?:id|uuid|call_id|tool_use_id)":"([^"]+)"/g)].map((m) => m[1] as string);
}

/** A copy in a folder of its own: a Claude session file beside its `<session>/` folder brings its subagents along. */
function alone(source: string, name: string): string {
  const folder = join(dir, `alone-${name}`);
  mkdirSync(folder, { recursive: true });
  const copy = join(folder, basename(source));
  writeFileSync(copy, readFileSync(source));
  return copy;
}

for (const [agent, source] of [['Claude Code', CLAUDE_A], ['Codex', CODEX_C]] as const) {
  describe(`${agent} transcripts, mutated`, () => {
    const lines = readFileSync(source, 'utf8').split(/(?<=\n)/);

    it('never crash, keep every record not on the broken line, and report unreadable lines by file and line', async () => {
      const clean = tempDbPath(dir);
      await ingestPaths(clean, [alone(source, `clean-${agent.replace(' ', '')}`)], { redact: false });
      const expected = await ids(clean);
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: lines.length - 1 }), fc.constantFrom(...MUTATIONS), async (index, mutation) => {
          counter += 1;
          const folder = join(dir, `m${counter}`);
          mkdirSync(folder, { recursive: true });
          const file = join(folder, basename(source));
          writeFileSync(file, Buffer.concat(lines.map((line, i) => (i === index ? mutateLine(line, mutation) : Buffer.from(line)))));
          const dbPath = tempDbPath(dir);
          const summary = await ingestPaths(dbPath, [file], { redact: false });
          expect(summary.failed_sources).toBe(0);
          const got = await ids(dbPath);
          // Calls with no id of their own (a Codex web search) are named after their line.
          const mayLose = new Set([...idsOnLine(lines[index] as string), `web_search-line-${index + 1}`, `local_shell-line-${index + 1}`]);
          const messageLines = new Set([`line-${index + 1}`, `line-${index + 2}`]);
          for (const id of expected.messages) if (!mayLose.has(id) && !messageLines.has(id)) expect(got.messages, `message ${id} after ${mutation} of line ${index + 1}`).toContain(id);
          for (const id of expected.calls) if (!mayLose.has(id)) expect(got.calls, `call ${id} after ${mutation} of line ${index + 1}`).toContain(id);
          for (const error of summary.errors) expect(error.file).toBe(file);
          if (UNREADABLE.has(mutation)) expect(summary.errors.map((e) => e.line)).toContain(index + 1);
        }),
        { numRuns: 40 },
      );
    }, 240_000);

    it('reads a BOM and CRLF line endings like the plain file', async () => {
      const clean = tempDbPath(dir);
      await ingestPaths(clean, [alone(source, `bom-${agent.replace(' ', '')}`)], { redact: false });
      const folder = join(dir, `crlf-${agent.replace(' ', '')}`);
      mkdirSync(folder, { recursive: true });
      const file = join(folder, basename(source));
      writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join('').replace(/\n/g, '\r\n'))]));
      const dbPath = tempDbPath(dir);
      const summary = await ingestPaths(dbPath, [file], { redact: false });
      expect(summary.errors).toEqual([]);
      expect(await ids(dbPath)).toEqual(await ids(clean));
    });
  });
}

describe('a 100 MB line', () => {
  it('is ingested (a tool result of 100 MB kept as its head and tail), the lines around it too', async () => {
    const lines = readFileSync(CLAUDE_A, 'utf8').split(/(?<=\n)/);
    const at = lines.findIndex((line) => line.includes('"tool_result"'));
    const record = JSON.parse(lines[at] as string) as { message: { content: { content: string }[] }; toolUseResult?: { stdout: string } };
    const huge = 'y'.repeat(100 * 1024 * 1024);
    (record.message.content[0] as { content: string }).content = huge;
    if (record.toolUseResult) record.toolUseResult.stdout = 'see content';
    const folder = join(dir, 'huge');
    mkdirSync(folder, { recursive: true });
    const file = join(folder, basename(CLAUDE_A));
    writeFileSync(file, [...lines.slice(0, at), `${JSON.stringify(record)}\n`, ...lines.slice(at + 1)].join(''));
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [file]);
    expect(summary.errors).toEqual([]);
    const kept = await queryStore(dbPath, (db) => db.one(`SELECT output, truncated, extra FROM tool_calls WHERE output LIKE 'yyyy%'`));
    expect(kept?.['truncated']).toBe(true);
    expect(String(kept?.['output'])).toContain(`${huge.length.toLocaleString('en-US')} bytes in all`);
    expect(JSON.parse(String(kept?.['extra']))).toMatchObject({ retrace_cut: { output: { bytes: huge.length } } });
    expect(summary.messages).toBe(17);
  }, 120_000);
});
