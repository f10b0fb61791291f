import { spawn } from 'node:child_process';
import { hostname, userInfo } from 'node:os';
import type { HostExecutor, RunCommandOptions } from './host-executor.js';
import { MarkerReader, outputSink, secretsStdin, wrapRemoteCommand } from './remote-command.js';
import type { ExecOutcome } from '../../core/run/verdict.js';

/**
 * `--host ROLE=local`: the role's steps run on this machine, without SSH, exactly as they would
 * on a host: the same wrapper (the shell's pid as process group marker, secrets read from stdin,
 * never on a command line, pipefail, RETRACE_STEP), the same timeouts, and a timeout or Ctrl-C
 * kills the whole process group (`detached` makes the shell a group leader, as sshd makes the
 * session shell one). The shell is the user's login shell, as sshd would run it.
 */

/** How long after SIGTERM the group gets SIGKILL, and how long after that we stop waiting. */
const GRACE_MS = 2_000;

export interface LocalExecutorOptions {
  /** The environment the steps see (the caller's, unless a test gives a stub toolset's). */
  env: NodeJS.ProcessEnv;
  /** Working directory: HOME, as an SSH session starts there. */
  cwd?: string;
}

export class LocalHostExecutor implements HostExecutor {
  readonly display: string;
  readonly lost: string | null = null;
  private readonly running = new Set<number>();

  constructor(
    readonly role: string,
    private readonly options: LocalExecutorOptions,
  ) {
    this.display = `${options.env['USER'] ?? userInfo().username}@${hostname()} (local)`;
  }

  run(command: string, options: RunCommandOptions): Promise<ExecOutcome> {
    const names = Object.keys(options.secrets);
    const shell = this.options.env['SHELL'] || '/bin/sh';
    const marker = new MarkerReader();
    const { output, emit } = outputSink(options.secrets, options.onOutput);
    return new Promise((resolve) => {
      let stdin: string;
      try {
        stdin = secretsStdin(names, options.secrets);
      } catch (error) {
        resolve({ kind: 'exited', exitCode: 2, output: `${(error as Error).message}\n` });
        return;
      }
      const child = spawn(shell, ['-c', wrapRemoteCommand(command, names, { pipefail: options.pipefail, stepTag: options.stepTag })], {
        cwd: this.options.cwd ?? this.options.env['HOME'] ?? process.cwd(),
        env: this.options.env,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const pgid = child.pid ?? null;
      if (pgid !== null) this.running.add(pgid);
      let stopping: 'timeout' | 'interrupted' | null = null;
      const stop = (why: 'timeout' | 'interrupted'): void => {
        if (stopping || pgid === null) return;
        stopping = why;
        signalGroup(pgid, 'SIGTERM');
        setTimeout(() => signalGroup(pgid, 'SIGKILL'), GRACE_MS).unref();
      };
      const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
      const onAbort = (): void => stop('interrupted');
      if (options.signal?.aborted) onAbort();
      options.signal?.addEventListener('abort', onAbort);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => emit('stdout', chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        const known = marker.pgid;
        emit('stderr', marker.push(chunk));
        if (known === null && marker.pgid !== null) options.onProcessGroup?.(marker.pgid);
      });
      child.stdin.on('error', () => undefined); // a command that never reads its stdin
      child.stdin.end(stdin);
      child.on('error', (error) => {
        finish();
        resolve({ kind: 'exited', exitCode: 127, output: `${shell}: ${error.message}\n` });
      });
      child.on('close', (code, signal) => {
        finish();
        emit('stderr', marker.flush());
        const text = output.value();
        if (stopping === 'timeout') resolve({ kind: 'timeout', output: text });
        else if (stopping === 'interrupted') resolve({ kind: 'interrupted', output: text });
        else if (code === null) resolve({ kind: 'exited', exitCode: 128 + signalNumber(signal), output: text });
        else resolve({ kind: 'exited', exitCode: code, output: text });
      });
      const finish = (): void => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        if (pgid !== null) this.running.delete(pgid);
      };
    });
  }

  /** Nothing to disconnect; a group still running (retrace is leaving) is stopped. */
  close(): void {
    for (const pgid of this.running) signalGroup(pgid, 'SIGTERM');
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

const SIGNALS: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGABRT: 6, SIGKILL: 9, SIGSEGV: 11, SIGPIPE: 13, SIGTERM: 15 };

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal ? (SIGNALS[signal] ?? 0) : 0;
}
