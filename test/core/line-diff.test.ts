import { describe, expect, it } from 'vitest';
import { diffLines, differenceStarts, type DiffRow } from '../../src/core/line-diff.js';

const show = (rows: DiffRow[]) => rows.map((row) => `${row.kind[0]} ${row.left ?? '·'} | ${row.right ?? '·'}`);

describe('diffLines', () => {
  it('marks nothing when the texts are the same', () => {
    expect(diffLines(['a', 'b'], ['a', 'b']).every((row) => row.kind === 'same')).toBe(true);
  });

  it('aligns around an inserted line instead of marking every line after it', () => {
    expect(show(diffLines(['pull', 'digest', 'done'], ['pull', 'retrying', 'digest', 'done']))).toEqual(['s pull | pull', 'a · | retrying', 's digest | digest', 's done | done']);
  });

  it('pairs lines between two common ones as changed, the rest one-sided, with line numbers of each side', () => {
    const rows = diffLines(['start', 'Digest: sha256:aaa', 'Status: Downloaded', 'end'], ['start', 'Digest: sha256:bbb', 'end']);
    expect(show(rows)).toEqual(['s start | start', 'c Digest: sha256:aaa | Digest: sha256:bbb', 'r Status: Downloaded | ·', 's end | end']);
    expect(rows[2]).toMatchObject({ leftLine: 2, rightLine: null });
    expect(rows[3]).toMatchObject({ leftLine: 3, rightLine: 2 });
  });

  it('compares by the key it is given, keeping the lines as they were', () => {
    const rows = diffLines(['ok  ', 'x'], ['ok', 'x'], { key: (line) => line.trimEnd() });
    expect(rows.map((row) => row.kind)).toEqual(['same', 'same']);
    expect(rows[0]?.left).toBe('ok  ');
  });

  it('handles empty sides', () => {
    expect(show(diffLines([], ['a']))).toEqual(['a · | a']);
    expect(show(diffLines(['a'], []))).toEqual(['r a | ·']);
    expect(diffLines([], [])).toEqual([]);
  });

  it('falls back to position by position when the middle is too large to align, and still keeps head and tail', () => {
    const rows = diffLines(['h', 'x1', 'x2', 't'], ['h', 'y1', 't'], { maxCells: 4 });
    expect(show(rows)).toEqual(['s h | h', 'c x1 | y1', 'r x2 | ·', 's t | t']);
  });

  it('finds where each run of differences starts', () => {
    const rows = diffLines(['a', 'b', 'c', 'd', 'e'], ['a', 'B', 'c', 'D', 'E']);
    expect(differenceStarts(rows)).toEqual([1, 3]);
  });
});
