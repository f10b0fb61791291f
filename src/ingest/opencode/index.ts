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
const SQLITE_TABLES = [/CREATE TABLE\s+[`"]?session[`"]?\s*\(/, /CREATE TABLE\s+[`"]?message[`"]?\s*\(/, /CREATE TABLE\s+[`"]?part[`"]?\s*\(/];
const EXPORT_HEAD_LOOSE = /^\s*\{[\s\S]*"messages"\s*:\s*\[[\s\S]*"parts"\s*:/;

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
    if (head.sqlite) return SQLITE_TABLES.every((table) => table.test(head.text)) ? 'opencode-sqlite' : null;
    if (storageRootOf(head.path) && head.text.trimStart().startsWith('{')) return 'opencode-storage';
    if (EXPORT_HEAD.test(head.text) || EXPORT_HEAD_LOOSE.test(head.text)) return 'opencode-export';
    return null;
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
