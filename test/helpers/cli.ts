import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/retrace.js', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `retrace` (bin/retrace.js → dist/) as a child process, as a user would. */
export function runRetrace(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** Runs retrace with --json and parses stdout, failing loudly with stderr when it is not JSON. */
export async function runRetraceJson<T = unknown>(args: readonly string[], options: Parameters<typeof runRetrace>[1] = {}): Promise<{ code: number; json: T; stderr: string }> {
  const run = await runRetrace([...args, '--json'], options);
  try {
    return { code: run.code, json: JSON.parse(run.stdout) as T, stderr: run.stderr };
  } catch {
    throw new Error(`retrace ${args.join(' ')} --json printed no JSON (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}
