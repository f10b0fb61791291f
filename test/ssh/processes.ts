// Finding and signalling the processes an sshd listener forked, by reading /proc.
// Process groups do not help here: sshd calls setsid() for every connection.
import { readdirSync, readFileSync } from 'node:fs';

interface ProcessEntry {
  pid: number;
  parentPid: number;
  command: string;
}

function readProcessEntry(pid: number): ProcessEntry | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone between listing and reading
  }
  // "pid (comm) state ppid …": comm may itself hold spaces or parentheses.
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  const parentPid = Number(fields[1]);
  if (open < 0 || close < open || !Number.isInteger(parentPid)) return undefined;
  return { pid, parentPid, command: stat.slice(open + 1, close) };
}

function listProcesses(): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const entry = readProcessEntry(Number(name));
    if (entry) entries.push(entry);
  }
  return entries;
}

/** Every process below `rootPid` (children, grandchildren …), parents before children. */
export function descendantsOf(rootPid: number): ProcessEntry[] {
  const childrenByParent = new Map<number, ProcessEntry[]>();
  for (const entry of listProcesses()) {
    const siblings = childrenByParent.get(entry.parentPid) ?? [];
    siblings.push(entry);
    childrenByParent.set(entry.parentPid, siblings);
  }
  const found: ProcessEntry[] = [];
  const queue = [rootPid];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of childrenByParent.get(pid) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** The per-connection sshd processes (`sshd`, or `sshd-session`/`sshd-auth` on OpenSSH ≥ 9.8). */
export function connectionProcessesOf(listenerPid: number): ProcessEntry[] {
  return descendantsOf(listenerPid).filter((entry) => /^sshd(-|$)/.test(entry.command));
}

/** Sends `signal` to each pid, ignoring the ones that already exited. Returns how many were signalled. */
export function signalAll(pids: readonly number[], signal: NodeJS.Signals): number {
  let signalled = 0;
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
      signalled += 1;
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'ESRCH')) throw error;
    }
  }
  return signalled;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

export function commandLineOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((part) => part !== '');
  } catch {
    return [];
  }
}
