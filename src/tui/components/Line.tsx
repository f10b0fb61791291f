import { Text } from 'ink';
import { memo } from 'react';
import { fitSegments, sameSegments, withoutTrailingBlanks, type Segment } from '../segments.js';
import { useTheme } from '../state/contexts.js';
import { toneProps } from '../theme.js';

export interface LineProps {
  segments: readonly Segment[];
  width: number;
  /** The row under the cursor: inverse when colours are on (the cursor mark shows it either way). */
  selected?: boolean;
}

/**
 * One row of the screen, `width` characters wide. The selected row is written to its end (its
 * inverse or bold covers the padding); any other ends at its last styled or visible character.
 */
function LineText({ segments, width, selected = false }: LineProps) {
  const theme = useTheme();
  const fitted = fitSegments(segments, width);
  return (
    <Text wrap="truncate" inverse={selected && theme.colour} bold={selected && !theme.colour}>
      {(selected ? fitted : withoutTrailingBlanks(fitted)).map((segment, index) => (
        <Text key={index} {...toneProps(theme, segment.tone ?? 'plain')}>
          {segment.text}
        </Text>
      ))}
    </Text>
  );
}

/** Screens rebuild their rows' segments on every key: a row whose text did not change is not redrawn by React. */
export const Line = memo(LineText, (before, after) => before.width === after.width && before.selected === after.selected && sameSegments(before.segments, after.segments));
