import { parseCommandLine } from './parse.js';
import type { ParsedCommand } from './types.js';

/**
 * Parsed command lines, kept for the next call with the same text: agents run the same commands
 * again and again (a health check, `nvidia-smi`, `docker logs -f x`), and in the corpus ~70 % of
 * the command lines one derive run parses are one seen before. Shell parsing was ~10 % of
 * deriving; a hit costs a map look-up. The parse is shared, so it is frozen: code that changed a
 * parsed command would throw instead of changing another call's. Bounded: the oldest texts go
 * first, and a very long text (a heredoc script) is parsed every time.
 */
const MAX_ENTRIES = 4096;
const MAX_CACHED_TEXT = 16 * 1024;
const parsed = new Map<string, readonly ParsedCommand[]>();

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** `parseCommandLine(text)` at the top level (no place), from the cache when the text was parsed before. */
export function parseTopCommandLine(text: string): readonly ParsedCommand[] {
  if (text.length > MAX_CACHED_TEXT) return parseCommandLine(text);
  const known = parsed.get(text);
  if (known) {
    // Most recently used last: the oldest is the first key.
    parsed.delete(text);
    parsed.set(text, known);
    return known;
  }
  const fresh = deepFreeze(parseCommandLine(text));
  parsed.set(text, fresh);
  if (parsed.size > MAX_ENTRIES) parsed.delete(parsed.keys().next().value as string);
  return fresh;
}
