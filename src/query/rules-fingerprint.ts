import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../core/package-root.js';

/**
 * The identity of what derives a tree: retrace's own version and, as the rule registry grows,
 * the contents of every rule file loaded. Stored with each tree; a tree derived with another
 * fingerprint is stale and re-derives on its next read. No number to bump by hand.
 */
let cached: string | null = null;
const extraParts: string[] = [];

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
  return String(manifest.version ?? '0');
}

/** Adds the text of a loaded rule source to the fingerprint (called by the rule loader). */
export function addToRulesFingerprint(part: string): void {
  extraParts.push(part);
  cached = null;
}

export function rulesFingerprint(): string {
  if (cached) return cached;
  const hash = createHash('sha256').update(`retrace ${packageVersion()}\n`);
  for (const part of extraParts) hash.update(part).update('\u0000');
  cached = hash.digest('hex').slice(0, 16);
  return cached;
}
