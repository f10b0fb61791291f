import { describe, expect, it } from 'vitest';
import { flattenCommands, parseCommandLine } from '../../src/query/shell/index.js';

const argv = (line: string): string[][] => flattenCommands(parseCommandLine(line)).map((r) => r.argv);

describe('a lone digit before a redirection', () => {
  it('is an argument when a space separates them (`--jobs 1 > build.log`)', () => {
    expect(argv('fooc build --jobs 1 > build.log 2>&1')).toEqual([['fooc', 'build', '--jobs', '1']]);
    expect(argv("bash -lc 'fooc build --jobs 4 >> /tmp/b.log'")[1]).toEqual(['fooc', 'build', '--jobs', '4']);
  });

  it('is a file descriptor when it touches the redirection (`1>out`, `2>&1`)', () => {
    expect(argv('fooc build --jobs 1>out 2>&1')).toEqual([['fooc', 'build', '--jobs']]);
    expect(argv("echo '1 > x'")).toEqual([['echo', '1 > x']]);
  });
});
