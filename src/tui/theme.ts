/**
 * Colours are a second channel only: every state also has a symbol or a word, so the screens
 * read the same with NO_COLOR (https://no-color.org), on a monochrome terminal, or in a capture.
 */
export interface Theme {
  colour: boolean;
}

export type Tone = 'plain' | 'dim' | 'accent' | 'ok' | 'warn' | 'danger' | 'title' | 'match';

export interface ToneProps {
  color?: string;
  dimColor?: boolean;
  bold?: boolean;
}

export function themeFromEnv(env: NodeJS.ProcessEnv = process.env): Theme {
  const noColour = env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '';
  return { colour: !noColour };
}

const COLOURS: Record<Tone, ToneProps> = {
  plain: {},
  dim: { dimColor: true },
  accent: { color: 'cyan' },
  ok: { color: 'green' },
  warn: { color: 'yellow' },
  danger: { color: 'red' },
  title: { bold: true },
  match: { color: 'magenta', bold: true },
};

/** Text props for a tone; without colour only bold and dim remain (they are not colours). */
export function toneProps(theme: Theme, tone: Tone): ToneProps {
  const props = COLOURS[tone];
  if (theme.colour) return props;
  const { color: _color, ...attributes } = props;
  return tone === 'match' ? { bold: true } : attributes;
}

/** The marks that carry meaning without colour. */
export const MARK = {
  cursor: '›',
  timeout: '!',
  failed: '✗',
  ok: '✓',
  pending: '·',
  running: '▶',
  skipped: '»',
  paused: '‖',
  diverged: '≠',
  same: '=',
  unknown: '?',
  match: '*',
  decisive: '◆',
} as const;
