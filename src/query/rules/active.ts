import type { RuleSet } from './compile.js';
import { buildRuleSet, loadRuleFolders, type RuleProblem } from './load.js';
import { packageVersion } from '../../core/package-root.js';
import { selectRuleFolders, selectedRuleDirs, selectedRuleFiles } from './selection.js';

export { builtInRulesDir, userRulesDir } from './selection.js';

/**
 * The rule set in force for this process: the built-in files, the user's folder, and any folders
 * named with `--rules`. Loaded once, on first use, so a command that derives nothing pays nothing
 * (its fingerprint comes from in-force.ts without loading it).
 */

interface Active {
  set: RuleSet;
  problems: RuleProblem[];
  dirs: string[];
}

let active: Active | null = null;

function load(): Active {
  const dirs = selectedRuleDirs();
  const loaded = loadRuleFolders(dirs, selectedRuleFiles());
  return { set: buildRuleSet(loaded, packageVersion()), problems: loaded.problems, dirs };
}

/** Adds `--rules` folders (after the built-in and user ones) and reloads; returns the problems found. */
export function useRuleFolders(dirs: readonly string[], files: readonly string[] = []): RuleProblem[] {
  selectRuleFolders(dirs, files);
  active = load();
  return active.problems;
}

export function activeRules(): RuleSet {
  active ??= load();
  return active.set;
}

/** Problems of the files in force (a user file that does not validate is left out and named here). */
export function activeRuleProblems(): RuleProblem[] {
  active ??= load();
  return active.problems;
}

export function activeRuleFolders(): string[] {
  active ??= load();
  return active.dirs;
}

/** The identity of what derives a tree: stored with each tree, compared on every read. */
export function rulesFingerprint(): string {
  return activeRules().fingerprint;
}
