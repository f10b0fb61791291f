import { describe, expect, it } from 'vitest';
import { clipLine, clipText } from '../../../src/cli/format/clip.js';

const lines = (n: number, prefix = 'line'): string => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n');

describe('clipText', () => {
  it('ends every cut in … and says how much it left out', () => {
    const out = clipText(lines(10), { lines: 3, width: 80 });
    expect(out.slice(0, 3)).toEqual(['line 1', 'line 2', 'line 3']);
    expect(out[3]).toBe('… (7 lines, 43 chars left out; --full shows them)');
    expect(out).toHaveLength(4);
  });

  it('cuts a long line to the width, saying how many characters it dropped', () => {
    const [line] = clipText('x'.repeat(200), { lines: 3, width: 40 });
    expect([...(line ?? '')].length).toBeLessThanOrEqual(40);
    const dropped = Number(/… \(\+(\d+) chars\)$/.exec(line ?? '')?.[1]);
    expect(dropped + (line ?? '').indexOf('…')).toBe(200);
  });

  it('keeps the line that decided the call whole, wherever it is, with the gaps around it said', () => {
    const decisive = 'bash tool terminated command after exceeding timeout 120000 ms ' + 'and a long tail '.repeat(10);
    const text = [lines(5), decisive, lines(4, 'after')].join('\n');
    const out = clipText(text, { lines: 2, width: 40, keep: new Set([decisive.trim()]) });
    expect(out).toEqual([
      'line 1',
      'line 2',
      '… (3 lines, 18 chars left out; --full shows them)',
      decisive,
      '… (4 lines, 28 chars left out; --full shows them)',
    ]);
  });

  it('--full shows every line whole', () => {
    const text = `${'y'.repeat(500)}\n${lines(50)}`;
    expect(clipText(text, { lines: 3, width: 40, full: true }).join('\n')).toBe(text);
    expect(clipLine('z'.repeat(300), 50, true)).toBe('z'.repeat(300));
  });

  it('leaves a text that fits alone', () => {
    expect(clipText('a\nb', { lines: 3, width: 10 })).toEqual(['a', 'b']);
    expect(clipLine('short', 10)).toBe('short');
  });
});
