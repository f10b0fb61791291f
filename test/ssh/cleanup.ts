// Leaving nothing behind: host sets live in one folder each under hostsBaseDir(); a set is
// killed and removed by stop(), at process exit, or by the next harness start when its owner
// process died too hard to clean up (SIGKILL).
import { accessSync, constants, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLineOf, descendantsOf, isAlive, signalAll } from './processes.js';

const TEMP_PREFIX = 'retrace-test-hosts-';
const ROLE_DIRS = ['head', 'worker'];

/**
 * Where host sets live: /var/tmp when usable, else the temp dir. (Either works: a simulated
 * container's private /tmp binds the host set's folder back in when it lives under /tmp.)
 */
export function hostsBaseDir(): string {
  try {
    accessSync('/var/tmp', constants.W_OK);
    return '/var/tmp';
  } catch {
    return tmpdir();
  }
}

export function hostSetPrefix(baseDir = hostsBaseDir()): string {
  return join(baseDir, TEMP_PREFIX);
}

function killTree(pid: number): void {
  signalAll([pid, ...descendantsOf(pid).map((entry) => entry.pid)], 'SIGKILL');
}

/**
 * Ends every process a session of this host set started, wherever it was reparented to: they
 * all carry the set's SPARK_SIM_STATE (set by sshd) in their environment. That covers commands
 * left running by a dropped connection and what the simulation leaves behind (a vLLM server's
 * late log writer).
 */
export function killSessionProcesses(rootDir: string): void {
  const marker = Buffer.from(`SPARK_SIM_STATE=${rootDir}/`);
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`).includes(marker)) found.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  signalAll(found, 'SIGKILL');
}

export interface LiveHostSet {
  rootDir: string;
  /** The sshd listener pids of its hosts (undefined while one restarts). */
  listenerPids: () => (number | undefined)[];
}

const liveSets = new Set<LiveHostSet>();
let exitHookInstalled = false;

export function killHostSetSync(set: LiveHostSet): void {
  liveSets.delete(set);
  for (const pid of set.listenerPids()) if (pid !== undefined) killTree(pid);
  killSessionProcesses(set.rootDir);
  rmSync(set.rootDir, { recursive: true, force: true });
}

/** Registers a set to be killed when this process exits without stopping it. */
export function trackHostSet(set: LiveHostSet): void {
  liveSets.add(set);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const live of [...liveSets]) killHostSetSync(live);
  });
}

/** Removes the sets of test processes that died without cleaning up. */
export function reapOrphanedHostSets(): void {
  const baseDir = hostsBaseDir();
  for (const name of readdirSync(baseDir)) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const rootDir = join(baseDir, name);
    let ownerPid: number;
    try {
      ownerPid = Number(readFileSync(join(rootDir, 'owner.pid'), 'utf8'));
    } catch {
      continue; // being created right now, or not ours
    }
    if (!Number.isInteger(ownerPid) || ownerPid === process.pid || isAlive(ownerPid)) continue;
    for (const role of ROLE_DIRS) {
      const configPath = join(rootDir, role, 'sshd_config');
      let sshdPid: number;
      try {
        sshdPid = Number(readFileSync(join(rootDir, role, 'sshd.pid'), 'utf8'));
      } catch {
        continue;
      }
      // Only an sshd started with this very config file: pids get reused. (sshd rewrites its
      // command line into one string, "sshd: /usr/sbin/sshd -D -e -f … [listener] …".)
      if (commandLineOf(sshdPid).join(' ').includes(configPath)) killTree(sshdPid);
    }
    killSessionProcesses(rootDir);
    rmSync(rootDir, { recursive: true, force: true });
  }
}
