import { Box } from 'ink';
import type { ReactNode } from 'react';
import type { Segment } from '../segments.js';
import type { ListState } from '../state/list.js';
import { MARK } from '../theme.js';
import { Line } from './Line.js';

export interface VirtualListProps<T> {
  list: ListState;
  width: number;
  rowAt(index: number): T | undefined;
  /** The row's text; `undefined` rows are still loading. */
  renderRow(row: T | undefined, index: number): Segment[];
  empty?: string;
  /** False while a dialog has the keys: no cursor is drawn. */
  focused?: boolean;
}

/** Draws rows [top, top + height) and nothing else: a list of any length costs one screen. */
export function VirtualList<T>({ list, width, rowAt, renderRow, empty = '(nothing here)', focused = true }: VirtualListProps<T>) {
  const lines: ReactNode[] = [];
  for (let offset = 0; offset < list.height; offset += 1) {
    const index = list.top + offset;
    if (index >= list.total) {
      const text = list.total === 0 && offset === 0 ? `  ${empty}` : '';
      lines.push(<Line key={offset} segments={[{ text, tone: 'dim' }]} width={width} />);
      continue;
    }
    const selected = focused && index === list.cursor;
    const gutter: Segment = { text: selected ? `${MARK.cursor} ` : '  ', tone: selected ? 'accent' : 'plain' };
    lines.push(<Line key={offset} segments={[gutter, ...renderRow(rowAt(index), index)]} width={width} selected={selected} />);
  }
  return <Box flexDirection="column">{lines}</Box>;
}
