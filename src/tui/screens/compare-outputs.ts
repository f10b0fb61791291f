import { diffLines, type DiffRow } from '../../core/line-diff.js';
import { chunkColumns, cleanLine, duration, fit } from '../format.js';
import { seg, type Segment } from '../segments.js';
import type { RunStepRow } from '../services.js';

/**
 * A step's recorded output beside this run's, the differing lines marked: side by side when the
 * terminal is wide enough, one above the other when not. Long lines wrap (nothing is cut off).
 * Pure: a step and a width in, the lines to draw and where each difference starts out.
 */

/** Side by side from this width on: two columns of at least ~48 characters. */
export const SIDE_BY_SIDE_MIN = 100;

/** Marks, readable without colour: ≠ the line differs, < only in the record, > only in this run. */
export const DIFF_MARK = { changed: '≠', removed: '<', added: '>', same: ' ' } as const;

export interface OutputsLayout {
  /** Drawn above the lines and never scrolled away (the column titles, side by side). */
  header: Segment[][];
  lines: Segment[][];
  /** Line indexes where a run of differing lines starts (n / N jump between them). */
  differences: number[];
  /** Lines that differ (on either side). */
  differing: number;
  sideBySide: boolean;
}

function linesOf(text: string | null | undefined): string[] {
  if (!text) return [];
  const lines = text.replace(/\n+$/, '').split('\n');
  return lines.length === 1 && lines[0] === '' ? [] : lines;
}

/** Outputs compare as a terminal shows them: escapes dropped, trailing blanks ignored. */
const compareKey = (line: string): string => cleanLine(line).trimEnd();

export function outputDiff(step: RunStepRow): DiffRow[] {
  return diffLines(linesOf(step.recorded?.output ?? step.recorded?.output_excerpt), linesOf(step.output), { key: compareKey });
}

function recordedTitle(step: RunStepRow): string {
  if (!step.recorded) return 'Recorded: nothing (no recorded call for this step)';
  const call = step.recorded.call_id ? ` ${step.recorded.call_id}` : '';
  return `Recorded${call}: exit ${step.recorded.exit_code ?? '—'} ${duration(step.recorded.duration_ms)}`.trimEnd();
}

function runTitle(step: RunStepRow): string {
  if (step.status === 'planned') return 'This run: planned, not run (a dry run)';
  return `This run on ${step.host ?? '?'}: ${step.status} exit ${step.exit_code ?? '—'} ${duration(step.duration_ms)}`.trimEnd();
}

function emptyNote(rows: readonly DiffRow[], step: RunStepRow): Segment[][] {
  if (rows.length > 0) return [];
  const nothing = !step.recorded?.output && !step.output;
  return nothing ? [[seg(' (no output on either side)', 'dim')]] : [];
}

function sideBySide(step: RunStepRow, rows: readonly DiffRow[], width: number): OutputsLayout {
  const column = Math.max(10, Math.floor((width - 3) / 2));
  const header = [[seg(fit(recordedTitle(step), column), 'title'), seg(' │ ', 'dim'), seg(fit(runTitle(step), column), 'title')]];
  const lines: Segment[][] = [];
  const differences: number[] = [];
  rows.forEach((row, index) => {
    const left = row.left === null ? [''] : chunkColumns(cleanLine(row.left), column);
    const right = row.right === null ? [''] : chunkColumns(cleanLine(row.right), column);
    if (row.kind !== 'same' && (index === 0 || rows[index - 1]?.kind === 'same')) differences.push(lines.length);
    const mark = DIFF_MARK[row.kind];
    for (let at = 0; at < Math.max(left.length, right.length); at += 1) {
      lines.push([
        seg(fit(left[at] ?? '', column), row.kind === 'changed' || row.kind === 'removed' ? 'danger' : 'plain'),
        seg(` ${at === 0 && mark !== ' ' ? mark : row.kind === 'same' ? '│' : ' '} `, row.kind === 'same' ? 'dim' : 'danger'),
        seg(fit(right[at] ?? '', column), row.kind === 'changed' || row.kind === 'added' ? 'danger' : 'plain'),
      ]);
    }
  });
  return { header, lines: [...lines, ...emptyNote(rows, step)], differences, differing: rows.filter((row) => row.kind !== 'same').length, sideBySide: true };
}

function stacked(step: RunStepRow, rows: readonly DiffRow[], width: number): OutputsLayout {
  const inner = Math.max(10, width - 3);
  const lines: Segment[][] = [];
  const differences: number[] = [];
  const section = (title: string, side: 'left' | 'right', only: 'removed' | 'added') => {
    lines.push([seg(fit(title, width), 'title')]);
    let previousDiffered = false;
    for (const row of rows) {
      const text = row[side];
      if (text === null) continue;
      const differs = row.kind === 'changed' || row.kind === only;
      if (differs && !previousDiffered) differences.push(lines.length);
      previousDiffered = differs;
      const mark = differs ? (row.kind === 'changed' ? DIFF_MARK.changed : DIFF_MARK[only]) : ' ';
      chunkColumns(cleanLine(text), inner).forEach((piece, at) => {
        lines.push([seg(`${at === 0 ? mark : ' '} `, differs ? 'danger' : 'dim'), seg(piece, differs ? 'danger' : 'plain')]);
      });
    }
    if (!rows.some((row) => row[side] !== null)) lines.push([seg('  (no output)', 'dim')]);
  };
  section(recordedTitle(step), 'left', 'removed');
  section(runTitle(step), 'right', 'added');
  return { header: [], lines, differences, differing: rows.filter((row) => row.kind !== 'same').length, sideBySide: false };
}

export function outputsLayout(step: RunStepRow, width: number, rows: readonly DiffRow[] = outputDiff(step)): OutputsLayout {
  return width >= SIDE_BY_SIDE_MIN ? sideBySide(step, rows, width) : stacked(step, rows, width);
}

/** The scroll position of the next (or previous) difference from `scroll`, or null when there is none. */
export function nextDifference(differences: readonly number[], scroll: number, direction: 1 | -1): number | null {
  const found = direction > 0 ? differences.find((line) => line > scroll) : [...differences].reverse().find((line) => line < scroll);
  return found ?? null;
}
