import { createHash } from 'node:crypto';
import type { Location } from '../core/model.js';
import { redactPath } from '../core/redact/redact-item.js';
import type { RedactionCounts } from '../core/redact/redact.js';
import type { Source } from '../core/source.js';

/** What a source is stored under: its key and path, with any secret in them redacted. */
export interface StoredName {
  key: string;
  path: string;
}

/**
 * A token in a folder name (`~/.claude/projects/-home-ops-hf_…/…`) would otherwise reach the
 * store as the source's key and path. A redacted key is made unique again with a hash of the
 * whole original key (not of the secret alone), so two sources whose names differ only in a
 * secret stay two sources, and the next ingest still finds the same key for the same file.
 */
export function storedName(source: Pick<Source, 'key' | 'path'>, redact: boolean, counts: RedactionCounts): StoredName {
  if (!redact) return { key: source.key, path: source.path };
  const key = redactPath(source.key, counts);
  const path = source.path === source.key ? key : redactPath(source.path, counts);
  if (key === source.key) return { key, path };
  const digest = createHash('sha256').update(source.key).digest('hex').slice(0, 16);
  return { key: `${key}#${digest}`, path };
}

export function storedLocation(location: Location, redact: boolean, counts: RedactionCounts): Location {
  if (!redact) return location;
  const file = redactPath(location.file, counts);
  const path = location.path === undefined ? undefined : redactPath(location.path, counts);
  return file === location.file && path === location.path ? location : { ...location, file, ...(path === undefined ? {} : { path }) };
}
