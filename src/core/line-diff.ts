/**
 * Which lines of two texts differ: the recorded output of a step beside today's. A longest common
 * subsequence of lines (after the common head and tail are set aside), so a line inserted at the
 * top does not mark every line below it. Lines between two common ones are paired up as `changed`
 * (shown side by side), the rest are only on one side. Pure; bounded: a middle too large for the
 * table is compared line by line instead of aligned.
 */

export type DiffKind = 'same' | 'changed' | 'removed' | 'added';

export interface DiffRow {
  kind: DiffKind;
  /** The line of the first text (`removed`: only there), null when `added`. */
  left: string | null;
  /** The line of the second text (`added`: only there), null when `removed`. */
  right: string | null;
  /** 0-based line numbers in each text. */
  leftLine: number | null;
  rightLine: number | null;
}

export interface DiffOptions {
  /** What two lines are compared by (e.g. without trailing blanks or escapes); the rows keep the lines as given. */
  key?: (line: string) => string;
  /** Cells of the alignment table at most; beyond it the middle is compared position by position. */
  maxCells?: number;
}

const DEFAULT_MAX_CELLS = 4_000_000;

/** Pairs what lies between two common lines: changed while both sides have a line, then one-sided. */
function unmatched(left: readonly string[], right: readonly string[], leftAt: number, rightAt: number, out: DiffRow[]): void {
  const both = Math.min(left.length, right.length);
  for (let i = 0; i < both; i += 1) out.push({ kind: 'changed', left: left[i] ?? '', right: right[i] ?? '', leftLine: leftAt + i, rightLine: rightAt + i });
  for (let i = both; i < left.length; i += 1) out.push({ kind: 'removed', left: left[i] ?? '', right: null, leftLine: leftAt + i, rightLine: null });
  for (let i = both; i < right.length; i += 1) out.push({ kind: 'added', left: null, right: right[i] ?? '', leftLine: null, rightLine: rightAt + i });
}

export function diffLines(left: readonly string[], right: readonly string[], options: DiffOptions = {}): DiffRow[] {
  const key = options.key ?? ((line: string) => line);
  const a = left.map(key);
  const b = right.map(key);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail += 1;
  const rows: DiffRow[] = [];
  for (let i = 0; i < head; i += 1) rows.push({ kind: 'same', left: left[i] ?? '', right: right[i] ?? '', leftLine: i, rightLine: i });

  const n = a.length - head - tail;
  const m = b.length - head - tail;
  if ((n + 1) * (m + 1) > (options.maxCells ?? DEFAULT_MAX_CELLS)) {
    unmatched(left.slice(head, head + n), right.slice(head, head + m), head, head, rows);
  } else {
    // lcs[i * (m + 1) + j]: the longest common subsequence of a[head + i ..] and b[head + j ..].
    const width = m + 1;
    const lcs = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i -= 1) {
      for (let j = m - 1; j >= 0; j -= 1) {
        lcs[i * width + j] = a[head + i] === b[head + j] ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
      }
    }
    let i = 0;
    let j = 0;
    let fromI = 0;
    let fromJ = 0;
    const flush = (): void => unmatched(left.slice(head + fromI, head + i), right.slice(head + fromJ, head + j), head + fromI, head + fromJ, rows);
    while (i < n && j < m) {
      if (a[head + i] === b[head + j]) {
        flush();
        rows.push({ kind: 'same', left: left[head + i] ?? '', right: right[head + j] ?? '', leftLine: head + i, rightLine: head + j });
        i += 1;
        j += 1;
        fromI = i;
        fromJ = j;
      } else if ((lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0)) i += 1;
      else j += 1;
    }
    i = n;
    j = m;
    flush();
  }
  for (let k = tail; k > 0; k -= 1) {
    const li = left.length - k;
    const ri = right.length - k;
    rows.push({ kind: 'same', left: left[li] ?? '', right: right[ri] ?? '', leftLine: li, rightLine: ri });
  }
  return rows;
}

/** Rows that differ, by index in `rows`: where `n` (next difference) goes. */
export function differenceStarts(rows: readonly DiffRow[]): number[] {
  const starts: number[] = [];
  rows.forEach((row, index) => {
    if (row.kind !== 'same' && (index === 0 || rows[index - 1]?.kind === 'same')) starts.push(index);
  });
  return starts;
}
