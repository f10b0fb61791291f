import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { readmeCommands } from './readme-commands.js';

/**
 * Every `sh` example of README.md, run as typed and in the README's order, right after the quick
 * start, on a fresh clone's state: a copy of the built package (what `npm install` leaves), an
 * empty HOME and no RETRACE_DB, so the default store is the temp HOME's. A command marked
 * `# needs: …` (SSH hosts, a live run, your own rules file) is listed, never silently dropped.
 */
const commands = readmeCommands(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
const dir = tempDir('retrace-readme-');
const clone = join(dir, 'retrace');
const home = join(dir, 'home');

function shell(command: string): Promise<{ code: number; output: string }> {
  // offline: `npx retrace` must resolve to this clone, never to a registry package of that name.
  // ignore-scripts: npx links the clone into its cache and would run `prepare` (a second full build
  // of what the copy already holds); `npm start` still runs, as named scripts always do.
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, NO_COLOR: '1', npm_config_offline: 'true', npm_config_update_notifier: 'false', npm_config_ignore_scripts: 'true' };
  for (const name of ['RETRACE_DB', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'CODEX_HOME', 'npm_config_cache', 'npm_config_prefix']) delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', command], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

beforeAll(() => {
  mkdirSync(home);
  mkdirSync(clone);
  for (const part of ['package.json', 'package-lock.json', 'bin', 'dist', 'sessions', 'rules']) cpSync(join(REPO_ROOT, part), join(clone, part), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(clone, 'node_modules'));
});

describe('README examples work as typed after the quick start', () => {
  it('the quick start is the two commands, and npm start puts the sample in the default store', async () => {
    const quickStart = commands.filter((c) => c.block === 0).map((c) => c.text.replace(/\s+#.*$/, ''));
    expect(quickStart).toEqual(['npm install && npm start', 'npm test']);
    // `npm install` is what made the copy (and `npm test` is this suite): run the start.
    const start = await shell('npm start');
    expect(start.code, start.output).toBe(0);
    expect(start.output).toContain('retrace: the bundled sample is in ~/.local/share/retrace/retrace.duckdb');
    expect(existsSync(join(home, '.local', 'share', 'retrace', 'retrace.duckdb'))).toBe(true);
  });

  const runnable = commands.filter((c) => c.block > 0 && c.needs === null);
  it.each(runnable.map((c) => [`README.md:${c.line}`, c.text.replace(/\s+#.*$/, ''), c] as const))('%s runs: %s', async (_where, _text, command) => {
    const run = await shell(command.text);
    expect(run.code, `README.md:${command.line}: ${command.text}\n${run.output}`).toBe(0);
  }, 120_000);

  it('only commands that need what a test machine lacks are marked, each saying what', () => {
    const marked = commands.filter((c) => c.needs !== null);
    for (const command of marked) expect(command.needs, `README.md:${command.line}`).toMatch(/^(ssh hosts( and Ansible)?|a live run|your rules file( and a session that uses it)?)$/);
    // No read-only example is marked: a marker is not a way to hide a broken example.
    expect(marked.map((c) => c.text).join('\n')).not.toMatch(/retrace (why|sessions|timings|show|sql|plan|tree) /);
    expect(runnable.length).toBeGreaterThanOrEqual(15);
  });
});
