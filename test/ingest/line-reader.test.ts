import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLines, type Line } from '../../src/ingest/io/line-reader.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir();

async function lines(content: Buffer | string, options: Parameters<typeof readLines>[1] = {}): Promise<Line[]> {
  const file = join(dir, `f-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, content);
  const out: Line[] = [];
  for await (const line of readLines(file, options)) out.push(line);
  return out;
}

describe('readLines', () => {
  it('splits on LF and CRLF, strips a BOM, and reports offsets and numbers', async () => {
    const result = await lines('\ufeffa\r\nbb\ncc');
    expect(result.map((l) => [l.text, l.number, l.start, l.end, l.complete])).toEqual([
      ['a', 1, 0, 6, true],
      ['bb', 2, 6, 9, true],
      ['cc', 3, 9, 11, false],
    ]);
  });

  it('keeps lines intact across chunk boundaries', async () => {
    const text = Array.from({ length: 200 }, (_, i) => `line-${i}-${'x'.repeat(i)}`).join('\n') + '\n';
    const result = await lines(text, { highWaterMark: 7 });
    expect(result).toHaveLength(200);
    expect(result[199]?.text).toBe(`line-199-${'x'.repeat(199)}`);
    expect(result.every((l) => l.complete)).toBe(true);
  });

  it('flags invalid UTF-8 and decodes it with replacement characters', async () => {
    const result = await lines(Buffer.concat([Buffer.from('ok\n'), Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]), Buffer.from('fine\n')]));
    expect(result.map((l) => l.validUtf8)).toEqual([true, false, true]);
    expect(result[1]?.text).toContain('\ufffd');
  });

  it('skips a line longer than the limit without holding it, and carries on', async () => {
    const result = await lines(`short\n${'y'.repeat(5000)}\nafter\n`, { maxLineBytes: 1000, highWaterMark: 512 });
    expect(result.map((l) => [l.text, l.number, l.oversized])).toEqual([
      ['short', 1, undefined],
      ['', 2, 5000],
      ['after', 3, undefined],
    ]);
  });

  it('resumes from a byte offset with the right line numbers', async () => {
    const result = await lines('one\ntwo\nthree\n', { startOffset: 4, startLine: 2 });
    expect(result.map((l) => [l.text, l.number, l.start])).toEqual([
      ['two', 2, 4],
      ['three', 3, 8],
    ]);
  });
});
