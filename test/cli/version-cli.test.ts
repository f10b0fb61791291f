import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

/** A resolve hook that writes every module URL it resolves to stderr, one a line, prefixed. */
const TRACE_HOOKS = `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  process.stderr.write('loaded ' + resolved.url + '\\n');
  return resolved;
}`;
const TRACE_IMPORT = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(TRACE_HOOKS)}`)});`,
)}`;

function tracedRun(args: readonly string[]): { stdout: string; loaded: string[]; code: number | null } {
  const run = spawnSync(process.execPath, ['--import', TRACE_IMPORT, join(REPO_ROOT, 'bin', 'retrace.js'), ...args], { encoding: 'utf8' });
  const loaded = run.stderr.split('\n').filter((line) => line.startsWith('loaded ')).map((line) => line.slice('loaded '.length));
  return { stdout: run.stdout, loaded, code: run.status };
}

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
