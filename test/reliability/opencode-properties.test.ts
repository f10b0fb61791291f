import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatedSession, toExport, type GeneratedMessage } from '../helpers/opencode-arbitraries.js';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir('retrace-props-');
let fileCounter = 0;

function writeExport(bytes: Buffer | string): string {
  fileCounter += 1;
  const file = join(dir, `export-${fileCounter}.json`);
  writeFileSync(file, bytes);
  return file;
}

async function ingestedIds(dbPath: string): Promise<string[]> {
  return queryStore(dbPath, async (db) => (await db.all('SELECT id FROM messages ORDER BY ordinal')).map((r) => String(r['id'])));
}

/** The byte range of message `index` in a pretty-printed export, found by its unique id. */
function elementLines(text: string, messages: readonly GeneratedMessage[], index: number): { first: number; last: number } {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => line.includes(`"id": "${messages[index]?.id}"`)) + 1;
  const next = messages[index + 1];
  const last = next ? lines.findIndex((line) => line.includes(`"id": "${next.id}"`)) : lines.length;
  return { first: Math.max(1, first - 4), last };
}

describe('opencode export: generated valid transcripts ingest losslessly', () => {
  it('keeps every text, reasoning, command, output, exit code and duration', async () => {
    await fc.assert(
      fc.asyncProperty(generatedSession, async (messages) => {
        const file = writeExport(JSON.stringify(toExport(messages), null, 2));
        const dbPath = tempDbPath(dir);
        const summary = await ingestPaths(dbPath, [file], { redact: false });
        expect(summary.errors).toEqual([]);
        const stored = await queryStore(dbPath, async (db) => ({
          messages: await db.all('SELECT id, role, text, reasoning FROM messages ORDER BY ordinal'),
          calls: await db.all('SELECT call_id, command, output, exit_code, duration_ms FROM tool_calls ORDER BY ordinal'),
        }));
        expect(stored.messages).toEqual(messages.map((m) => ({ id: m.id, role: m.role, text: m.text, reasoning: m.reasoning })));
        expect(stored.calls).toEqual(
          messages.flatMap((m) => m.calls).map((c) => ({ call_id: c.callId, command: c.command, output: c.output, exit_code: c.exit, duration_ms: c.durationMs })),
        );
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});

type Mutation = 'wrong-type' | 'missing-id' | 'broken-json' | 'invalid-utf8' | 'deep-nesting';

function mutateMessage(doc: ReturnType<typeof toExport>, index: number, mutation: Mutation): Buffer {
  const message = doc.messages[index];
  if (!message) throw new Error('no such message');
  const marker = `MUTATION_${index}`;
  if (mutation === 'wrong-type') message.info['role'] = 42;
  if (mutation === 'missing-id') delete message.info['id'];
  if (mutation === 'deep-nesting') message.parts.push({ id: `prt_deep_${index}`, type: 'tool', callID: 'deep', tool: 'bash', state: { status: 'completed', input: {}, metadata: { nested: marker } } });
  if (mutation === 'broken-json' || mutation === 'invalid-utf8') message.info['note'] = marker;
  let text = JSON.stringify(doc, null, 2);
  if (mutation === 'deep-nesting') text = text.replace(`"${marker}"`, `${'['.repeat(20_000)}${']'.repeat(20_000)}`);
  if (mutation === 'broken-json') text = text.replace(`"note": "${marker}"`, `"note" "${marker}"`);
  if (mutation === 'invalid-utf8') {
    const [before, after] = text.split(marker) as [string, string];
    return Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(after)]);
  }
  return Buffer.from(text);
}

describe('opencode export: mutated transcripts', () => {
  it('never crash, keep every other message, and report the bad one with file and line', async () => {
    await fc.assert(
      fc.asyncProperty(
        generatedSession,
        fc.nat(),
        fc.constantFrom<Mutation>('wrong-type', 'missing-id', 'broken-json', 'invalid-utf8', 'deep-nesting'),
        async (messages, pick, mutation) => {
          const index = pick % messages.length;
          const bytes = mutateMessage(toExport(messages), index, mutation);
          const file = writeExport(bytes);
          const dbPath = tempDbPath(dir);
          const summary = await ingestPaths(dbPath, [file], { redact: false });
          const ids = await ingestedIds(dbPath);
          const others = messages.filter((_, i) => i !== index).map((m) => m.id);
          expect(ids).toEqual(expect.arrayContaining(others));
          if (mutation === 'deep-nesting') {
            // Valid JSON of any depth is kept: the part below 512 levels as its JSON text.
            expect(summary.errors).toEqual([]);
            expect(ids).toContain(messages[index]?.id);
            return;
          }
          expect(summary.errors.length).toBeGreaterThanOrEqual(1);
          const error = summary.errors[0];
          expect(error?.file).toBe(file);
          const { first, last } = elementLines(bytes.toString('utf8'), messages, index);
          expect(error?.line).toBeGreaterThanOrEqual(first);
          expect(error?.line).toBeLessThanOrEqual(last);
          if (mutation === 'invalid-utf8') expect(ids).toContain(messages[index]?.id);
        },
      ),
      { numRuns: 40 },
    );
  }, 180_000);

  it('cut at any byte: keep the messages before the cut, report the line it stopped on', async () => {
    await fc.assert(
      fc.asyncProperty(generatedSession, fc.double({ min: 0.05, max: 0.95, noNaN: true }), async (messages, fraction) => {
        const text = JSON.stringify(toExport(messages), null, 2);
        const bytes = Buffer.from(text);
        const cut = bytes.subarray(0, Math.floor(bytes.length * fraction));
        const file = writeExport(cut);
        const dbPath = tempDbPath(dir);
        const summary = await ingestPaths(dbPath, [file], { redact: false });
        const ids = await ingestedIds(dbPath).catch(() => []);
        const cutText = cut.toString('utf8');
        const complete = messages.filter((m, i) => {
          const next = messages[i + 1];
          return next ? cutText.includes(`"id": "${next.id}"`) : false;
        });
        expect(ids).toEqual(expect.arrayContaining(complete.map((m) => m.id)));
        expect(summary.errors.length).toBeGreaterThanOrEqual(1);
        expect(summary.errors.at(-1)?.line).toBe(cutText.split('\n').length);
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  it('reads a BOM and CRLF line endings like the plain file', async () => {
    await fc.assert(
      fc.asyncProperty(generatedSession, async (messages) => {
        const text = JSON.stringify(toExport(messages), null, 2).replace(/\n/g, '\r\n');
        const file = writeExport(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
        const dbPath = tempDbPath(dir);
        const summary = await ingestPaths(dbPath, [file], { redact: false });
        expect(summary.errors).toEqual([]);
        expect(await ingestedIds(dbPath)).toEqual(messages.map((m) => m.id));
      }),
      { numRuns: 10 },
    );
  }, 60_000);

  it('takes the last of duplicate keys, as JSON.parse does, without an error', async () => {
    const messages: GeneratedMessage[] = [0, 1, 2].map((i) => ({ id: `msg_dup${i}`, role: 'user', text: `t${i}`, reasoning: '', created: 1_772_113_267_000 + i, calls: [] }));
    const text = JSON.stringify(toExport(messages), null, 2).replace('"text": "t1"', '"text": "first", "text": "t1"');
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [writeExport(text)], { redact: false });
    expect(summary.errors).toEqual([]);
    expect(await queryStore(dbPath, (db) => db.scalar(`SELECT text FROM messages WHERE id = 'msg_dup1'`))).toBe('t1');
  });

  it('ingests a transcript with one 100 MB tool output, streaming it, the output kept as its head and tail', async () => {
    const messages: GeneratedMessage[] = [0, 1, 2].map((i) => ({ id: `msg_big${i}`, role: 'assistant', text: `t${i}`, reasoning: '', created: 1_772_113_267_000 + i * 1000, calls: [] }));
    const huge = 'x'.repeat(100 * 1024 * 1024);
    messages[1]?.calls.push({ callId: 'call_big', command: 'cat big.log', output: huge, exit: 0, start: 1_772_113_268_000, durationMs: 5 });
    const file = writeExport(JSON.stringify(toExport(messages)));
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [file], { redact: true });
    expect(summary.errors).toEqual([]);
    const kept = await queryStore(dbPath, (db) => db.one(`SELECT output, truncated FROM tool_calls WHERE call_id = 'call_big'`));
    expect(kept?.['truncated']).toBe(true);
    const output = String(kept?.['output']);
    expect(output.startsWith(huge.slice(0, 4 * 1024 * 1024))).toBe(true);
    expect(output.endsWith(huge.slice(0, 4 * 1024 * 1024))).toBe(true);
    expect(output).toMatch(new RegExp(`\\[… retrace kept the first and last 4,194,304 characters of this text: ${huge.length.toLocaleString('en-US')} bytes in all, sha256 [0-9a-f]{64} …\\]`));
  }, 120_000);
});
