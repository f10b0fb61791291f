import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/**
 * Runs one measurement in a fresh process, so every contender starts with the same cold heap and
 * caches. A bench child prints one JSON document as its last stdout line. Peak RSS is read from
 * `/usr/bin/time -v` when present, else by sampling the kernel's high-water mark (VmHWM) in /proc.
 */
export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** Peak resident set size of the process, in bytes (null if it could not be read). */
  maxRssBytes: number | null;
  /** Killed at the timeout. */
  timedOut: boolean;
}

export interface ChildRun<T> extends CommandRun {
  result: T;
}

export interface RunOptions {
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  onStderr?(chunk: string): void;
}

const TIME_BIN = '/usr/bin/time';
const HAS_TIME = existsSync(TIME_BIN);

export class ChildFailed extends Error {
  constructor(message: string, readonly stderr: string) {
    super(message);
    this.name = 'ChildFailed';
  }
}

function readVmHwmBytes(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** A process and everything it started (so `/usr/bin/time node …` is sampled at node, not only at time). */
function processTree(pid: number): number[] {
  const found = [pid];
  for (let i = 0; i < found.length; i += 1) {
    try {
      const children = readFileSync(`/proc/${found[i]}/task/${found[i]}/children`, 'utf8').trim();
      if (children) found.push(...children.split(/\s+/).map(Number));
    } catch {
      // gone already
    }
  }
  return found;
}

function describe(command: string, args: readonly string[]): string {
  return [command, ...args].map((a) => (a.length > 60 ? `…${a.slice(-40)}` : a)).join(' ');
}

function tail(text: string, lines = 15): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}

/**
 * Runs a command to completion, measuring wall time and peak RSS. On timeout its whole process
 * group is killed and the result says so (`timedOut`), with the peak RSS sampled until then.
 */
export function runCommand(command: string, args: readonly string[], options: RunOptions): Promise<CommandRun> {
  const file = HAS_TIME ? TIME_BIN : command;
  const fileArgs = HAS_TIME ? ['-v', command, ...args] : [...args];
  const started = performance.now();
  // Its own process group, so a timeout kills `time` and what it runs together.
  const child = spawn(file, fileArgs, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  let sampledPeak: number | null = null;
  let timedOut = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    options.onStderr?.(chunk);
  });
  const sampler = setInterval(() => {
    if (child.pid === undefined) return;
    for (const pid of processTree(child.pid)) {
      const peak = readVmHwmBytes(pid);
      if (peak !== null) sampledPeak = Math.max(sampledPeak ?? 0, peak);
    }
  }, 100);
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  }, options.timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      clearInterval(sampler);
      const wallMs = performance.now() - started;
      const timeReport = HAS_TIME ? /\n?\s*Command (?:being timed|exited with non-zero status|terminated by signal)[\s\S]*$/.exec(stderr) : null;
      const rss = timeReport ? /Maximum resident set size \(kbytes\): (\d+)/.exec(timeReport[0]) : null;
      const exit = timeReport ? /Exit status: (\d+)/.exec(timeReport[0]) : null;
      resolve({
        code: timedOut ? null : exit ? Number(exit[1]) : code,
        stdout,
        stderr: timeReport ? stderr.slice(0, timeReport.index) : stderr,
        wallMs,
        maxRssBytes: rss ? Math.max(Number(rss[1]) * 1024, sampledPeak ?? 0) : sampledPeak,
        timedOut,
      });
    });
  });
}

/** Runs a compiled bench child (`node [nodeArgs] script args`) and parses its JSON result. */
export async function runChild<T>(script: string, args: readonly string[], options: RunOptions & { nodeArgs?: string[] }): Promise<ChildRun<T>> {
  const run = await runCommand(process.execPath, [...(options.nodeArgs ?? []), script, ...args], options);
  const name = describe(script.split('/').slice(-2).join('/'), args);
  if (run.timedOut) throw new ChildFailed(`${name} killed after ${Math.round(options.timeoutMs / 1000)} s`, run.stderr);
  if (run.code !== 0) throw new ChildFailed(`${name} exited ${run.code}:\n${tail(run.stderr)}`, run.stderr);
  // The result is the last line that is a JSON object (Ink may print escape codes after it on exit).
  const last = run.stdout.split('\n').filter((line) => line.startsWith('{')).pop() ?? '';
  try {
    return { ...run, result: JSON.parse(last) as T };
  } catch {
    throw new ChildFailed(`${name} printed no JSON result:\n${tail(run.stderr)}`, run.stderr);
  }
}

/** What a child prints last: its JSON result (children call this once, at the end). */
export function emitResult(result: unknown): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
