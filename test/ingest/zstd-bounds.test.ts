import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decompressZstdHead } from '../../src/ingest/io/zstd.js';
import { zstdChunks } from '../../src/ingest/io/zstd-lines.js';
import { runRetraceMeasured } from '../helpers/peak-rss.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { expandedSize, zstdFrame } from '../helpers/zstd-frames.js';

const dir = tempDir('retrace-zstd-');
const FIRST_LINE = `{"timestamp":"2026-03-12T08:05:51.730Z","type":"session_meta","payload":{"id":"019ce114-a1f2-7011-ada0-35d9c733931e","timestamp":"2026-03-12T08:05:51.730Z","cwd":"/tmp","originator":"codex_cli_rs","cli_version":"0.112.0"}}\n`;
/** Well above a bounded sniff plus retrace's start-up (~150 MB), well below what a bomb expands to. */
const MEMORY_BOUND_MB = 600;

function write(name: string, bytes: Buffer): string {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

interface Summary {
  sources: number;
  messages: number;
  errors: { file: string; line: number | null; message: string }[];
}

describe('a hostile .zst costs bounded work (issue 15, point 4)', () => {
  it('sniffs a 32 KB file that expands to 1 GiB from its first 64 KiB only', () => {
    const bomb = { rleBlocks: 8192 };
    expect(expandedSize(bomb)).toBe(1024 * 1024 * 1024);
    const head = decompressZstdHead(zstdFrame(bomb), true);
    expect(head.problem).toBeNull();
    expect(head.bytes.length).toBe(64 * 1024);
  });

  it('streams a bomb a block at a time: no chunk over one block, the bytes exactly the expansion', async () => {
    const options = { prefix: Buffer.from(FIRST_LINE), rleBlocks: 512, fill: 0x0a };
    const file = write('stream.jsonl.zst', zstdFrame(options));
    let total = 0;
    let largest = 0;
    for await (const chunk of zstdChunks(file)) {
      total += chunk.length;
      largest = Math.max(largest, chunk.length);
    }
    expect(total).toBe(expandedSize(options));
    expect(largest).toBeLessThanOrEqual(128 * 1024);
  });

  it('through the CLI: a 1 GiB bomb is refused as no transcript without taking the memory it expands to', async () => {
    const file = write('bomb.jsonl.zst', zstdFrame({ rleBlocks: 8192 }));
    const run = await runRetraceMeasured(['ingest', file, '--db', tempDbPath(dir), '--json']);
    expect(run.code).toBe(2);
    expect((JSON.parse(run.stdout) as Summary).errors).toEqual([expect.objectContaining({ file, message: expect.stringMatching(/not a transcript/) })]);
    expect(run.peakRssMb).toBeLessThan(MEMORY_BOUND_MB);
  }, 60_000);

  it('through the CLI: a Codex rollout followed by a 256 MiB line keeps its first line and reports the second', async () => {
    const file = write('rollout-2026-03-12T08-05-51-019ce114-a1f2-7011-ada0-35d9c733931e.jsonl.zst', zstdFrame({ prefix: Buffer.from(FIRST_LINE), rleBlocks: 2049 }));
    const run = await runRetraceMeasured(['ingest', file, '--db', tempDbPath(dir), '--json']);
    const summary = JSON.parse(run.stdout) as Summary;
    expect(summary.sources).toBe(1);
    expect(summary.errors).toEqual([expect.objectContaining({ file, line: 2, message: expect.stringMatching(/over the size limit/) })]);
    expect(run.peakRssMb).toBeLessThan(MEMORY_BOUND_MB);
  }, 120_000);

  const refused: [string, Buffer, RegExp][] = [
    ['a frame claiming a 2 GiB window', zstdFrame({ prefix: Buffer.from(FIRST_LINE), windowLog: 31 }), /a frame wants a 2048 MiB window, over the 128 MiB retrace decompresses/],
    ['a reserved header bit', Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x08]), Buffer.alloc(64, 0x41)]), /a reserved bit is set/],
    ['a block of the reserved type', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x50, 0x07, 0x00, 0x00]), /a block of the reserved type/],
    ['a file cut inside its frame', zstdFrame({ prefix: Buffer.from(FIRST_LINE) }).subarray(0, 40), /the file ends inside a frame/],
    ['garbage after a valid frame', Buffer.concat([zstdFrame({ prefix: Buffer.from(FIRST_LINE) }), Buffer.from('not zstd at all')]), /no zstd frame starts here/],
  ];

  for (const [what, bytes, reason] of refused) {
    it(`through the CLI: says "corrupt or oversized zstd" plainly for ${what}`, async () => {
      const file = write(`${what.replace(/\W+/g, '-')}.jsonl.zst`, bytes);
      const run = await runRetraceMeasured(['ingest', file, '--db', tempDbPath(dir), '--json']);
      expect(run.code).toBe(2);
      const summary = JSON.parse(run.stdout) as Summary;
      expect(summary.errors).toHaveLength(1);
      expect(summary.errors[0]?.file).toBe(file);
      expect(summary.errors[0]?.message).toMatch(/^(not ingested: )?corrupt or oversized zstd: /);
      expect(summary.errors[0]?.message).toMatch(reason);
      expect(run.peakRssMb).toBeLessThan(MEMORY_BOUND_MB);
    }, 60_000);
  }
});
