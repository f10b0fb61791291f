import { useApp, useInput } from 'ink';
import { useMemo, useReducer, useRef, type ReactNode } from 'react';
import type { Route } from '../routes.js';
import type { TuiServices } from '../services.js';
import type { Theme } from '../theme.js';
import {
  KeyRouterContext,
  NavigationActionsContext,
  NavigationStateContext,
  ServicesContext,
  ThemeContext,
  type KeyRouter,
  type NavigationActions,
} from '../state/contexts.js';
import { splitPresses } from '../state/key-commands.js';
import { routeKey, type KeyLayer } from '../state/key-routing.js';
import { initialNavigation, navigationReducer } from '../state/navigation.js';

export interface AppProvidersProps {
  services: TuiServices;
  theme: Theme;
  start: readonly Route[];
  children: ReactNode;
}

/** Everything a screen reads from context, and the one `useInput` that routes every key. */
export function AppProviders({ services, theme, start, children }: AppProvidersProps) {
  const { exit } = useApp();
  const [navigation, dispatch] = useReducer(navigationReducer, start, initialNavigation);
  const layers = useRef<KeyLayer[]>([]);
  const nextLayerId = useRef(0);

  const router = useMemo<KeyRouter>(
    () => ({
      register(layer) {
        const entry: KeyLayer = { ...layer, id: nextLayerId.current++ };
        layers.current = [...layers.current, entry];
        return () => {
          layers.current = layers.current.filter((other) => other !== entry);
        };
      },
    }),
    [],
  );
  const actions = useMemo<NavigationActions>(
    () => ({
      open: (route) => dispatch({ type: 'open', route }),
      back: () => dispatch({ type: 'back' }),
      toggleHelp: () => dispatch({ type: 'toggle-help' }),
      closeHelp: () => dispatch({ type: 'close-help' }),
      quit: () => exit(),
    }),
    [exit],
  );

  useInput((input, key) => {
    // Keys typed faster than a frame (or pasted) arrive as one string: each is its own key press,
    // and each is routed after the screen has re-rendered from the one before ("/pull" opens the
    // prompt, then types into it).
    const presses = splitPresses(input, key);
    const routeNext = () => {
      const press = presses.shift();
      if (press === undefined) return;
      routeKey(layers.current, press.input, press.key);
      if (presses.length > 0) setImmediate(routeNext);
    };
    routeNext();
  });

  return (
    <ServicesContext.Provider value={services}>
      <ThemeContext.Provider value={theme}>
        <KeyRouterContext.Provider value={router}>
          <NavigationActionsContext.Provider value={actions}>
            <NavigationStateContext.Provider value={navigation}>{children}</NavigationStateContext.Provider>
          </NavigationActionsContext.Provider>
        </KeyRouterContext.Provider>
      </ThemeContext.Provider>
    </ServicesContext.Provider>
  );
}
