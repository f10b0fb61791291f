import { parseDocument } from 'yaml';
import { z } from 'zod';

/**
 * Ansible inventories as fleets (`--inventory FILE`): each group is a role, each host a host of
 * it. Both of Ansible's own formats: INI (`[group]`, `[group:vars]`, `[group:children]`, host
 * lines `name key=value …`, ranges `node[01:04]`) and YAML (`all: children: group: hosts: …`).
 * The host variables retrace uses: `ansible_host`, `ansible_user`, `ansible_port`,
 * `ansible_ssh_private_key_file` (or `ansible_private_key_file`) and `ansible_connection=local`;
 * group vars apply to the group's hosts, a host's own win. Pure: text in, groups out; a problem
 * names the file and the line.
 */

export interface InventoryHost {
  /** The inventory's name for the host (an address, a DNS name or an ssh_config alias). */
  name: string;
  vars: Record<string, string>;
  /** `inventory.ini:12` */
  origin: string;
}

export type Inventory = Map<string, InventoryHost[]>;

export class InventoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InventoryError';
  }
}

/** `node[01:03]` → node01, node02, node03; `web[a:c]` → weba, webb, webc; a name without a range as it is. */
export function expandHostPattern(pattern: string): string[] {
  const match = /^(.*?)\[([0-9]+|[a-z]):([0-9]+|[a-z])(?::([0-9]+))?\](.*)$/.exec(pattern);
  if (!match) return [pattern];
  const [, before = '', from = '', to = '', stepText, after = ''] = match;
  const step = stepText ? Number(stepText) : 1;
  const out: string[] = [];
  if (/^[0-9]+$/.test(from) && /^[0-9]+$/.test(to)) {
    const width = from.startsWith('0') ? from.length : 0;
    for (let n = Number(from); n <= Number(to); n += step) out.push(...expandHostPattern(`${before}${String(n).padStart(width, '0')}${after}`));
  } else {
    for (let c = from.charCodeAt(0); c <= to.charCodeAt(0); c += step) out.push(...expandHostPattern(`${before}${String.fromCharCode(c)}${after}`));
  }
  return out;
}

/** `key=value key2="quoted value"` (shell-like words). */
function hostVars(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const match of text.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|'([^']*)'|\S+)/g)) {
    vars[match[1] ?? ''] = match[3] ?? match[4] ?? match[2] ?? '';
  }
  return vars;
}

interface Groups {
  hosts: Map<string, InventoryHost[]>;
  vars: Map<string, Record<string, string>>;
  children: Map<string, string[]>;
}

function emptyGroups(): Groups {
  return { hosts: new Map(), vars: new Map(), children: new Map() };
}

function addHost(groups: Groups, group: string, host: InventoryHost): void {
  groups.hosts.set(group, [...(groups.hosts.get(group) ?? []), host]);
}

function parseIni(text: string, file: string): Groups {
  const groups = emptyGroups();
  let section = { group: 'ungrouped', kind: 'hosts' as 'hosts' | 'vars' | 'children' };
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/\s[#;].*$/, '').trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
    const origin = `${file}:${index + 1}`;
    const header = /^\[([^\]:]+)(?::(vars|children))?\]$/.exec(line);
    if (header) {
      section = { group: header[1] ?? '', kind: (header[2] as 'vars' | 'children' | undefined) ?? 'hosts' };
      if (section.kind === 'hosts' && !groups.hosts.has(section.group)) groups.hosts.set(section.group, []);
      return;
    }
    if (line.startsWith('[')) throw new InventoryError(`${origin}: not a group header: ${line}`);
    if (section.kind === 'vars') {
      const [key, ...rest] = line.split('=');
      if (!key || rest.length === 0) throw new InventoryError(`${origin}: expected key=value under [${section.group}:vars]: ${line}`);
      groups.vars.set(section.group, { ...groups.vars.get(section.group), [key.trim()]: rest.join('=').trim().replace(/^(["'])(.*)\1$/, '$2') });
    } else if (section.kind === 'children') {
      groups.children.set(section.group, [...(groups.children.get(section.group) ?? []), line.split(/\s+/)[0] ?? '']);
    } else {
      const [pattern = '', ...rest] = line.split(/\s+/);
      const vars = hostVars(rest.join(' '));
      for (const name of expandHostPattern(pattern)) addHost(groups, section.group, { name, vars, origin });
    }
  });
  return groups;
}

const scalar = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const varsSchema = z.record(z.string(), scalar.nullable()).nullable().optional();
interface YamlGroup {
  hosts?: Record<string, Record<string, string | null> | null | undefined> | null | undefined;
  vars?: Record<string, string | null> | null | undefined;
  children?: Record<string, YamlGroup | null> | null | undefined;
}
const groupSchema: z.ZodType<YamlGroup> = z.lazy(() =>
  z.object({
    hosts: z.record(z.string(), varsSchema).nullable().optional(),
    vars: varsSchema,
    children: z.record(z.string(), groupSchema.nullable()).nullable().optional(),
  }),
);

function parseYaml(text: string, file: string): Groups {
  const doc = parseDocument(text, { keepSourceTokens: false });
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
    throw new InventoryError(`${file}:${error?.linePos?.[0]?.line ?? 1}: ${error?.message.split('\n')[0] ?? 'not YAML'}`);
  }
  const parsed = z.record(z.string(), groupSchema.nullable()).safeParse(doc.toJS() ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InventoryError(`${file}: ${issue?.path.join('.') || 'the top level'}: ${issue?.message ?? 'not an inventory'} (expected group: {hosts, vars, children})`);
  }
  const groups = emptyGroups();
  const visit = (name: string, group: YamlGroup | null): void => {
    if (!groups.hosts.has(name)) groups.hosts.set(name, []);
    const clean = (vars: Record<string, string | null> | null | undefined): Record<string, string> =>
      Object.fromEntries(Object.entries(vars ?? {}).filter((e): e is [string, string] => e[1] !== null));
    if (group?.vars) groups.vars.set(name, { ...groups.vars.get(name), ...clean(group.vars) });
    for (const [pattern, vars] of Object.entries(group?.hosts ?? {})) {
      for (const host of expandHostPattern(pattern)) addHost(groups, name, { name: host, vars: clean(vars), origin: `${file} (${name})` });
    }
    for (const [child, sub] of Object.entries(group?.children ?? {})) {
      groups.children.set(name, [...(groups.children.get(name) ?? []), child]);
      visit(child, sub);
    }
  };
  for (const [name, group] of Object.entries(parsed.data)) visit(name, group);
  return groups;
}

/** Every group's hosts, with the hosts of its children and the vars of the groups above them. */
function flatten(groups: Groups): Inventory {
  const all = new Set([...groups.hosts.keys(), ...groups.children.keys()]);
  const inventory: Inventory = new Map();
  const collect = (group: string, inherited: Record<string, string>, seen: Set<string>): InventoryHost[] => {
    if (seen.has(group)) return [];
    const vars = { ...inherited, ...groups.vars.get(group) };
    const own = (groups.hosts.get(group) ?? []).map((host) => ({ ...host, vars: { ...vars, ...host.vars } }));
    const children = (groups.children.get(group) ?? []).flatMap((child) => collect(child, vars, new Set([...seen, group])));
    const byName = new Map<string, InventoryHost>();
    for (const host of [...own, ...children]) if (!byName.has(host.name)) byName.set(host.name, host);
    return [...byName.values()];
  };
  for (const group of all) inventory.set(group, collect(group, groups.vars.get('all') ?? {}, new Set()));
  return inventory;
}

/** Reads an inventory: YAML when the file says so (a `.yml`/`.yaml` name, or a first line `---` or `name:`), else INI. */
export function parseInventory(text: string, file: string): Inventory {
  const yaml = /\.ya?ml$/i.test(file) || /^(---|[A-Za-z_][\w-]*:\s*$)/m.test(text.split(/\r?\n/).find((line) => line.trim() !== '' && !line.trim().startsWith('#')) ?? '');
  return flatten(yaml ? parseYaml(text, file) : parseIni(text, file));
}
