import { describe, expect, it } from 'vitest';
import { renderTable } from '../../src/cli/format/table.js';
import { cleanLine, cleanText, withoutTerminalControls } from '../../src/core/terminal-text.js';

/** cleanText as it was before its shortcut for clean text: every line through cleanLine. */
const everyLine = (text: string): string => text.split('\n').map(cleanLine).join('\n');

/** Texts built from pieces that each change or do not change under cleaning, in every pair. */
const PIECES = ['plain', 'ünïcödé 😀', ' ', '\n', '\t', '\r', '\x1b[31mred\x1b[0m', '\x1b]0;title\x07', '\x9b2J', '\x07', '\x7f', '\u0085', '\u00a0', '\u2028', 'a\tb', 'x\r\ny'];

describe('cleanText', () => {
  it('gives what cleaning every line gives, for clean text and for text with escapes, tabs and returns', () => {
    for (const a of PIECES) for (const b of PIECES) for (const c of ['', ...PIECES]) {
      const text = `${a}${b}${c}`;
      expect(cleanText(text), JSON.stringify(text)).toBe(everyLine(text));
    }
  });

  it('leaves a big table with nothing to clean as it is', () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `ses_${i}  claude  some title ${i}  2026-01-01 10:00  12  34`).join('\n');
    expect(cleanText(text)).toBe(text);
  });
});

describe('renderTable cells', () => {
  it('cleans a cell only when it holds something to clean, with the same result as before', () => {
    const cells = PIECES.map((value, i) => ({ id: String(i), value }));
    const table = renderTable(['id', 'value'], cells);
    const expected = renderTable(['id', 'value'], cells.map((cell) => ({
      id: cell.id,
      value: withoutTerminalControls(cell.value).replace(/\s*\n\s*/g, ' ⏎ ').replace(/[\r\t]/g, ' '),
    })));
    expect(table).toBe(expected);
    // eslint-disable-next-line no-control-regex
    expect(table).not.toMatch(/\x1b|\x9b|\x07/);
  });
});
