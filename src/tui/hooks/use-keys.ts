import { useLayoutEffect, useRef } from 'react';
import { useKeyRouter } from '../state/contexts.js';
import type { KeyInfo } from '../state/key-commands.js';

export interface UseKeysOptions {
  priority: number;
  /** Hidden screens and closed dialogs pass false and get no keys. */
  active?: boolean;
  /** Set while this layer takes typed text (an open prompt): a run of characters arrives at once. */
  text?: (run: string) => boolean;
}

/** Receives keys at a priority (see PRIORITY); return true when the key was used. */
export function useKeys(handler: (input: string, key: KeyInfo) => boolean, options: UseKeysOptions): void {
  const router = useKeyRouter();
  const latest = useRef(handler);
  latest.current = handler;
  const latestText = useRef(options.text);
  latestText.current = options.text;
  const active = options.active ?? true;
  // A layout effect, not a passive one: it runs in the commit that draws the frame, so a key typed
  // the moment a dialog appears reaches the dialog. A passive effect runs later, in a task of its
  // own; a key read from stdin before it (a loaded machine, a fast user) went to the screen behind.
  useLayoutEffect(() => {
    if (!active) return undefined;
    return router.register({ priority: options.priority, handle: (input, key) => latest.current(input, key), text: (run) => latestText.current?.(run) ?? false });
  }, [router, options.priority, active]);
}
