import { LOCAL_HOST, type Fleet, type HostAssignment } from '../../core/run/fleet.js';
import { parseHostSpec, parseRoleAssignment } from '../ssh/host-target.js';
import type { Inventory, InventoryHost } from './inventory.js';

/**
 * The fleet of a run from what the user gave: `--host ROLE=…` (repeat a role for several hosts)
 * and the groups of `--inventory` whose names are roles of the plan (`worker_2` reads as
 * `worker-2`, Ansible's spelling). Every host is checked here, before any connection: a role the
 * plan lacks, a host given twice, a spec that is not `[user@]host[:port]` are refused.
 */

export class FleetInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FleetInputError';
  }
}

/** An inventory host as a host spec: `ansible_user@ansible_host:ansible_port`, or `local`. */
export function assignmentOfInventoryHost(host: InventoryHost): HostAssignment {
  const vars = host.vars;
  if (vars['ansible_connection'] === 'local') return { spec: LOCAL_HOST, origin: host.origin };
  const address = vars['ansible_host'] ?? host.name;
  const user = vars['ansible_user'] ?? vars['ansible_ssh_user'];
  const port = vars['ansible_port'] ?? vars['ansible_ssh_port'];
  const spec = `${user ? `${user}@` : ''}${address.includes(':') && !address.startsWith('[') ? `[${address}]` : address}${port ? `:${port}` : ''}`;
  const identityFile = vars['ansible_ssh_private_key_file'] ?? vars['ansible_private_key_file'] ?? null;
  try {
    parseHostSpec(spec);
  } catch (error) {
    throw new FleetInputError(`${host.origin}: host ${host.name}: ${(error as Error).message}`);
  }
  return { spec, origin: host.origin, ...(identityFile ? { identityFile } : {}) };
}

function roleOfGroup(group: string, roles: readonly string[]): string | null {
  if (roles.includes(group)) return group;
  const dashed = group.replace(/_/g, '-');
  return roles.includes(dashed) ? dashed : null;
}

export function fleetOf(hosts: readonly string[], inventory: Inventory | null, roles: readonly string[], inventoryFile = 'the inventory'): Fleet {
  const fleet: Fleet = {};
  const add = (role: string, assignment: HostAssignment): void => {
    const list = (fleet[role] ??= []);
    if (list.some((other) => other.spec === assignment.spec)) {
      throw new FleetInputError(`${role}: host ${assignment.spec} is given twice (${[list.find((o) => o.spec === assignment.spec)?.origin, assignment.origin].filter(Boolean).join(' and ')})`);
    }
    list.push(assignment);
  };
  if (inventory) {
    let matched = 0;
    for (const [group, members] of inventory) {
      const role = roleOfGroup(group, roles);
      if (!role) continue;
      matched += 1;
      for (const host of members) add(role, assignmentOfInventoryHost(host));
    }
    if (matched === 0) {
      const groups = [...inventory.keys()].filter((g) => g !== 'all' && g !== 'ungrouped');
      throw new FleetInputError(`${inventoryFile}: no group is a role of the plan (groups: ${groups.join(', ') || 'none'}; roles: ${roles.join(', ')})`);
    }
  }
  for (const item of hosts) {
    const { role } = parseRoleAssignment(item);
    if (!roles.includes(role)) throw new FleetInputError(`--host ${item}: the plan has no role "${role}" (its roles: ${roles.join(', ')})`);
    const spec = item.slice(item.indexOf('=') + 1);
    if (spec !== LOCAL_HOST) parseHostSpec(spec);
    add(role, { spec, origin: `--host ${item}` });
  }
  for (const [role, list] of Object.entries(fleet)) {
    if (list.filter((a) => a.spec === LOCAL_HOST).length > 0 && list.length > 1) {
      throw new FleetInputError(`${role}: local runs the role on this machine; it cannot share the role with other hosts (${list.map((a) => a.spec).join(', ')})`);
    }
  }
  return fleet;
}
