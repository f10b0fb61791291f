import { readFileSync } from 'node:fs';
import type { RuleProblem } from './load.js';
import { cachedRuleId } from './parsed-cache.js';
import { packageVersion } from '../../core/package-root.js';
import { fingerprintOf, ruleFilePaths, selectedRuleDirs, selectedRuleFiles } from './selection.js';

export interface RulesInForce {
  fingerprint: string;
  problems: RuleProblem[];
}

/**
 * The fingerprint and problems of the rules in force, as `activeRules` would find them, without
 * loading them when every file is one the build validated (dist/rules-cache.json): a query
 * command only compares fingerprints, and the YAML parser, schemas and compiler cost it ~100 ms.
 * Any other file (a user's, an edited built-in) loads the rules the usual way.
 */
export async function rulesInForce(): Promise<RulesInForce> {
  const textById = new Map<string, string>();
  for (const path of ruleFilePaths(selectedRuleDirs(), selectedRuleFiles())) {
    const text = readFileSync(path, 'utf8');
    const id = cachedRuleId(text);
    if (id === null) return loadedRulesInForce();
    // As loadRuleFolders: a later file of the same id replaces the text, in the first one's place.
    textById.set(id, text);
  }
  return { fingerprint: fingerprintOf(packageVersion(), textById.values()), problems: [] };
}

async function loadedRulesInForce(): Promise<RulesInForce> {
  const { activeRuleProblems, rulesFingerprint } = await import('./active.js');
  return { fingerprint: rulesFingerprint(), problems: activeRuleProblems() };
}
