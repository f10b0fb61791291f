import { withoutTerminalControls } from '../../core/terminal-text.js';

/** Plain-text tables for terminals: pure, width-aware, no colour. */
export interface TableOptions {
  /** Longest a cell may be before it is cut with an ellipsis. */
  maxCellWidth?: number;
  /** Columns aligned right (numbers). */
  alignRight?: ReadonlySet<string>;
}

// Every character the cleaning below changes is one of these (an escape starts with ESC or a C1 control).
// eslint-disable-next-line no-control-regex
const NEEDS_CLEANING = /[\x00-\x1f\x7f-\x9f]/;

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  // Most cells have nothing to clean (a listing of 15,000 sessions has 120,000 of them).
  if (!NEEDS_CLEANING.test(text)) return text;
  // Escapes dropped before widths are measured; a cell is one line.
  return withoutTerminalControls(text).replace(/\s*\n\s*/g, ' ⏎ ').replace(/[\r\t]/g, ' ');
}

function cut(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
}

export function renderTable(columns: readonly string[], rows: readonly Record<string, unknown>[], options: TableOptions = {}): string {
  const maxWidth = options.maxCellWidth ?? 60;
  const cells = rows.map((row) => columns.map((column) => cut(cellText(row[column]), maxWidth)));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((row) => (row[i] ?? '').length)));
  const pad = (text: string, i: number): string =>
    options.alignRight?.has(columns[i] ?? '') ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0);
  const line = (values: readonly string[]): string => values.map(pad).join('  ').trimEnd();
  return [line(columns), line(widths.map((w) => '─'.repeat(w))), ...cells.map(line)].join('\n');
}
