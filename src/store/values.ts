/** Pure conversions between retrace's JavaScript values and what DuckDB hands back. */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** DuckDB JS values → JSON-safe values: BIGINT as a number where it fits, times as ISO strings. */
export function toJsonValue(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString();
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (typeof value === 'object') {
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) out[key] = toJsonValue(item);
    return out;
  }
  return String(value);
}

export type Row = Record<string, JsonValue>;

export function toRow(raw: Record<string, unknown>): Row {
  const row: Row = {};
  for (const [key, value] of Object.entries(raw)) row[key] = toJsonValue(value);
  return row;
}

/**
 * Rows from a result read column by column (the client's `getColumnsJS`, same values as its
 * `getRowObjectsJS`): its row reader visits every value through a callback that asks the native
 * side for the vector's type again, several times the cost of the values on a listing of 15,000 rows.
 */
export function rowsFromColumns(names: readonly string[], columns: readonly (readonly unknown[])[]): Row[] {
  const count = columns[0]?.length ?? 0;
  const rows = new Array<Row>(count);
  for (let index = 0; index < count; index += 1) {
    const row: Row = {};
    for (let column = 0; column < names.length; column += 1) row[names[column] as string] = toJsonValue(columns[column]?.[index]);
    rows[index] = row;
  }
  return rows;
}
