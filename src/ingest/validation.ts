import type { z } from 'zod';

/** One line naming each problem zod found, with its field path. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'value'}: ${issue.message}`)
    .join('; ');
}

/** The fields of `value` that are not in `known`, or null when there are none. */
export function pickUnknown(value: object, known: ReadonlySet<string>): Record<string, unknown> | null {
  let out: Record<string, unknown> | null = null;
  for (const [key, item] of Object.entries(value)) {
    if (known.has(key)) continue;
    out ??= {};
    out[key] = item;
  }
  return out;
}
