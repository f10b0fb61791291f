import { readFileSync } from 'node:fs';
import { decompress } from 'fzstd';
import { describe, expect, it } from 'vitest';
import type { Line } from '../../src/ingest/io/line-reader.js';
import { readZstdLines } from '../../src/ingest/io/zstd-lines.js';
import { HeldMessages } from '../../src/ingest/jsonl/held-messages.js';
import { parseJsonLine } from '../../src/ingest/jsonl/parse-line.js';
import { issuedCall } from '../../src/ingest/jsonl/values.js';
import { emptyMessage, type IngestItem } from '../../src/core/model.js';
import { CODEX_E_ZST } from './agent-fixtures.js';

const line = (text: string, extra: Partial<Line> = {}): Line => ({ text, number: 7, start: 0, end: text.length + 1, complete: true, validUtf8: true, ...extra });

describe('JSONL lines (shared by the Claude Code and Codex readers)', () => {
  it('name the file and line of every kind of bad line', () => {
    const problem = (parsed: ReturnType<typeof parseJsonLine>) => (parsed.kind === 'bad' ? parsed.problem : null);
    expect(problem(parseJsonLine(line('{"a":'), 'f.jsonl'))).toEqual({ kind: 'problem', message: expect.stringMatching(/^invalid JSON: /), location: { file: 'f.jsonl', line: 7 } });
    expect(problem(parseJsonLine(line('{"a":', { complete: false }), 'f.jsonl'))?.message).toMatch(/^incomplete last line/);
    expect(problem(parseJsonLine(line('', { oversized: 300_000_000 }), 'f.jsonl'))?.message).toBe('line of 300000000 bytes is over the size limit; skipped');
    expect(problem(parseJsonLine(line('[1,2]'), 'f.jsonl'))?.message).toBe('expected a JSON object on each line, got an array');
    expect(parseJsonLine(line('   '), 'f.jsonl')).toEqual({ kind: 'blank' });
    const latin1 = parseJsonLine(line('{"out":"caf\ufffd"}', { validUtf8: false }), 'f.jsonl');
    expect(latin1).toMatchObject({ kind: 'object', value: { out: 'caf\ufffd' }, problems: [{ location: { line: 7 } }] });
  });

  it('a .zst file is decompressed as a stream, to the same lines however it is chunked', async () => {
    const expected = Buffer.from(decompress(readFileSync(CODEX_E_ZST))).toString('utf8').split('\n').filter((text) => text.length > 0);
    const texts: string[] = [];
    for await (const read of readZstdLines(CODEX_E_ZST, { highWaterMark: 13 })) texts.push(read.text);
    expect(texts).toEqual(expected);
  });
});

describe('held messages', () => {
  const message = (id: string) => emptyMessage('s', id, 'assistant');
  const call = (callId: string) => issuedCall({ sessionId: 's', messageId: 'm', callId, tool: 'Bash', input: '{}', command: 'true', startedAt: 1 });
  const ids = (items: IngestItem[]) => items.map((item) => (item.kind === 'message' ? item.message.id : item.kind));

  it('keep file order: a message waits for its calls, and the ones after it wait too', () => {
    const held = new HeldMessages();
    const first = held.hold(message('m1'), { file: 'f' }, false);
    held.addCall(first, call('c1'), true);
    held.hold(message('m2'), { file: 'f' }, false);
    expect(ids(held.release())).toEqual([]);
    expect(held.idle()).toBe(false);
    expect(held.update('c1', (c) => ({ ...c, status: 'completed' }))).toEqual([]);
    expect(ids(held.release())).toEqual(['m1', 'm2']);
    expect(held.idle()).toBe(true);
    expect(held.update('unknown', (c) => c)).toBeNull();
  });

  it('write messages anyway when too many wait, and write a late result again with its call', () => {
    const held = new HeldMessages(2);
    const first = held.hold(message('m1'), { file: 'f' }, false);
    held.addCall(first, call('c1'), true);
    held.hold(message('m2'), { file: 'f' }, false);
    held.hold(message('m3'), { file: 'f' }, false);
    expect(ids(held.release())).toEqual(['m1', 'm2', 'm3']);
    const late = held.update('c1', (c) => ({ ...c, status: 'completed', exitCode: 0 })) ?? [];
    expect(late).toMatchObject([{ kind: 'message', message: { id: 'm1' }, toolCalls: [{ callId: 'c1', status: 'completed', exitCode: 0 }] }]);
  });
});
