import { useApp, useInput } from 'ink';
import { useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
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
import { leadingText, splitPresses, type KeyPress } from '../state/key-commands.js';
import { routeKey, routeText, type KeyLayer } from '../state/key-routing.js';
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

  // Keys wait in one queue and are routed one at a time, each after React has drawn what the one
  // before changed: `/` opens the search prompt, and only then does the next key arrive, into the
  // prompt. Keys come in any number of chunks (typed fast, pasted, sent while a screen loads); a
  // key routed against the screen as it was before the previous key would go where it was not typed.
  const queue = useRef<KeyPress[]>([]);
  /** A key was routed and the render it causes has not happened yet. */
  const waiting = useRef(false);
  const [routed, setRouted] = useState(0);
  const routeOne = () => {
    const run = leadingText(queue.current);
    if (run.count > 1 && routeText(layers.current, run.text)) {
      queue.current.splice(0, run.count);
    } else {
      const press = queue.current.shift();
      if (press === undefined) return;
      routeKey(layers.current, press.input, press.key);
    }
    waiting.current = true;
    setRouted((count) => count + 1);
  };
  useEffect(() => {
    // After the render (and the effects, so new layers are registered) caused by the last key;
    // in a task of its own, as a typed key would be: routed from inside this effect, a long paste
    // would be one chain of nested renders, which React cuts off after a few dozen.
    const next = setImmediate(() => {
      waiting.current = false;
      routeOne();
    });
    return () => clearImmediate(next);
  }, [routed]);
  useInput((input, key) => {
    queue.current.push(...splitPresses(input, key));
    if (!waiting.current) routeOne();
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
