import { parseCommandLine, type ParsedCommand } from '../../query/shell/index.js';

/**
 * The simple commands a segment really runs, through what carries them (`bash -c`, `ssh`, `sudo`,
 * `docker exec C …`), each with the directory it ran in as far as the line itself says (a
 * top-level `cd X && …` moves the rest). `$( … )` substitutions are leaves too. Pure.
 */

export interface Leaf {
  command: ParsedCommand;
  /** Directory at this point of the line: the segment's start, moved by earlier `cd`s; null when unknown. */
  cwd: string | null;
  /** Inside `docker exec` / `kubectl exec` (or a `docker run` container): not on the host itself. */
  inContainer: string | null;
}

/** `cd X` from `dir`: the new directory, or null when it cannot be told (`cd -`, `cd $X`). */
export function changedDirectory(dir: string | null, target: string | undefined): string | null {
  if (target === undefined || target === '' || target === '~') return '~';
  if (/[$`*?]/.test(target) || target === '-') return null;
  if (target.startsWith('/') || target.startsWith('~/')) return normalizePath(target);
  if (dir === null) return null;
  return normalizePath(`${dir}/${target}`);
}

/** `a/./b/../c` → `a/c`, keeping a leading `/` or `~`. */
export function normalizePath(path: string): string {
  const head = path.startsWith('/') ? '/' : path.startsWith('~') ? '~/' : '';
  const parts: string[] = [];
  for (const part of path.slice(head === '~/' ? 1 : head.length).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  const joined = parts.join('/');
  if (head === '~/') return joined ? `~/${joined}` : '~';
  return head === '/' ? `/${joined}` : joined || '.';
}

export function leavesOf(text: string, startDir: string | null): Leaf[] {
  const leaves: Leaf[] = [];
  const walk = (commands: readonly ParsedCommand[], dir: string | null, container: string | null): void => {
    let cwd = dir;
    for (const command of commands) {
      for (const child of command.children.filter((c) => c.via === 'substitution')) walk([child], cwd, container);
      const carried = command.children.filter((c) => c.via !== 'substitution');
      if (command.carrier === 'shell' || command.carrier === 'ssh') {
        walk(carried, command.carrier === 'ssh' ? '~' : cwd, container);
        continue;
      }
      if (command.carrier === 'docker exec' || command.carrier === 'kubectl exec') {
        walk(carried, null, command.children[0]?.place.container ?? 'container');
        continue;
      }
      leaves.push({ command, cwd, inContainer: container });
      if (command.program === 'cd' && command.pipelinePosition === 0 && !command.background) cwd = changedDirectory(cwd, command.argv[1]);
      else if (command.program === 'pushd') cwd = changedDirectory(cwd, command.argv[1]);
    }
  };
  walk(parseCommandLine(text), startDir, null);
  return leaves;
}

/** The `cd` of a line's top level, in order, from where it started: where the shell ends up. */
export function directoryAfter(text: string, startDir: string | null): string | null {
  let dir = startDir;
  for (const command of parseCommandLine(text)) {
    if (command.program === 'cd' && command.pipelinePosition === 0 && !command.background && command.connector !== '||') dir = changedDirectory(dir, command.argv[1]);
  }
  return dir;
}
