import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration } from '../../src/core/units.js';
import { duration as tuiDuration } from '../../src/tui/format.js';

describe('formatDuration: one formatter for every layer', () => {
  it.each([
    [450, '450ms'],
    [999.4, '999ms'],
    [999.6, '1.0s'],
    [3140, '3.1s'],
    [9_960, '10s'],
    [42_000, '42s'],
    [59_600, '1m00s'],
    [120_000, '2m00s'],
    [251_600, '4m12s'], // the CLI said 4m12s and the TUI 4m11s for this call
    [239_700, '4m00s'], // never "3m60s"
    [3_900_000, '1h05m'],
  ])('%d ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('says — when the duration is unknown', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(undefined)).toBe('—');
    expect(formatDuration(Number.NaN)).toBe('—');
  });

  it('is the very function the TUI draws with', () => {
    expect(tuiDuration).toBe(formatDuration);
  });
});

describe('formatBytes: powers of 1024, as du -h counts', () => {
  it.each([
    [512, '512 B'],
    [1536, '1.5 KiB'],
    [1024 ** 2 - 10, '1.0 MiB'],
    [119 * 1024 ** 3, '119 GiB'],
    [2.3 * 1024 ** 3, '2.3 GiB'],
    [5 * 1024 ** 4, '5.0 TiB'],
  ])('%d bytes reads %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
