import { changedDirectory, type Leaf } from './leaves.js';
import { outputsOf, targetsOf, type Creations } from './removals.js';
import { removesSomething, type Unit } from './units.js';

/**
 * Steps that leave nothing for a replay to do: each thing they change is either clean-up of an
 * earlier attempt of this session (`docker rm` of the container it ran before) or a folder a later
 * kept step makes by itself (`mkdir -p D` before `docker run -v D:/cache`, which creates a missing
 * bind-mount source; before a download into `--local-dir D`). Pure.
 */

/** Host folders a `docker run` mounts (`-v SRC:DST`, `--volume=SRC:DST`). */
function mountSources(leaf: Leaf): string[] {
  if (!leaf.command.dockerRun) return [];
  const { argv } = leaf.command;
  const sources: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i] as string;
    const value = word === '-v' || word === '--volume' ? argv[i + 1] : /^(?:-v|--volume=)(.+)$/.exec(word)?.[1];
    const source = value?.split(':')[0];
    if (source && (source.startsWith('/') || source.startsWith('~'))) sources.push(changedDirectory(leaf.cwd, source) ?? source);
  }
  return sources;
}

/** What a later step makes itself: its mount sources and its output folders. */
function madeBy(unit: Unit): string[] {
  return unit.changes.flatMap((leaf) => [...mountSources(leaf), ...outputsOf(leaf)]);
}

function covers(made: string, dir: string): boolean {
  return made === dir || made.startsWith(`${dir.replace(/\/$/, '')}/`);
}

export function redundantSteps(changing: readonly Unit[], dropped: ReadonlyMap<Unit, string>, creations: Creations): Map<Unit, string> {
  const found = new Map<Unit, string>();
  for (const [index, unit] of changing.entries()) {
    if (dropped.has(unit) || unit.failed) continue;
    const laterKept = changing.slice(index + 1).filter((other) => !dropped.has(other) && !other.failed && other.segment.host === unit.segment.host);
    const folders: { dir: string; by: Unit }[] = [];
    let cleanup = false;
    const redundant = unit.changes.every((leaf) => {
      if (leaf.command.program === 'mkdir') {
        const dirs = outputsOf(leaf);
        return dirs.length > 0 && dirs.every((dir) => {
          const by = laterKept.find((other) => madeBy(other).some((made) => covers(made, dir)));
          if (by) folders.push({ dir, by });
          return by !== undefined;
        });
      }
      if (!removesSomething(leaf)) return false;
      const targets = targetsOf(leaf, unit.segment.host);
      cleanup = true;
      return targets.length > 0 && targets.every((target) => creations.maker(target, unit.order) !== null);
    });
    if (!redundant || folders.length === 0) continue;
    const made = folders.map(({ dir, by }) => `${dir} (#${by.call.messageOrdinal} makes it)`).join(', ');
    found.set(unit, `nothing left to do: ${cleanup ? 'clean-up of an earlier attempt, and ' : ''}a folder a later step makes itself: ${made}`);
  }
  return found;
}
