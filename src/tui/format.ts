/** Pure text helpers for drawing rows: every transcript string passes through `cleanLine` first. */

import { cleanLine, oneLine } from '../core/terminal-text.js';

export { cleanLine, oneLine };
/** The one duration formatter of every layer (src/core/units.ts), under the TUI's short name. */
export { formatDuration as duration, formatBytes } from '../core/units.js';

/** Cut to `width` characters (with …) and pad to exactly `width`. */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  const chars = [...text];
  if (chars.length > width) return `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
  return text + ' '.repeat(width - chars.length);
}

export function fitRight(text: string, width: number): string {
  const chars = [...text];
  return chars.length >= width ? fit(text, width) : ' '.repeat(width - chars.length) + text;
}

/** Characters [from, from + width) of a line, for horizontal scrolling. */
export function sliceColumns(line: string, from: number, width: number): string {
  return [...line].slice(from, from + width).join('');
}

/** A line cut into pieces of `width` characters (at least one piece): a pager's wrapped rows. */
export function chunkColumns(line: string, width: number): string[] {
  const chars = [...line];
  if (width <= 0 || chars.length <= width) return [line];
  const pieces: string[] = [];
  for (let at = 0; at < chars.length; at += width) pieces.push(chars.slice(at, at + width).join(''));
  return pieces;
}

/** `13:41:07` in UTC (transcripts are read on machines in other time zones than they were made). */
export function clock(iso: string | null): string {
  return iso && iso.length >= 19 ? iso.slice(11, 19) : '--:--:--';
}

/** `2026-02-26 13:41` in UTC. */
export function dateTime(iso: string | null): string {
  return iso && iso.length >= 16 ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : '?';
}

/** `2026-02-26 13:41–14:52`, with the end's date only when it differs. */
export function dateRange(start: string | null, end: string | null): string {
  if (!end) return dateTime(start);
  const sameDay = start !== null && start.slice(0, 10) === end.slice(0, 10);
  return `${dateTime(start)}–${sameDay ? end.slice(11, 16) : dateTime(end)}`;
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A horizontal bar `width` cells wide at most, in eighths of a cell, padded to `width`. */
export function bar(value: number, max: number, width: number): string {
  if (width <= 0) return '';
  const ratio = max > 0 && Number.isFinite(value) ? Math.min(1, Math.max(0, value / max)) : 0;
  const eighths = Math.round(ratio * width * 8);
  const full = Math.floor(eighths / 8);
  const partial = EIGHTHS[eighths % 8] ?? '';
  const drawn = '█'.repeat(full) + partial;
  const minimum = value > 0 && drawn === '' ? '▏' : drawn;
  return minimum + ' '.repeat(Math.max(0, width - [...minimum].length));
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Word-wraps a text to `width` columns; words longer than a line are broken. Blank lines stay. */
export function wrap(text: string, width: number): string[] {
  const size = Math.max(1, width);
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of cleanLine(paragraph).split(/ +/)) {
      let rest = word;
      while ([...rest].length > size) {
        if (line !== '') {
          out.push(line);
          line = '';
        }
        out.push([...rest].slice(0, size).join(''));
        rest = [...rest].slice(size).join('');
      }
      if (line === '') line = rest;
      else if ([...line].length + 1 + [...rest].length <= size) line += ` ${rest}`;
      else {
        out.push(line);
        line = rest;
      }
    }
    out.push(line);
  }
  return out;
}
