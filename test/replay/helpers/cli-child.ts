// The built CLI as a child process whose output can be watched line by line while it runs
// (test/helpers/cli.ts waits for the end; the fault tests act in the middle of a run).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../../helpers/cli.js';

const BIN = fileURLToPath(new URL('../../../bin/retrace.js', import.meta.url));

export interface WatchedCli {
  child: ChildProcess;
  lines: string[];
  stderr(): string;
  /** Resolves with the first stdout line matching, rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
}

export function startRetrace(args: readonly string[], env: NodeJS.ProcessEnv): WatchedCli {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  let errors = '';
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  child.stdin?.end();
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    lines,
    stderr: () => errors,
    waitFor(pattern, timeoutMs = 20_000) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} in ${timeoutMs} ms; got:\n${lines.join('\n')}\n${errors}`)), timeoutMs);
        waiters.push({ pattern, resolve: (line) => (clearTimeout(timer), resolve(line)) });
      });
    },
    exited,
  };
}
