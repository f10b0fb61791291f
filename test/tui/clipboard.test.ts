import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { copyToClipboard, osc52 } from '../../src/cli/tui-clipboard.js';
import { initialPager, pagerActionOfKey, pagerReducer } from '../../src/tui/state/pager-reducer.js';
import { chunkColumns } from '../../src/tui/format.js';
import { tempDir } from '../helpers/temp.js';

function terminal(isTTY: boolean): { stream: NodeJS.WriteStream; written: () => string } {
  const stream = new PassThrough();
  let written = '';
  stream.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
  return { stream: Object.assign(stream, { isTTY }) as unknown as NodeJS.WriteStream, written: () => written };
}

describe('y: copying a command', () => {
  const command = "ssh aurora@10.1.230.180 'docker pull lmsysorg/sglang:spark 2>&1 | tail -3'";

  it('writes OSC 52 with the base64 of the text to a terminal, and the text to a file it names', async () => {
    const file = join(tempDir('retrace-copy-'), 'copy.txt');
    const tty = terminal(true);
    const said = await copyToClipboard(command, { env: { TERM: 'xterm-256color' }, stdout: tty.stream, file });
    expect(tty.written()).toBe(osc52(command));
    const payload = tty.written().slice('\x1b]52;c;'.length, -1);
    expect(Buffer.from(payload, 'base64').toString('utf8')).toBe(command);
    expect(said).toBe(`copied (OSC 52), also in ${file}`);
    expect(readFileSync(file, 'utf8')).toBe(`${command}\n`);
  });

  it('on a terminal without a clipboard (TERM=dumb) only saves the file, and says so', async () => {
    const file = join(tempDir('retrace-copy-'), 'copy.txt');
    const tty = terminal(true);
    const said = await copyToClipboard(command, { env: { TERM: 'dumb' }, stdout: tty.stream, file });
    expect(tty.written()).toBe('');
    expect(said).toContain(`saved to ${file}`);
  });
});

describe('the pager wraps', () => {
  it('w toggles wrapping; sideways scrolling does nothing while wrapped', () => {
    const state = initialPager(10);
    const wrapped = pagerReducer(state, pagerActionOfKey('w', {}, state) ?? { type: 'scroll', by: 0 });
    expect(wrapped.wrap).toBe(true);
    expect(pagerReducer(wrapped, { type: 'pan', by: 20 }).left).toBe(0);
    expect(pagerReducer(wrapped, { type: 'toggle-wrap' }).wrap).toBe(false);
  });

  it('cuts a long line into pieces of the width', () => {
    expect(chunkColumns('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(chunkColumns('', 4)).toEqual(['']);
  });
});
