import { useEffect, type DependencyList } from 'react';

export type Settled<T> = { ok: true; value: T } | { ok: false; message: string };

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Calls a service when `deps` change and hands the outcome to `onSettled`, unless the screen
 * moved on (deps changed, unmounted) before it answered: a slow answer never lands on the wrong row.
 */
export function useServiceCall<T>(call: (() => Promise<T>) | null, onSettled: (result: Settled<T>) => void, deps: DependencyList): void {
  useEffect(() => {
    if (!call) return undefined;
    let current = true;
    call().then(
      (value) => current && onSettled({ ok: true, value }),
      (error: unknown) => current && onSettled({ ok: false, message: messageOf(error) }),
    );
    return () => {
      current = false;
    };
  }, deps);
}
