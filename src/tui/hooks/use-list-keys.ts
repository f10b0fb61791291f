import { useEffect } from 'react';
import { commonActionOfKey, type CommonAction } from '../state/common.js';
import type { KeyInfo } from '../state/key-commands.js';
import { PRIORITY } from '../state/key-routing.js';
import { useKeys } from './use-keys.js';

export interface ListKeysOptions {
  /** The search prompt is open: it takes every key. */
  editing: boolean;
  /** Hidden screens get no keys. */
  active: boolean;
  /** The list's height on screen; the reducer is told when it changes (a resize). */
  height: number;
  dispatch(action: CommonAction): void;
  /** The screen's own keys (Enter, letters), tried before the shared ones; true when used. */
  own?(input: string, key: KeyInfo): boolean;
}

/** The keys every list screen shares, at screen priority, plus telling the reducer its height. */
export function useListKeys({ editing, active, height, dispatch, own }: ListKeysOptions): void {
  useEffect(() => {
    dispatch({ type: 'resize', height });
  }, [height]);
  useKeys(
    (input, key) => {
      if (!editing && own?.(input, key)) return true;
      const action = commonActionOfKey(input, key, editing);
      if (!action) return false;
      dispatch(action);
      return true;
    },
    { priority: PRIORITY.screen, active, text: editing ? (run) => (dispatch({ type: 'search-type', text: run }), true) : undefined },
  );
}
