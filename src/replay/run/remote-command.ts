/**
 * What is sent over the SSH exec channel around a step's command, and how its output is read
 * back. Pure text functions, tested without a server.
 *
 * - The session shell (a session leader under sshd, so its pid is the process group id) first
 *   prints its pid on stderr behind a marker: a timeout or Ctrl-C then kills the whole group
 *   with `kill -- -PGID` over a second channel, not only the channel.
 * - Secrets arrive on stdin, one line each, read into exported variables before the command
 *   runs: never on a command line (visible in `ps`), never in the store; sshd's AcceptEnv is
 *   not needed.
 */

export const PGID_MARKER = '\u001eretrace-pgid ';

export class SecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretError';
  }
}

/** Secret names a command (or guard) refers to as `$NAME` or `${NAME}`. */
export function secretsReferenced(command: string, secretNames: readonly string[]): string[] {
  return secretNames.filter((name) => new RegExp(`\\$(?:\\{${name}(?:[:}#%/-])|${name}(?![A-Za-z0-9_]))`).test(command));
}

/** One POSIX shell word holding `text` exactly. */
function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * `pipefail` in whatever shell the host logs in with: set where the shell has it (bash, zsh, ksh,
 * busybox, newer dash); else the command runs in bash with it (`exec`, so the process group and
 * its pid stay those the marker reported); else, on a shell with neither, as it is.
 */
export function pipefailPrologue(command: string): string {
  return `if (set -o pipefail) 2>/dev/null; then set -o pipefail; elif command -v bash >/dev/null 2>&1; then exec bash -o pipefail -c ${singleQuoted(command)}; fi`;
}

export interface WrapOptions {
  /** Run the command with pipefail (see plan/pipefail.ts). */
  pipefail?: boolean;
  /** Exported as RETRACE_STEP: lets a later resume recognise this step's processes on the host. */
  stepTag?: string;
}

export function wrapRemoteCommand(command: string, secretNames: readonly string[], options: WrapOptions = {}): string {
  const lines = [`printf '${PGID_MARKER.replace('\u001e', '\\036')}%s\\n' "$$" >&2`];
  for (const name of secretNames) lines.push(`IFS= read -r ${name}; export ${name}`);
  if (options.stepTag) lines.push(`RETRACE_STEP=${singleQuoted(options.stepTag)}; export RETRACE_STEP`);
  if (options.pipefail) lines.push(pipefailPrologue(command));
  lines.push(command);
  return lines.join('\n');
}

/** The stdin that goes with `wrapRemoteCommand`: each secret's value on its own line. */
export function secretsStdin(secretNames: readonly string[], values: Readonly<Record<string, string | undefined>>): string {
  return secretNames
    .map((name) => {
      const value = values[name];
      if (value === undefined) throw new SecretError(`secret ${name} is not set in the environment`);
      if (/[\n\r\0]/.test(value)) throw new SecretError(`secret ${name} holds a line break or NUL, which cannot be passed`);
      return `${value}\n`;
    })
    .join('');
}

/**
 * Stops a step's process group: politely, then for sure. `kill -s NAME -- -PGID` is the form every
 * POSIX shell's kill reads (dash's builtin refuses `kill -TERM -- -PGID` with "Illegal number").
 */
export function killGroupCommand(pgid: number, graceSeconds = 2): string {
  if (!Number.isInteger(pgid) || pgid <= 1) throw new Error(`refusing to signal process group ${pgid}`);
  return `kill -s TERM -- -${pgid} 2>/dev/null; sleep ${graceSeconds}; kill -s KILL -- -${pgid} 2>/dev/null; true`;
}

/** An earlier attempt of a step that may still run on its host (see `stopLingeringCommand`). */
export interface LingeringProcess {
  pgid: number;
  /** The RETRACE_STEP value the attempt was started with. */
  tag: string;
}

/**
 * Before a resume runs a step again whose earlier attempt never reported its end: if that
 * attempt's process group still exists and is still ours (its session shell's command line or a
 * member's environment carries the step's tag; where /proc is absent, a live group is taken as
 * ours), stop it and say so on stderr. A group id reused by something else is left alone.
 */
export function stopLingeringCommand(process: LingeringProcess, graceSeconds = 2): string {
  const { pgid, tag } = process;
  if (!Number.isInteger(pgid) || pgid <= 1) throw new Error(`refusing to signal process group ${pgid}`);
  return [
    `pg=${pgid} step=${singleQuoted(tag)}`,
    'kill -s 0 -- -"$pg" 2>/dev/null || exit 0',
    'if [ -d /proc/self ]; then',
    '  living=0 ours=0',
    '  for p in $(pgrep -g "$pg" 2>/dev/null || echo "$pg"); do',
    // A zombie (exited, not yet reaped) has an empty command line: it runs nothing.
    '    [ -n "$(tr -d \'\\000\' < "/proc/$p/cmdline" 2>/dev/null)" ] || continue',
    '    living=1',
    '    if grep -qsF -- "$step" "/proc/$p/cmdline" "/proc/$p/environ"; then ours=1; break; fi',
    '  done',
    '  [ "$living" = 1 ] || exit 0',
    '  if [ "$ours" = 0 ]; then echo "process group $pg is no longer the earlier attempt of $step: left alone" >&2; exit 0; fi',
    'fi',
    `kill -s TERM -- -"$pg" 2>/dev/null; sleep ${graceSeconds}; kill -s KILL -- -"$pg" 2>/dev/null`,
    'echo "stopped the earlier attempt of $step (process group $pg), which was still running" >&2',
  ].join('\n');
}

/**
 * Reads stderr as it streams: holds bytes until the marker line is seen (or ruled out), then
 * passes the rest through. The marker is always the first thing the wrapper writes.
 */
export class MarkerReader {
  private pending = '';
  private settled = false;
  pgid: number | null = null;

  /** Returns the part of `chunk` that belongs to the command's own stderr. */
  push(chunk: string): string {
    if (this.settled) return chunk;
    this.pending += chunk;
    const newline = this.pending.indexOf('\n');
    if (newline < 0) {
      if (!PGID_MARKER.startsWith(this.pending.slice(0, PGID_MARKER.length)) || this.pending.length > 64) return this.settle();
      return '';
    }
    const first = this.pending.slice(0, newline);
    if (first.startsWith(PGID_MARKER)) {
      const pid = Number(first.slice(PGID_MARKER.length));
      if (Number.isInteger(pid) && pid > 1) this.pgid = pid;
      this.pending = this.pending.slice(newline + 1);
    }
    return this.settle();
  }

  /** Whatever is still held (the stream ended before a full line). */
  flush(): string {
    return this.settle();
  }

  private settle(): string {
    this.settled = true;
    const rest = this.pending;
    this.pending = '';
    return rest;
  }
}

/** Replaces every occurrence of a secret's value in text a remote host sent back. */
export function scrubSecrets(text: string, values: Readonly<Record<string, string>>): string {
  let out = text;
  for (const [name, value] of Object.entries(values)) {
    if (value.length >= 4) out = out.split(value).join(`[REDACTED:env:${name}]`);
  }
  return out;
}

/** Keeps the last `limit` characters of a growing output, noting what was dropped. */
export class OutputTail {
  private text = '';
  dropped = 0;

  constructor(private readonly limit = 512 * 1024) {}

  append(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.limit * 2) this.trim();
  }

  private trim(): void {
    const cut = this.text.length - this.limit;
    if (cut > 0) {
      this.dropped += cut;
      this.text = this.text.slice(cut);
    }
  }

  value(): string {
    this.trim();
    return this.dropped > 0 ? `[… ${this.dropped} characters dropped …]\n${this.text}` : this.text;
  }
}

/**
 * Where a running step's output goes: secrets scrubbed, kept as a bounded tail for the record,
 * and passed on live. Shared by the SSH and the local executor.
 */
export function outputSink(
  secrets: Readonly<Record<string, string>>,
  onOutput?: (stream: 'stdout' | 'stderr', chunk: string) => void,
): { output: OutputTail; emit: (stream: 'stdout' | 'stderr', raw: string) => void } {
  const output = new OutputTail();
  const emit = (stream: 'stdout' | 'stderr', raw: string): void => {
    if (raw === '') return;
    const chunk = scrubSecrets(raw, secrets);
    output.append(chunk);
    onOutput?.(stream, chunk);
  };
  return { output, emit };
}
