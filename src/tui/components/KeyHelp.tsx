import { Box } from 'ink';
import { fit } from '../format.js';
import { useKeys } from '../hooks/use-keys.js';
import { GLOBAL_KEYS, SCREEN_KEYS, type KeyHelpEntry } from '../keymap.js';
import { SCREEN_TITLES, type ScreenName } from '../routes.js';
import { seg } from '../segments.js';
import { useNavigator } from '../state/contexts.js';
import { PRIORITY } from '../state/key-routing.js';
import { Line } from './Line.js';
import { ScreenFrame } from './ScreenFrame.js';

export interface KeyHelpProps {
  screen: ScreenName;
  width: number;
  height: number;
}

function entryLine(entry: KeyHelpEntry, width: number) {
  return [seg(`  ${fit(entry.keys, 20)}`, 'accent'), seg(fit(entry.what, Math.max(0, width - 22)))];
}

/** `?`: the current screen's keys over it; any of ? Esc q closes it, other keys wait. */
export function KeyHelp({ screen, width, height }: KeyHelpProps) {
  const navigator = useNavigator();
  useKeys(
    (input, key) => {
      if (input === '?' || input === 'q' || key.escape || key.return) navigator.closeHelp();
      return true;
    },
    { priority: PRIORITY.overlay },
  );
  const lines = [
    [seg(SCREEN_TITLES[screen], 'title')],
    ...SCREEN_KEYS[screen].map((entry) => entryLine(entry, width)),
    [],
    [seg('Everywhere', 'title')],
    ...GLOBAL_KEYS.map((entry) => entryLine(entry, width)),
  ];
  const bodyHeight = Math.max(0, height - 2);
  return (
    <ScreenFrame width={width} height={height} title={`Keys · ${SCREEN_TITLES[screen]}`} status="? Esc or q closes this" hint="">
      <Box flexDirection="column">
        {lines.slice(0, bodyHeight).map((segments, index) => (
          <Line key={index} segments={segments} width={width} />
        ))}
      </Box>
    </ScreenFrame>
  );
}
