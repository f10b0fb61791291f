import { Box } from 'ink';
import type { ReactNode } from 'react';
import { chunkColumns, cleanLine, fitRight, sliceColumns } from '../format.js';
import { seg } from '../segments.js';
import { MARK } from '../theme.js';
import { Line } from './Line.js';

export interface PagerProps {
  lineAt(index: number): string | undefined;
  top: number;
  height: number;
  width: number;
  total: number | null;
  /** First column shown (sideways scrolling) when long lines are cut. */
  left: number;
  /** Long lines continue on the rows below (as many as fit); `left` is then ignored. */
  wrap?: boolean;
  matches: ReadonlySet<number>;
  current: number | null;
  /** Lines that decided a verdict: marked ◆ and highlighted like a match. */
  decisive?: ReadonlySet<number>;
}

/** Columns left for the text beside the line numbers (the gutter grows with the line count). */
export function pagerTextWidth(width: number, total: number | null): number {
  return width - gutterWidth(total);
}

function gutterWidth(total: number | null): number {
  return Math.max(3, String(total ?? 0).length) + 2;
}

const NONE: ReadonlySet<number> = new Set();

/** Lines [top, top + height) of a text with their numbers; the rest of the text is never drawn. */
export function Pager({ lineAt, top, height, width, total, left, wrap = false, matches, current, decisive = NONE }: PagerProps) {
  const gutter = gutterWidth(total);
  const textWidth = width - gutter;
  const rows: ReactNode[] = [];
  for (let index = top; rows.length < height; index += 1) {
    if (total !== null && index >= total) {
      rows.push(<Line key={rows.length} segments={[seg(rows.length === 0 && total === 0 ? ' (no output)' : '~', 'dim')]} width={width} />);
      continue;
    }
    const line = lineAt(index);
    const matched = matches.has(index) || decisive.has(index);
    const mark = index === current ? MARK.cursor : decisive.has(index) ? MARK.decisive : matched ? MARK.match : ' ';
    const text = line === undefined ? '…' : cleanLine(line);
    const pieces = wrap ? chunkColumns(text, textWidth) : [sliceColumns(text, left, textWidth)];
    pieces.slice(0, height - rows.length).forEach((piece, at) => {
      const number = at === 0 ? `${fitRight(String(index + 1), gutter - 2)}${mark} ` : ' '.repeat(gutter);
      rows.push(<Line key={rows.length} segments={[seg(number, matched ? 'match' : 'dim'), seg(piece, index === current ? 'match' : 'plain')]} width={width} />);
    });
  }
  return <Box flexDirection="column">{rows}</Box>;
}
