import { Text } from 'ink';
import { fitSegments, type Segment } from '../segments.js';
import { useTheme } from '../state/contexts.js';
import { toneProps } from '../theme.js';

export interface LineProps {
  segments: readonly Segment[];
  width: number;
  /** The row under the cursor: inverse when colours are on (the cursor mark shows it either way). */
  selected?: boolean;
}

/** One row of the screen, exactly `width` characters wide. */
export function Line({ segments, width, selected = false }: LineProps) {
  const theme = useTheme();
  return (
    <Text wrap="truncate" inverse={selected && theme.colour} bold={selected && !theme.colour}>
      {fitSegments(segments, width).map((segment, index) => (
        <Text key={index} {...toneProps(theme, segment.tone ?? 'plain')}>
          {segment.text}
        </Text>
      ))}
    </Text>
  );
}
