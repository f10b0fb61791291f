import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Adapter, FileHead } from '../adapter.js';
import type { SourceFormat } from '../../core/model.js';
import type { Source } from '../../core/source.js';
import { exportSource } from './export-source.js';
import { opencodeDataDir } from './paths.js';
import { sqliteSources } from './sqlite-source.js';
import { storageSources } from './storage-source.js';

const EXPORT_HEAD = /^\s*\{\s*"info"\s*:\s*\{[\s\S]*?"id"\s*:\s*"ses_/;
const EXPORT_HEAD_LOOSE = /^\s*\{[\s\S]*"messages"\s*:\s*\[[\s\S]*"parts"\s*:/;

/**
 * An opencode database by its tables: 1.x `session` + `message` + `part`, 2.x `session_v2` +
 * `session_message`, or a pre-split 2.x beta's shared `session` + `session_message`.
 */
function isOpencodeDb(tables: readonly string[]): boolean {
  const has = new Set(tables);
  if (has.has('session_v2') && has.has('session_message')) return true;
  return has.has('session') && ((has.has('message') && has.has('part')) || has.has('session_message'));
}

/** A storage tree's session file, `<storage>/session/<project>/<ses>.json`: its storage root. */
function storageRootOf(path: string): string | null {
  const match = /^(.*)\/session\/[^/]+\/ses_[^/]+\.json$/.exec(path);
  return match?.[1] ?? null;
}

/** The sessions of an opencode data folder: the database's, then storage-tree ones it lacks. */
async function dataDirSources(dataDir: string): Promise<Source[]> {
  const dbFile = join(dataDir, 'opencode.db');
  const fromDb = existsSync(dbFile) ? await sqliteSources(dbFile) : [];
  const inDb = new Set(fromDb.map((source) => source.sessionId));
  const fromStorage = (await storageSources(join(dataDir, 'storage'))).filter((source) => !inDb.has(source.sessionId));
  return [...fromDb, ...fromStorage];
}

export const opencodeAdapter: Adapter = {
  agent: 'opencode',
  formats: ['opencode-export', 'opencode-storage', 'opencode-sqlite'],

  detect(head: FileHead): SourceFormat | null {
    if (head.sqlite) return isOpencodeDb(head.sqliteTables) ? 'opencode-sqlite' : null;
    if (storageRootOf(head.path) && head.text.trimStart().startsWith('{')) return 'opencode-storage';
    if (EXPORT_HEAD.test(head.text) || EXPORT_HEAD_LOOSE.test(head.text)) return 'opencode-export';
    return null;
  },

  assume(head: FileHead): SourceFormat {
    return head.sqlite ? 'opencode-sqlite' : 'opencode-export';
  },

  async sourcesForFile(path: string, format: SourceFormat): Promise<Source[]> {
    if (format === 'opencode-sqlite') return sqliteSources(path);
    if (format === 'opencode-storage') {
      const root = storageRootOf(path);
      const all = root ? await storageSources(root) : [];
      return all.filter((source) => source.path === path);
    }
    return [await exportSource(path)];
  },

  async sourcesForLayout(dir: string): Promise<Source[] | null> {
    if (existsSync(join(dir, 'opencode.db')) || existsSync(join(dir, 'storage', 'session'))) return dataDirSources(dir);
    if (basename(dir) === 'storage' && existsSync(join(dir, 'session'))) return storageSources(dir);
    return null;
  },

  defaultLocations(env, home) {
    return [opencodeDataDir(env, home)];
  },
};
