import type { KeyInfo } from './key-commands.js';

/**
 * Keys go to the layer on top first: an open dialog or help overlay sees a key before the
 * screen behind it, and the screen before the app's global keys. A handler returns true when
 * it used the key; the key then goes no further.
 */
export interface KeyLayer {
  id: number;
  priority: number;
  handle(input: string, key: KeyInfo): boolean;
  /**
   * Takes a run of typed characters at once (an open search prompt): a paste then costs one
   * render, not one per character. Only the layer on top is asked; without it, keys go one by one.
   */
  text?(run: string): boolean;
}

/** The usual priorities; anything in between works too. */
export const PRIORITY = { global: 0, screen: 10, prompt: 20, dialog: 30, overlay: 40 } as const;

/** Highest priority first; among equals, the layer registered last (the newest) first. */
export function orderLayers(layers: readonly KeyLayer[]): KeyLayer[] {
  return [...layers].sort((a, b) => b.priority - a.priority || b.id - a.id);
}

/** Offers the key to each layer in order; true when one of them used it. */
export function routeKey(layers: readonly KeyLayer[], input: string, key: KeyInfo): boolean {
  for (const layer of orderLayers(layers)) {
    if (layer.handle(input, key)) return true;
  }
  return false;
}

/** Runs a key's effect and reports the key as used: `if (input === 'd') return used(() => open(tree))`. */
export function used(effect: () => void): true {
  effect();
  return true;
}

/** Offers a run of typed characters to the layer on top; true when it took them all. */
export function routeText(layers: readonly KeyLayer[], run: string): boolean {
  const top = orderLayers(layers)[0];
  return top?.text?.(run) ?? false;
}
