import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../core/package-root.js';
import type { RuleSet } from './compile.js';
import { buildRuleSet, loadRuleFolders, type RuleProblem } from './load.js';

/**
 * The rule set in force for this process: the built-in files, the user's folder, and any folders
 * named with `--rules`. Loaded once, on first use, so a command that derives nothing pays nothing.
 */

export function builtInRulesDir(): string {
  return join(packageRoot(), 'rules');
}

export function userRulesDir(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  return env['XDG_CONFIG_HOME'] ? join(env['XDG_CONFIG_HOME'], 'retrace', 'rules') : join(home, '.config', 'retrace', 'rules');
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
  return String(manifest.version ?? '0');
}

interface Active {
  set: RuleSet;
  problems: RuleProblem[];
  dirs: string[];
}

let active: Active | null = null;
let extraDirs: string[] = [];
let extraFiles: string[] = [];

function load(): Active {
  const dirs = [builtInRulesDir(), userRulesDir(), ...extraDirs];
  const loaded = loadRuleFolders(dirs, extraFiles);
  return { set: buildRuleSet(loaded, packageVersion()), problems: loaded.problems, dirs };
}

/** Adds `--rules` folders (after the built-in and user ones) and reloads; returns the problems found. */
export function useRuleFolders(dirs: readonly string[], files: readonly string[] = []): RuleProblem[] {
  extraDirs = [...dirs];
  extraFiles = [...files];
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
