import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeRuleProblems, builtInRulesDir, rulesFingerprint, useRuleFolders } from '../../src/query/rules/active.js';
import { rulesInForce } from '../../src/query/rules/in-force.js';
import { RULES_CACHE_FILE } from '../../src/query/rules/parsed-cache.js';

/** The fingerprint a query command compares without loading the rules must be the one loading them gives. */
describe('the rules in force, without loading them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-in-force-'));
  beforeAll(() => {
    if (!existsSync(RULES_CACHE_FILE)) execFileSync(process.execPath, [join(builtInRulesDir(), '..', 'scripts', 'build-rules-cache.mjs')]);
  }, 120_000);
  afterAll(() => {
    useRuleFolders([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the loaded fingerprint for the built-in files', async () => {
    useRuleFolders([]);
    expect(await rulesInForce()).toEqual({ fingerprint: rulesFingerprint(), problems: [] });
  });

  it('gives the loaded fingerprint when a later folder replaces a built-in file with the same text under another name', async () => {
    copyFileSync(join(builtInRulesDir(), 'vllm.yaml'), join(dir, 'zz-vllm-copy.yaml'));
    useRuleFolders([dir]);
    const expected = rulesFingerprint();
    expect(await rulesInForce()).toEqual({ fingerprint: expected, problems: [] });
  });

  it('loads the rules for a file the build did not validate, and names its problems', async () => {
    const edited = `${readFileSync(join(builtInRulesDir(), 'vllm.yaml'), 'utf8')}\n# edited by the user\n`;
    writeFileSync(join(dir, 'zz-vllm-copy.yaml'), edited);
    writeFileSync(join(dir, 'broken.yaml'), 'id: [unclosed\n');
    useRuleFolders([dir]);
    const inForce = await rulesInForce();
    expect(inForce.fingerprint).toBe(rulesFingerprint());
    expect(inForce.problems).toEqual(activeRuleProblems());
    expect(inForce.problems.map((problem) => problem.file)).toEqual([join(dir, 'broken.yaml')]);
    useRuleFolders([]);
    expect(inForce.fingerprint).not.toBe(rulesFingerprint());
  });
});
