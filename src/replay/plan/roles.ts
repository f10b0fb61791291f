import type { Plan } from '../../core/plan/schema.js';

/**
 * Roles from the hosts the kept steps ran on: the host that served (or started the cluster head)
 * is `head`, the others `worker`, `worker-2`, … in order of first use; one host alone is `head`, and
 * the agent's own machine beside remote hosts it did not serve from is `local`.
 * Hostnames come from the session's words ("spark-1a32 is the head, spark-5be3 the worker") or
 * from a `hostname` the host printed. Recorded addresses are kept as comments, never targets.
 */

export interface HostUse {
  host: string | null;
  user: string | null;
  /** The host served the model or started the cluster head. */
  leads: boolean;
}

export interface RoleAssignment {
  roles: Plan['roles'];
  /** Recorded host (null for "where the agent ran") → role. */
  roleOf: Map<string | null, string>;
}

const ROLE_WORDS = /\b([A-Za-z][\w.-]*\d[\w.-]*)\s+(?:is\s+|as\s+)?(?:the\s+)(head|worker|master|primary|secondary)\b/gi;

/** Hostnames a session text names for each role word ("X is the head"). */
export function hostnamesByRoleWord(texts: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const text of texts) {
    for (const match of text.matchAll(ROLE_WORDS)) {
      const word = (match[2] ?? '').toLowerCase();
      const role = word === 'master' || word === 'primary' ? 'head' : word === 'secondary' ? 'worker' : word;
      if (match[1] && !found.has(role)) found.set(role, match[1]);
    }
  }
  return found;
}

export function assignRoles(uses: readonly HostUse[], texts: readonly string[], printedHostnames: ReadonlyMap<string | null, string>): RoleAssignment {
  const order: (string | null)[] = [];
  const users = new Map<string | null, string | null>();
  let lead: string | null | undefined;
  for (const use of uses) {
    if (!order.includes(use.host)) order.push(use.host);
    if (!users.get(use.host) && use.user) users.set(use.host, use.user);
    if (use.leads && lead === undefined) lead = use.host;
  }
  const ordered = lead === undefined ? order : [lead, ...order.filter((host) => host !== lead)];
  // Where the agent ran, beside remote hosts it did not serve from, is `local` (it copied or drove them from there).
  const local = ordered.length > 1 && ordered[0] !== null && ordered.includes(null);
  const remote = local ? ordered.filter((host) => host !== null) : ordered;
  const named = hostnamesByRoleWord(texts);
  const roles: Plan['roles'] = {};
  const roleOf = new Map<string | null, string>();
  if (local) {
    roleOf.set(null, 'local');
    roles['local'] = { recorded_address: null, recorded_hostname: null, recorded_user: null };
  }
  remote.forEach((host, index) => {
    const role = index === 0 ? 'head' : index === 1 ? 'worker' : `worker-${index}`;
    roleOf.set(host, role);
    roles[role] = {
      recorded_address: host,
      recorded_hostname: printedHostnames.get(host) ?? named.get(role) ?? null,
      recorded_user: users.get(host) ?? null,
    };
  });
  return { roles, roleOf };
}
