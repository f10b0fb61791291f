import { changedDirectory, leavesOf } from './leaves.js';
import { leafEffect } from './lookups.js';
import type { Segment } from './segments.js';
import { parts, squeeze } from './trailing-check.js';
import { removesSomething } from './units.js';

/**
 * A chained line whose parts do different things (`docker commit … && hf download …`, `hf download
 * … && docker run -d …`, `git clone … && cd x && cmake … && hf download …`) is one step per purpose: what it fetches,
 * what it builds, what it starts, each judged by the plan's rules on its own (a download the same
 * again as an earlier one, a start superseded later) and named by what it does. Parts that only
 * make sense with what they serve stay with it: a `cd` and a `mkdir`, a clone, an install, a
 * removal or a setting go with the part after them (the folder it enters, the source it builds,
 * the tool it runs, the name it frees),
 * a look-up with the part before it (`git clone … && git log -1` shows what was cloned). A line
 * that sets its shell up for the rest (`export`, `set -o`, `source venv/bin/activate`), a script
 * of several lines, or a call that did not exit 0 (which part failed cannot be told) stays whole.
 * Each piece starts in the folder the earlier `cd`s left. Pure.
 */

type Kind = 'fetch' | 'build' | 'start' | 'glue' | 'look';

export interface ChainPiece {
  segment: Segment;
  cwd: string | null;
}

/** Parts that change the shell for every later part (a builtin, or a variable set: `M=/models/x && … $M`): splitting would lose them. */
const SHELL_SETUP = /^(?:(?:export|set|source|\.|unset|ulimit|umask|alias|eval|shopt|trap|pushd|popd)(?:\s|$)|[A-Za-z_][A-Za-z0-9_]*=)/;
const PURPOSES: readonly Kind[] = ['fetch', 'build', 'start'];

function kindOf(text: string, cwd: string | null, actions: Segment['actions']): Kind {
  const leaves = leavesOf(text, cwd);
  const changes = leaves.filter((leaf) => leafEffect(leaf) === 'change');
  if (changes.length === 0) return 'look';
  if (changes.every(removesSomething)) return 'glue';
  if (actions.some((a) => a.kind === 'serve' || a.kind === 'start' || a.kind === 'cluster')) return 'start';
  // A clone goes with the build of what it cloned (getting and building a source is one step).
  if (actions.some((a) => a.kind === 'download' || a.kind === 'pull')) return 'fetch';
  if (actions.some((a) => a.kind === 'build')) return 'build';
  return 'glue';
}

export function splitByPurpose(segment: Segment, cwd: string | null): ChainPiece[] {
  const whole = [{ segment, cwd }];
  const { call } = segment;
  if (segment.command.includes('\n') || call.exitCode !== 0 || call.timedOut || call.notRun) return whole;
  const pieces = parts(segment.command);
  if (!pieces || pieces.some((piece) => SHELL_SETUP.test(piece.text))) return whole;
  // The part an action was read from: the one whose text it is, else the only one that holds it
  // (`make` is inside `cmake ..` too: two holders cannot be told apart).
  const partOf = (command: string): number => {
    const wanted = squeeze(command);
    const exact = pieces.findIndex((piece) => squeeze(piece.text) === wanted);
    if (exact >= 0) return exact;
    const holders = pieces.flatMap((piece, index) => (squeeze(piece.text).includes(wanted) ? [index] : []));
    return holders.length === 1 ? (holders[0] as number) : -1;
  };
  // An action no part's text holds (the classifier read the line as a whole): which part it is cannot be told.
  if (segment.actions.some((a) => partOf(a.command) < 0)) return whole;

  // Each part's folder and purpose.
  let dir = cwd;
  const read = pieces.map((piece, index) => {
    const at = dir;
    const cd = /^cd(?:\s+(\S+))?$/.exec(piece.text);
    if (cd) {
      dir = changedDirectory(dir, cd[1]?.replace(/^(['"])(.*)\1$/, '$2'));
      return { index, cwd: at, kind: 'glue' as Kind };
    }
    return { index, cwd: at, kind: kindOf(piece.text, at, segment.actions.filter((a) => partOf(a.command) === index)) };
  });

  // Groups of parts with one purpose; glue waits for the part it serves, a look-up joins the part before it.
  const groups: { kind: Kind | null; from: number; to: number }[] = [];
  let pending: number | null = null;
  for (const part of read) {
    const current = groups.at(-1);
    if (PURPOSES.includes(part.kind)) {
      if (current && current.kind === part.kind) current.to = part.index;
      else groups.push({ kind: part.kind, from: pending ?? part.index, to: part.index });
      pending = null;
    } else if (part.kind === 'look' && current && pending === null) current.to = part.index;
    else pending ??= part.index;
  }
  const last = groups.at(-1);
  if (!last) return whole;
  last.to = pieces.length - 1;
  if (groups.length < 2) return whole;

  return groups.map((group, n) => {
    const first = pieces[group.from]!;
    const end = pieces[group.to]!;
    const actions = segment.actions.filter((a) => {
      const at = partOf(a.command);
      return at >= group.from && at <= group.to;
    });
    const piece: Segment = { ...segment, command: segment.command.slice(first.start, end.end).trim(), actions, ownsExit: segment.ownsExit && n === groups.length - 1 };
    return { segment: piece, cwd: read[group.from]!.cwd };
  });
}
