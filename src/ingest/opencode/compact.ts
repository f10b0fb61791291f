/** Longest string kept whole in `extra`: attachments and copies of outputs can be megabytes. */
const MAX_KEPT_CHARS = 2048;

/**
 * A JSON value with every long string cut to its head and its length, for the `extra` columns:
 * small fields stay exact, large payloads (base64 attachments, duplicated outputs) leave a trace.
 * Deep nesting surfaces as the RangeError the converters turn into a reported problem.
 */
export function compactJson(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length > MAX_KEPT_CHARS ? `${value.slice(0, MAX_KEPT_CHARS)}… (${value.length} chars)` : value;
  }
  if (Array.isArray(value)) return value.map(compactJson);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, compactJson(item)]));
  }
  return value;
}

/** The entries of `record` whose keys are not in `taken`, compacted; null when none are left. */
export function leftovers(record: Record<string, unknown>, taken: ReadonlySet<string>): Record<string, unknown> | null {
  let out: Record<string, unknown> | null = null;
  for (const [key, value] of Object.entries(record)) {
    if (taken.has(key) || value === undefined) continue;
    out ??= {};
    out[key] = compactJson(value);
  }
  return out;
}
