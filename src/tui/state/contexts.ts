import { createContext, useContext } from 'react';
import type { Route } from '../routes.js';
import type { TuiServices } from '../services.js';
import type { Theme } from '../theme.js';
import type { KeyLayer } from './key-routing.js';
import type { NavigationState } from './navigation.js';

/**
 * State and actions live in separate contexts (a screen that only navigates does not re-render
 * when the stack changes); each has a guard hook that fails loudly outside its provider.
 */
export interface NavigationActions {
  open(route: Route): void;
  back(): void;
  toggleHelp(): void;
  closeHelp(): void;
  quit(): void;
}

export interface KeyRouter {
  /** Adds a key layer; returns the function that removes it. */
  register(layer: Omit<KeyLayer, 'id'>): () => void;
}

export const ServicesContext = createContext<TuiServices | null>(null);
export const ThemeContext = createContext<Theme | null>(null);
export const NavigationStateContext = createContext<NavigationState | null>(null);
export const NavigationActionsContext = createContext<NavigationActions | null>(null);
export const KeyRouterContext = createContext<KeyRouter | null>(null);

function required<T>(value: T | null, what: string): T {
  if (value === null) throw new Error(`${what} used outside <AppProviders>: wrap the screen in it (tests: renderScreen)`);
  return value;
}

export function useServices(): TuiServices {
  return required(useContext(ServicesContext), 'useServices');
}

export function useTheme(): Theme {
  return required(useContext(ThemeContext), 'useTheme');
}

export function useNavigation(): NavigationState {
  return required(useContext(NavigationStateContext), 'useNavigation');
}

export function useNavigator(): NavigationActions {
  return required(useContext(NavigationActionsContext), 'useNavigator');
}

export function useKeyRouter(): KeyRouter {
  return required(useContext(KeyRouterContext), 'useKeyRouter');
}
