import { useEffect, useState } from 'react';

/** How often a visible list asks again: rows an ingest or a replay wrote since show up. */
export const REFRESH_MS = 4_000;

/** A number that grows every `intervalMs` while `active`: put it in a service call's deps. */
export function useRefresh(active: boolean, intervalMs = REFRESH_MS): number {
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setGeneration((n) => n + 1), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return generation;
}
