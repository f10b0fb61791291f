/**
 * Human units for durations and sizes: the one formatter every layer uses (the CLI's tables, the
 * TUI's rows, the Markdown report), so the same call never reads 4m12s in one place and 4m11s in
 * another.
 */

/** `450ms`, `3.1s`, `42s`, `4m12s`, `1h05m`; `—` when unknown. Rounded once, then split. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 0) return '—';
  if (ms < 999.5) return `${Math.round(ms)}ms`;
  if (ms < 9950) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  const roundedMinutes = Math.round(seconds / 60);
  return `${Math.floor(roundedMinutes / 60)}h${String(roundedMinutes % 60).padStart(2, '0')}m`;
}

const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/**
 * Sizes in powers of 1024, as `du -h` and `ls -lh` count them (`du -h` says 2.3G where this says
 * 2.3 GiB): `512 B`, `1.5 KiB`, `118 GiB`. One decimal below 10 of a unit, none above.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  // 1023.96 KiB would round to "1024 KiB": say 1.0 MiB instead.
  if (value >= 1023.5 && unit < BINARY_UNITS.length - 1) return `1.0 ${BINARY_UNITS[unit + 1]}`;
  return `${value < 9.95 ? value.toFixed(1) : Math.round(value)} ${BINARY_UNITS[unit]}`;
}
