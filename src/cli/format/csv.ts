/** RFC 4180 CSV: a header, then one line per row; fields quoted when they need it. */
function field(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function renderCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return [columns.map(field).join(','), ...rows.map((row) => columns.map((c) => field(row[c])).join(','))].join('\r\n');
}
