import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../core/package-root.js';
import type { RuleFile } from './schema.js';

/**
 * The built-in rule files, parsed and validated when retrace is built (`npm run build` writes
 * dist/rules-cache.json), keyed by the SHA-256 of each file's text. Parsing the YAML was ~60 % of
 * the CPU of `retrace tree` on a small store, on every run. A file whose text is not in the cache
 * (a user's rule file, an edited built-in, no cache at all) is parsed as before; one in it was
 * valid then and, having the same text, is valid now.
 */
export const RULES_CACHE_FILE = join(packageRoot(), 'dist', 'rules-cache.json');

export interface RulesCacheDocument {
  version: 1;
  rules: Record<string, RuleFile>;
}

export function ruleTextHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

let cache: Map<string, RuleFile> | null = null;

function rulesCache(): Map<string, RuleFile> {
  if (!cache) {
    cache = new Map();
    try {
      const document = JSON.parse(readFileSync(RULES_CACHE_FILE, 'utf8')) as Partial<RulesCacheDocument>;
      if (document.version === 1 && document.rules) for (const [hash, rule] of Object.entries(document.rules)) cache.set(hash, rule);
    } catch {
      // No cache (running from source, or not built): every file is parsed.
    }
  }
  return cache;
}

/** The id of the cached rule of this text (null: not in the cache, it must be parsed). */
export function cachedRuleId(text: string): string | null {
  return rulesCache().get(ruleTextHash(text))?.id ?? null;
}

/** The cached rule of this text, if the build validated the same text. */
export function cachedRule(text: string): RuleFile | null {
  const rule = rulesCache().get(ruleTextHash(text));
  // A copy: callers may not share (or change) the cached object.
  return rule ? structuredClone(rule) : null;
}
