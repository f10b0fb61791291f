import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The files an ssh_config `Include` names: a path, or a glob (`*`, `?` in any component, as
 * OpenSSH's glob(3)), matches in sorted order; a pattern that matches nothing is no error (as in
 * OpenSSH). The I/O edge of ssh-config.ts, which stays pure.
 */

function wildcard(component: string): RegExp {
  const escaped = component.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
  return new RegExp(`^${escaped}$`);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function expand(pattern: string): string[] {
  const parts = pattern.split('/');
  let paths = [parts[0] === '' ? '/' : parts[0] ?? ''];
  for (const part of parts.slice(1)) {
    if (part === '') continue;
    if (!/[*?]/.test(part)) {
      paths = paths.map((base) => join(base, part));
      continue;
    }
    const matcher = wildcard(part);
    paths = paths.flatMap((base) => {
      try {
        return readdirSync(base).filter((name) => !name.startsWith('.') && matcher.test(name)).sort().map((name) => join(base, name));
      } catch {
        return [];
      }
    });
  }
  return paths;
}

export function readIncludedFiles(pattern: string): { path: string; text: string }[] {
  return expand(pattern)
    .filter(isFile)
    .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
}
