import type { KeptUnit } from './choose.js';
import type { Unit } from './units.js';
import type { FoundVariable } from './variables.js';
import { expandHome } from './workdir.js';

/**
 * Each role's working directory as a plan variable (`head_workdir`), and each step's directory
 * written against it: `{{ head_workdir }}`, `{{ head_workdir }}/docker`, a home-relative `~/…`, or
 * the recorded path when it lies elsewhere. A session started in the home gets the directory most
 * of its steps ran in (absolute: a placeholder cannot carry a `~` through a quoted word). Commands over ssh start in the login's home: they need
 * none. `--var head_workdir=/srv/app` moves every step (and every file written there). Pure.
 */

export interface RoleWorkdirs {
  variables: FoundVariable[];
  stepWorkdir(unit: Unit): string | null;
  /** A file's path as a step writes it: under the role's workdir, through its variable. */
  filePath(path: string, role: string): string;
}

function under(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}

export function roleWorkdirs(kept: readonly KeptUnit[], roleOf: (host: string | null) => string, home: string | null, sessionDir: string | null): RoleWorkdirs {
  const dirOf = (unit: Unit): string | null => {
    if (unit.segment.host !== null && !unit.segment.viaDockerHost) return null;
    if (unit.cwd === null) return null;
    const dir = expandHome(unit.cwd, home);
    return dir === home ? '~' : dir;
  };
  const base = new Map<string, { name: string; value: string }>();
  const variables: FoundVariable[] = [];
  const session = sessionDir ? expandHome(sessionDir, home) : null;
  const byRole = new Map<string, string[]>();
  for (const k of kept) {
    const dir = dirOf(k.unit);
    if (dir === null || dir === '~') continue;
    const role = roleOf(k.unit.segment.host);
    byRole.set(role, [...(byRole.get(role) ?? []), dir]);
  }
  for (const [role, dirs] of byRole) {
    const counts = new Map<string, number>();
    for (const dir of dirs) counts.set(dir, (counts.get(dir) ?? 0) + 1);
    const common = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] as string;
    // The session's own directory, unless it is the home: then the project folder the agent cd-ed
    // into (`~/chatbox`) is the one to move, so `--var head_workdir=` moves every step there.
    const value = session && session !== home && dirs.some((dir) => under(dir, session)) ? session : common;
    const name = `${role.replace(/-/g, '_')}_workdir`;
    base.set(role, { name, value });
    variables.push({ name, value, description: `the directory the ${role}'s recorded commands ran in${value === session ? ' (the session\'s working directory)' : ''}; --var ${name}=DIR runs them elsewhere` });
  }
  const againstHome = (path: string): string | null => (home && under(path, home) ? (path === home ? '~' : `~/${path.slice(home.length + 1)}`) : null);
  const against = (path: string, role: string): string | null => {
    const root = base.get(role);
    if (!root || !under(path, root.value)) return againstHome(path);
    return path === root.value ? `{{ ${root.name} }}` : `{{ ${root.name} }}/${path.slice(root.value.length + 1)}`;
  };
  return {
    variables,
    stepWorkdir(unit) {
      const dir = dirOf(unit);
      if (dir === null) return null;
      if (dir === '~') return '~';
      return against(dir, roleOf(unit.segment.host)) ?? dir;
    },
    filePath(path, role) {
      return against(expandHome(path, home), role) ?? path;
    },
  };
}
