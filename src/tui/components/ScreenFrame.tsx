import { Box } from 'ink';
import type { ReactNode } from 'react';
import { fit } from '../format.js';
import { seg } from '../segments.js';
import { MARK } from '../theme.js';
import { Line } from './Line.js';

export interface ScreenFrameProps {
  width: number;
  height: number;
  /** Where the user is: `Timeline · Deploy Qwen3.5…`. */
  title: string;
  /** Left of the status line: position, search result, what is going on. */
  status?: string | null;
  /** A failure to show instead of the status (a service that did not answer). */
  error?: string | null;
  /** The keys reminder at the right of the status line. */
  hint?: string;
  /** When set, the status line is the search prompt (`/` and the text typed so far). */
  prompt?: string | null;
  children: ReactNode;
}

export const FRAME_LINES = 2;

/** A title line, the body (height − 2 lines, drawn by the screen), and a status line. */
export function ScreenFrame({ width, height, title, status = null, error = null, prompt = null, hint = ' ? keys · Esc back · q quit', children }: ScreenFrameProps) {
  const statusSegments =
    prompt !== null
      ? [seg('/', 'accent'), seg(`${prompt}▏`), seg('  Enter search · Esc cancel', 'dim')]
      : error
        ? [seg(fit(`${MARK.failed} ${error}`, Math.max(0, width - hint.length)), 'danger'), seg(hint, 'dim')]
        : [seg(fit(status ?? '', Math.max(0, width - hint.length)), 'dim'), seg(hint, 'dim')];
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Line segments={[seg(' retrace ', 'accent'), seg(title, 'title')]} width={width} />
      <Box flexDirection="column" height={Math.max(0, height - FRAME_LINES)}>
        {children}
      </Box>
      <Line segments={statusSegments} width={width} />
    </Box>
  );
}
