/** Small readers of opencode's JSON values, shared by the 1.x and 2.x converters. */

export function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** 1.x errors are `{name, data: {message}}`; 2.x ones `{type, message}` (v1-transform's migrateError). */
export function errorText(error: unknown): string | null {
  if (error === undefined || error === null) return null;
  if (typeof error === 'string') return error;
  if (typeof error === 'object') {
    const data: unknown = Reflect.get(error, 'data');
    const name: unknown = Reflect.get(error, 'name') ?? Reflect.get(error, 'type');
    const nested = typeof data === 'object' && data !== null ? Reflect.get(data, 'message') : undefined;
    const message: unknown = Reflect.get(error, 'message') ?? nested;
    if (typeof message === 'string') return typeof name === 'string' ? `${name}: ${message}` : message;
  }
  return JSON.stringify(error);
}
