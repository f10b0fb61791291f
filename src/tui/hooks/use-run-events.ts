import { useEffect, useState } from 'react';
import type { RunController, RunEvent } from '../../core/run/events.js';

/**
 * Feeds a run's events to `onEvents` in batches (every `intervalMs`): a step that prints
 * thousands of lines a second costs a few renders, not thousands.
 */
export function useRunEvents(controller: RunController | undefined, onEvents: (events: RunEvent[], now: number) => void, intervalMs = 50): void {
  useEffect(() => {
    if (!controller) return undefined;
    let pending: RunEvent[] = [];
    let timer: NodeJS.Timeout | null = null;
    const flush = () => {
      timer = null;
      const batch = pending;
      pending = [];
      if (batch.length > 0) onEvents(batch, Date.now());
    };
    const unsubscribe = controller.subscribe((event) => {
      pending.push(event);
      timer ??= setTimeout(flush, intervalMs);
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
      flush();
    };
  }, [controller]);
}

/** The time now, refreshed every `intervalMs` while `ticking` (for a running step's elapsed time). */
export function useNow(ticking: boolean, intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return undefined;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [ticking, intervalMs]);
  return now;
}
