import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { packageRoot } from '../../core/package-root.js';

/**
 * Which rule files are in force, and the fingerprint of their texts, with nothing heavier than
 * `node:fs`: every query command compares stored trees with the fingerprint, and most of them
 * never need the rules themselves (the YAML parser, the schemas and the compiler stay unloaded).
 */

export function builtInRulesDir(): string {
  return join(packageRoot(), 'rules');
}

export function userRulesDir(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  return env['XDG_CONFIG_HOME'] ? join(env['XDG_CONFIG_HOME'], 'retrace', 'rules') : join(home, '.config', 'retrace', 'rules');
}

let extraDirs: string[] = [];
let extraFiles: string[] = [];

/** Sets the `--rules` folders and files (after the built-in and user ones). */
export function selectRuleFolders(dirs: readonly string[], files: readonly string[] = []): void {
  extraDirs = [...dirs];
  extraFiles = [...files];
}

/** The `--rules` folders and files selected (for a thread that must load the same rules). */
export function ruleSelection(): { dirs: string[]; files: string[] } {
  return { dirs: [...extraDirs], files: [...extraFiles] };
}

export function selectedRuleDirs(): string[] {
  return [builtInRulesDir(), userRulesDir(), ...extraDirs];
}

export function selectedRuleFiles(): string[] {
  return [...extraFiles];
}

/** A folder's rule files, sorted by name (a missing folder has none). */
export function yamlFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => /\.ya?ml$/.test(name) && !name.startsWith('.'))
    .sort()
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

/** Every candidate rule file path in load order: each folder's files, then the given files. */
export function ruleFilePaths(dirs: readonly string[], files: readonly string[]): string[] {
  return [...dirs.flatMap((dir) => yamlFiles(resolve(dir))), ...files.map((file) => resolve(file))];
}

/** The identity of a rule set: retrace's version and the text of every file in force, in order. */
export function fingerprintOf(version: string, texts: Iterable<string>): string {
  const hash = createHash('sha256').update(`retrace ${version}\n`);
  for (const text of texts) hash.update(text).update('\u0000');
  return hash.digest('hex').slice(0, 16);
}
