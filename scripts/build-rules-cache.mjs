// Run by `npm run build` after tsc: parses and validates the built-in rule files once and writes
// dist/rules-cache.json (see src/query/rules/parsed-cache.ts), so a run does not parse YAML.
// A built-in file with problems is left out of the cache: a run parses it and reports them.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { parseRuleFile } = await import(join(root, 'dist/src/query/rules/load.js'));
const { RULES_CACHE_FILE, ruleTextHash } = await import(join(root, 'dist/src/query/rules/parsed-cache.js'));
const dir = join(root, 'rules');
const rules = {};
for (const name of readdirSync(dir).filter((n) => /\.ya?ml$/.test(n)).sort()) {
  const text = readFileSync(join(dir, name), 'utf8');
  const { rule } = parseRuleFile(join(dir, name), text);
  if (rule) rules[ruleTextHash(text)] = rule;
}
writeFileSync(RULES_CACHE_FILE, `${JSON.stringify({ version: 1, rules })}\n`);
