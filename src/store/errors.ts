import { readFileSync } from 'node:fs';

/** Failures of the store that a user can act on; the CLI prints their message without a stack. */
export class StoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/**
 * A user's query that did not run to the end: `refused` (not a read-only statement, or a file it
 * may not read), `invalid` (DuckDB could not parse or bind it), `failed` (it ran and failed),
 * `timeout` (interrupted after its time).
 */
export class QueryError extends Error {
  constructor(
    readonly reason: 'refused' | 'invalid' | 'failed' | 'timeout',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'QueryError';
  }
}

const LOCK_HOLDER = /Conflicting lock is held in (.+?) \(PID (\d+)\)/;

/**
 * What the lock holder is, as \`ps\` would say it (\`retrace tui --db x.duckdb\`): DuckDB names only the
 * executable (\`/usr/bin/node\`), which is every retrace process. Linux's /proc; null elsewhere.
 */
export function commandOfPid(pid: number): string | null {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg !== '');
    if (args.length === 0) return null;
    // \`node /path/bin/retrace.js tui …\` reads better as \`retrace tui …\`.
    const script = args.findIndex((arg) => /(^|\/)retrace(\.js)?$/.test(arg));
    const command = (script >= 0 ? ['retrace', ...args.slice(script + 1)] : args).join(' ').replace(/\s+/g, ' ');
    return command.length > 200 ? `${command.slice(0, 199)}…` : command;
  } catch {
    return null;
  }
}

/** Turns DuckDB's open failures into messages that say what to do. */
export function describeOpenFailure(path: string, error: unknown): StoreError {
  const text = error instanceof Error ? error.message : String(error);
  const holder = LOCK_HOLDER.exec(text);
  if (holder) {
    return new StoreError(
      `the store ${path} is locked by another process: ${commandOfPid(Number(holder[2])) ?? holder[1]} (PID ${holder[2]}). ` +
        'Wait for it to finish (an ingest or replay), or point --db at another file.',
      { cause: error },
    );
  }
  if (/Could not set lock|lock on file/i.test(text)) {
    return new StoreError(`the store ${path} is locked by another process; wait for it or use another --db file`, { cause: error });
  }
  if (/not a valid DuckDB database|file is not a valid|Unknown database format|failed to read database header/i.test(text)) {
    return new StoreError(`${path} is not a retrace store (not a DuckDB database file)`, { cause: error });
  }
  if (/No space left on device/i.test(text)) {
    return new StoreError(`no space left on the device holding ${path}`, { cause: error });
  }
  return new StoreError(`could not open the store ${path}: ${text}`, { cause: error });
}

/** Write failures (a full disk, a file-size limit) keep the store as it was before the write. */
export function describeWriteFailure(path: string, what: string, error: unknown): StoreError {
  const text = error instanceof Error ? error.message : String(error);
  if (/No space left on device|File too large|disk full|EFBIG|ENOSPC/i.test(text)) {
    return new StoreError(`${what}: the disk holding ${path} is full (nothing from this source was kept; the store is intact)`, { cause: error });
  }
  return new StoreError(`${what}: ${text}`, { cause: error });
}
