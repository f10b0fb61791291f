import { Box } from 'ink';
import type { ReactNode } from 'react';
import { cleanLine, fitRight, sliceColumns } from '../format.js';
import { seg } from '../segments.js';
import { MARK } from '../theme.js';
import { Line } from './Line.js';

export interface PagerProps {
  lineAt(index: number): string | undefined;
  top: number;
  height: number;
  width: number;
  total: number | null;
  /** First column shown (sideways scrolling); long lines are cut, never wrapped. */
  left: number;
  matches: ReadonlySet<number>;
  current: number | null;
}

/** Lines [top, top + height) of a text with their numbers; the rest of the text is never drawn. */
export function Pager({ lineAt, top, height, width, total, left, matches, current }: PagerProps) {
  const gutter = Math.max(3, String(total ?? 0).length) + 2;
  const rows: ReactNode[] = [];
  for (let offset = 0; offset < height; offset += 1) {
    const index = top + offset;
    if (total !== null && index >= total) {
      rows.push(<Line key={offset} segments={[seg(offset === 0 && total === 0 ? ' (no output)' : '~', 'dim')]} width={width} />);
      continue;
    }
    const line = lineAt(index);
    const matched = matches.has(index);
    const mark = index === current ? MARK.cursor : matched ? MARK.match : ' ';
    rows.push(
      <Line
        key={offset}
        segments={[
          seg(`${fitRight(String(index + 1), gutter - 2)}${mark} `, matched ? 'match' : 'dim'),
          seg(line === undefined ? '…' : sliceColumns(cleanLine(line), left, width - gutter), index === current ? 'match' : 'plain'),
        ]}
        width={width}
      />,
    );
  }
  return <Box flexDirection="column">{rows}</Box>;
}
