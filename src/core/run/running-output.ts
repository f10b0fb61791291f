import type { StepTarget } from './events.js';

/**
 * A running step's output as the record holds it meanwhile: its end, led by how many characters
 * came before it. A watcher in another terminal reads it again and again and shows only what is
 * new; the step's end replaces it with the whole output.
 */
/** The runner's own mark on a long step's whole output (`characters dropped`) says the same. */
const BEFORE = /^\[… (\d+) characters (?:before this|dropped) …\]\n/;

export function runningOutputOf(tail: string, before: number): string {
  return before > 0 ? `[… ${before} characters before this …]\n${tail}` : tail;
}

/** The tail and where it starts in the whole output. */
export function parseRunningOutput(stored: string): { tail: string; before: number } {
  const marker = BEFORE.exec(stored);
  return marker ? { tail: stored.slice(marker[0].length), before: Number(marker[1]) } : { tail: stored, before: 0 };
}

/**
 * What of `stored` a watcher that has shown `seen` characters of the output has not shown yet;
 * `skipped` counts characters that scrolled out of the record before it read them.
 */
export function unseenOutput(stored: string, seen: number): { text: string; skipped: number; total: number } {
  const { tail, before } = parseRunningOutput(stored);
  const total = before + tail.length;
  if (seen >= total) return { text: '', skipped: 0, total };
  if (seen >= before) return { text: tail.slice(seen - before), skipped: 0, total };
  return { text: tail, skipped: before - seen, total };
}

/** What a live run waits for from the terminal that steers it (`runs.waiting`, JSON). */
export type RunWaiting =
  | { kind: 'confirm'; target: StepTarget; command: string }
  | { kind: 'failure'; targets: StepTarget[] }
  | { kind: 'paused' };
