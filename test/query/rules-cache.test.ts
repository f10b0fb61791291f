import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtInRulesDir } from '../../src/query/rules/active.js';
import { parseRuleFile } from '../../src/query/rules/load.js';
import { cachedRule, RULES_CACHE_FILE, ruleTextHash } from '../../src/query/rules/parsed-cache.js';

/** The build's parsed copy of the built-in rules stands in for parsing them: it must say exactly what parsing says. */
const files = readdirSync(builtInRulesDir()).filter((name) => name.endsWith('.yaml'));

describe('the built-in rules cache (dist/rules-cache.json)', () => {
  beforeAll(() => {
    // `npm test` builds first; a bare `vitest run` may not have: write the cache the way the build does.
    if (!existsSync(RULES_CACHE_FILE)) execFileSync(process.execPath, [join(builtInRulesDir(), '..', 'scripts', 'build-rules-cache.mjs')]);
  }, 120_000);

  it.each(files)('holds %s exactly as parsing and validating it gives it', (name) => {
    const text = readFileSync(join(builtInRulesDir(), name), 'utf8');
    const parsed = parseRuleFile(join(builtInRulesDir(), name), text);
    expect(parsed.rule).not.toBeNull();
    expect(cachedRule(text)).toEqual(parsed.rule);
  });

  it('answers only for the same text: an edited file is parsed again', () => {
    const name = files[0] as string;
    const text = readFileSync(join(builtInRulesDir(), name), 'utf8');
    expect(cachedRule(`${text}\n# edited\n`)).toBeNull();
    expect(ruleTextHash(text)).not.toBe(ruleTextHash(`${text} `));
  });

  it('hands out copies: changing one does not change the next load', () => {
    const text = readFileSync(join(builtInRulesDir(), files[0] as string), 'utf8');
    const first = cachedRule(text);
    if (!first) throw new Error('no cached rule');
    first.signatures.length = 0;
    expect(cachedRule(text)?.signatures.length).toBeGreaterThan(0);
  });
});
