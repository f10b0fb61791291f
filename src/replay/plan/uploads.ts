import { namesWord } from './removals.js';
import type { Unit } from './units.js';

/**
 * Copies to a host (`scp F h:DEST`, `rsync F h:DEST`) whose every user was dropped: a launcher
 * script uploaded for a cluster that was given up, a config for a server that was replaced. A copy
 * is needed when a kept step names what it copied, or when nothing names it (a compose file the
 * folder's `docker compose up` reads); it is not when the steps that named it (and ran it) are
 * all dropped. Look-ups that name it (`cat F`) do not count either way. Pure.
 */

const COPIERS = /^(?:scp|rsync)$/;
/** `[user@]host:path` — a remote end of a copy. */
const REMOTE = /^(?:[^@\s/]+@)?[A-Za-z0-9_.-]+:/;

/** The file names a unit copies to another host, or null when it does anything else too. */
function uploadedNames(unit: Unit): string[] | null {
  if (unit.changes.length === 0 || !unit.changes.every((leaf) => COPIERS.test(leaf.command.program))) return null;
  const names: string[] = [];
  for (const leaf of unit.changes) {
    const words = leaf.command.argv.slice(1).filter((word) => !word.startsWith('-'));
    const destination = words.at(-1);
    if (!destination || !REMOTE.test(destination)) return null;
    for (const source of words.slice(0, -1)) {
      if (REMOTE.test(source)) return null;
      const name = source.replace(/\/+$/, '').split('/').pop() ?? '';
      if (name.length > 0) names.push(name);
    }
  }
  return names.length > 0 ? names : null;
}

/** Uploads whose users were all dropped, with the reason; `dropped` as decided so far. */
export function uploadsForDroppedSteps(units: readonly Unit[], dropped: ReadonlyMap<Unit, string>): Map<Unit, string> {
  const found = new Map<Unit, string>();
  for (const unit of units) {
    if (dropped.has(unit)) continue;
    const uploaded = uploadedNames(unit);
    if (!uploaded) continue;
    const users = units.filter((other) => other.order > unit.order && other.effect === 'change' && uploaded.some((name) => namesWord(other.segment.command, name)));
    if (users.length > 0 && users.every((other) => dropped.has(other))) {
      found.set(unit, `copies ${[...new Set(uploaded)].join(', ')} for steps that were all dropped (#${users.map((u) => u.call.messageOrdinal).join(', #')})`);
    }
  }
  return found;
}
