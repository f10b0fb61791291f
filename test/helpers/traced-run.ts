import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';

/** A resolve hook that writes every module URL it resolves to stderr, one a line, prefixed. */
const TRACE_HOOKS = `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  process.stderr.write('loaded ' + resolved.url + '\\n');
  return resolved;
}`;
const TRACE_IMPORT = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(TRACE_HOOKS)}`)});`,
)}`;

/** The built CLI run with every module it imports (ESM) traced: its stdout, exit code, the modules' URLs and the rest of stderr. */
export function tracedRun(args: readonly string[]): { stdout: string; stderr: string; loaded: string[]; code: number | null } {
  const run = spawnSync(process.execPath, ['--import', TRACE_IMPORT, join(REPO_ROOT, 'bin', 'retrace.js'), ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const lines = run.stderr.split('\n');
  const loaded = lines.filter((line) => line.startsWith('loaded ')).map((line) => line.slice('loaded '.length));
  return { stdout: run.stdout, stderr: lines.filter((line) => !line.startsWith('loaded ')).join('\n'), loaded, code: run.status };
}
