import { escapeRegExp } from './text.js';
import type { TreeMessage } from './types.js';

/**
 * What the user asked for in the middle of a deployment ("and add --context-length 32768"): a value
 * they asked for refines the request, it is no way tried (approaches.ts).
 */
export type UserAsk = Pick<TreeMessage, 'ordinal' | 'text'>;

/** How a user says a value: `32768` as "32768", "32k" or "32K"; anything else as itself. */
function spellingsOf(value: string): string[] {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1000) return [value];
  return [value, `${n / 1024}k`, `${n / 1000}k`].filter((v) => !v.includes('.'));
}

/** Whether a user message after ordinal `from` and up to `to` asks for an option's value (`key` is `--flag=value`). */
export function askedBetween(asks: readonly UserAsk[], key: string, from: number, to: number): boolean {
  const value = key.slice(key.indexOf('=') + 1);
  if (value === '') return false;
  const said = spellingsOf(value).map((v) => new RegExp(String.raw`(?<![\w.])${escapeRegExp(v)}(?![\w.])`, 'i'));
  return asks.some((a) => a.ordinal > from && a.ordinal <= to && said.some((r) => r.test(a.text)));
}
