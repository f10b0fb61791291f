import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { tracedRun } from '../helpers/traced-run.js';

describe('retrace --version', () => {
  const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

  it.each([['--version'], ['-V'], ['--version', '-V']])('%s prints the package version without loading commander or the commands', (...args) => {
    const run = tracedRun(args);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
    expect(run.loaded.length).toBeGreaterThan(0);
    expect(run.loaded.filter((url) => url.includes('node_modules') || url.includes('/commands/'))).toEqual([]);
  });

  it('still answers through commander beside another argument', () => {
    const run = tracedRun(['--version', 'sessions']);
    expect(run.loaded.some((url) => url.includes('/commander/'))).toBe(true);
  });
});
