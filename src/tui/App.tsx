import { Box, Text } from 'ink';
import { AppProviders } from './components/AppProviders.js';
import { KeyHelp } from './components/KeyHelp.js';
import { useKeys } from './hooks/use-keys.js';
import { useTerminalSize, type TerminalSize } from './hooks/use-terminal-size.js';
import type { Route } from './routes.js';
import { RouteScreen } from './screens/RouteScreen.js';
import type { TuiServices } from './services.js';
import { useNavigation, useNavigator } from './state/contexts.js';
import { commandOf } from './state/key-commands.js';
import { PRIORITY } from './state/key-routing.js';
import { currentRoute } from './state/navigation.js';
import type { Theme } from './theme.js';

export interface AppProps {
  services: TuiServices;
  theme: Theme;
  /** The screens to start with, bottom first (Esc walks back through them). */
  start: readonly Route[];
  /** Fixed size (tests); otherwise the terminal's, following resizes. */
  size?: TerminalSize;
}

const SMALLEST = { columns: 60, rows: 16 } as const;

/** Picks what fills the terminal: the screen on top of the stack, or the keys overlay over it. */
function Layout({ size }: { size?: TerminalSize }) {
  const terminal = useTerminalSize(size);
  const navigation = useNavigation();
  const navigator = useNavigator();
  useKeys(
    (input, key) => {
      const command = commandOf(input, key);
      if (command === 'help') navigator.toggleHelp();
      else if (command === 'back') navigator.back();
      else if (command === 'quit') navigator.quit();
      else return false;
      return true;
    },
    { priority: PRIORITY.global },
  );
  // One row short of the terminal: a frame as tall as the screen makes Ink clear it on every render.
  const width = terminal.columns;
  const height = terminal.rows - 1;
  if (width < SMALLEST.columns || height < SMALLEST.rows - 1) {
    return <Text>{`retrace needs a terminal of at least ${SMALLEST.columns}×${SMALLEST.rows}; this one is ${terminal.columns}×${terminal.rows}. q quits.`}</Text>;
  }
  const top = navigation.stack.length - 1;
  return (
    <Box flexDirection="column" width={width} height={height}>
      {navigation.stack.map((entry, index) => (
        <RouteScreen key={entry.id} route={entry.route} width={width} height={height} visible={index === top && !navigation.helpOpen} />
      ))}
      {navigation.helpOpen ? <KeyHelp screen={currentRoute(navigation).screen} width={width} height={height} /> : null}
    </Box>
  );
}

export function App({ services, theme, start, size }: AppProps) {
  return (
    <AppProviders services={services} theme={theme} start={start}>
      <Layout size={size} />
    </AppProviders>
  );
}
