import type { ExecEnd, SshConnection } from '../ssh/connection.js';
import {
  killGroupCommand,
  MarkerReader,
  outputSink,
  secretsStdin,
  wrapRemoteCommand,
} from './remote-command.js';
import type { ExecOutcome } from '../../core/run/verdict.js';

/** Runs commands on one host for the runner; the runner never sees SSH. */
export interface HostExecutor {
  readonly role: string;
  /** `user@host:port` as connected. */
  readonly display: string;
  /** Why the host can no longer run anything (its connection died), or null. */
  readonly lost: string | null;
  run(command: string, options: RunCommandOptions): Promise<ExecOutcome>;
  close(): void;
}

export interface RunCommandOptions {
  timeoutMs: number;
  /** Secret values this command refers to, by name; passed on stdin, scrubbed from the output. */
  secrets: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  onOutput?(stream: 'stdout' | 'stderr', chunk: string): void;
  /** Run with pipefail (the command trims a pipeline's output: see plan/pipefail.ts). */
  pipefail?: boolean;
  /** Exported to the remote command as RETRACE_STEP, so a resume can find it still running. */
  stepTag?: string;
  /** The remote process group, as soon as the host reported it. */
  onProcessGroup?(pgid: number): void;
}

/** A shell reports a command killed by signal N as exit 128 + N; so does the runner. */
const SIGNAL_NUMBERS: Readonly<Record<string, number>> = { HUP: 1, INT: 2, QUIT: 3, ABRT: 6, KILL: 9, SEGV: 11, PIPE: 13, TERM: 15 };

/** How long to wait for a killed step's channel to close before calling it gone. */
const AFTER_KILL_MS = 5_000;

export class SshHostExecutor implements HostExecutor {
  constructor(
    readonly role: string,
    private readonly connection: SshConnection,
  ) {}

  get display(): string {
    return this.connection.display;
  }

  get lost(): string | null {
    return this.connection.lost;
  }

  async run(command: string, options: RunCommandOptions): Promise<ExecOutcome> {
    const names = Object.keys(options.secrets);
    const marker = new MarkerReader();
    const { output, emit } = outputSink(options.secrets, options.onOutput);
    const remote = this.connection.exec(wrapRemoteCommand(command, names, { pipefail: options.pipefail, stepTag: options.stepTag }), {
      stdin: secretsStdin(names, options.secrets),
      onStdout: (chunk) => emit('stdout', chunk),
      onStderr: (chunk) => {
        const known = marker.pgid;
        emit('stderr', marker.push(chunk));
        if (known === null && marker.pgid !== null) options.onProcessGroup?.(marker.pgid);
      },
    });

    let stopping: 'timeout' | 'interrupted' | null = null;
    let giveUp: (end: ExecEnd) => void = () => undefined;
    const abandoned = new Promise<ExecEnd>((resolve) => (giveUp = resolve));
    const stop = (why: 'timeout' | 'interrupted'): void => {
      if (stopping) return;
      stopping = why;
      // Kill the group, close the channel; and if even that leaves it open (a process that escaped
      // its group still holds the pipes), stop waiting: the step is over for the run.
      void this.killGroup(marker.pgid).finally(() => {
        setTimeout(() => remote.close(), AFTER_KILL_MS).unref();
        setTimeout(() => giveUp({ kind: 'exit', code: null, signal: null }), 2 * AFTER_KILL_MS).unref();
      });
    };
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
    const onAbort = (): void => stop('interrupted');
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort);
    try {
      const end = await Promise.race([remote.done, abandoned]);
      emit('stderr', marker.flush());
      const text = output.value();
      if (end.kind === 'lost') return { kind: 'lost', reason: end.reason, output: text };
      if (stopping === 'timeout') return { kind: 'timeout', output: text };
      if (stopping === 'interrupted') return { kind: 'interrupted', output: text };
      if (end.code === null) return { kind: 'exited', exitCode: 128 + (SIGNAL_NUMBERS[end.signal ?? ''] ?? 0), output: text };
      return { kind: 'exited', exitCode: end.code, output: text };
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Kills the step's whole process group over a second channel of the same connection. */
  private async killGroup(pgid: number | null): Promise<void> {
    if (pgid === null || this.connection.lost !== null) return;
    const killer = this.connection.exec(killGroupCommand(pgid));
    await Promise.race([killer.done, new Promise((resolve) => setTimeout(resolve, AFTER_KILL_MS).unref())]);
  }

  close(): void {
    this.connection.close();
  }
}
