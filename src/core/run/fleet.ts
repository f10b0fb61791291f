/**
 * The hosts a run goes to: each role of the plan takes one host or several (a fleet), named on the
 * command line (`--host worker=a --host worker=b`), in an Ansible inventory, or `local` (this
 * machine, no SSH). Stored with the run (`runs.host_specs`) so a resume goes back to the same
 * hosts. Older stores kept one spec per role as a plain string; both shapes are read.
 */

/** `--host ROLE=local`: the role's steps run on this machine, without SSH. */
export const LOCAL_HOST = 'local';

export interface HostAssignment {
  /** `[user@]host[:port]`, an ssh_config alias, or `local`. */
  spec: string;
  /** A key for this host only (an inventory's `ansible_ssh_private_key_file`), tried first. */
  identityFile?: string | null;
  /** Where it was named (`--host`, or `inventory.ini:12`), for messages. */
  origin?: string;
}

/** role → its hosts, in the order given. */
export type Fleet = Record<string, HostAssignment[]>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function assignmentOf(value: unknown): HostAssignment | null {
  if (typeof value === 'string') return value === '' ? null : { spec: value };
  if (isRecord(value) && typeof value['spec'] === 'string') {
    const identity = value['identityFile'];
    return { spec: value['spec'], ...(typeof identity === 'string' ? { identityFile: identity } : {}) };
  }
  return null;
}

/** A stored `host_specs` (either shape) as a fleet; anything unreadable is left out. */
export function fleetFromStored(value: unknown): Fleet {
  const fleet: Fleet = {};
  if (!isRecord(value)) return fleet;
  for (const [role, entry] of Object.entries(value)) {
    const list = (Array.isArray(entry) ? entry : [entry]).map(assignmentOf).filter((a): a is HostAssignment => a !== null);
    if (list.length > 0) fleet[role] = list;
  }
  return fleet;
}

/** A stored `hosts` (role → `user@host:port`, or a list of them) as lists. */
export function hostListsFromStored(value: unknown): Record<string, string[]> {
  const hosts: Record<string, string[]> = {};
  if (!isRecord(value)) return hosts;
  for (const [role, entry] of Object.entries(value)) {
    const list = (Array.isArray(entry) ? entry : [entry]).filter((host): host is string => typeof host === 'string' && host !== '');
    if (list.length > 0) hosts[role] = list;
  }
  return hosts;
}

/** `head=u@a:22, worker=u@b:22 u@c:22` for one line of text. */
export function describeHosts(hosts: Readonly<Record<string, readonly string[]>>): string {
  return Object.entries(hosts).map(([role, list]) => `${role}=${list.join(' ')}`).join(', ');
}

/**
 * Bounded concurrency (`--forks N`): at most `limit` tasks run at once, the others wait their turn
 * in the order they asked. A fleet of fifty hosts opens five sessions at a time, not fifty.
 */
export class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`a limit of ${limit} tasks at once: it must be a whole number ≥ 1`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await task();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}
