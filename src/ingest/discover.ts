import { readdir, readlink, realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Adapter } from './adapter.js';
import { readFileHead, type Decompressor } from './io/file-head.js';
import type { FileHead } from './adapter.js';
import type { Agent, ProblemItem } from '../core/model.js';
import { ONE_FILE_FORMATS, type KnownFile, type Source } from '../core/source.js';
import { agentOfFormat, type IngestWarning } from '../core/warnings.js';
import { fileStamp } from '../core/io/file-stamp.js';
import { unchangedSource } from './unchanged-source.js';

export type FormatChoice = 'auto' | Agent;

export interface Discovery {
  sources: Source[];
  /** Paths that could not be read at all (missing, unreadable, not a transcript). */
  problems: ProblemItem[];
  /** Sources found but not read, and why (a compressed twin of a plain transcript). */
  warnings: IngestWarning[];
}

/** What each agent's transcripts look like on disk, for "no transcripts found (looked for …)". */
const LOOKS_LIKE: Record<Agent, string> = {
  opencode: 'opencode exports (ses_*.json), storage trees and opencode.db',
  claude: 'Claude Code .jsonl (or .jsonl.zst)',
  codex: 'Codex rollout .jsonl (or .jsonl.zst)',
  retrace: 'retrace run logs (.jsonl)',
  atif: 'ATIF trajectories (.json)',
};

/** What a discovery with these adapters looks for, in words a user can check a folder against. */
export function lookedFor(adapters: readonly Adapter[], format: FormatChoice): string {
  const agents = new Set(format === 'auto' ? adapters.map((a) => a.agent) : [format]);
  // In LOOKS_LIKE's order (the agents people use most first), not the adapters' detection order.
  return Object.entries(LOOKS_LIKE).filter(([agent]) => agents.has(agent as Agent)).map(([, text]) => text).join('; ');
}

/** File names worth opening while walking a folder; others are never read. */
const CANDIDATE_FILE = /\.(jsonl|json|ndjson|db|sqlite|zst)$/i;
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.cache', 'dist']);

export interface DiscoverOptions {
  adapters: readonly Adapter[];
  format: FormatChoice;
  decompress?: Decompressor;
  /**
   * What the store recorded of a file (by its path), for files found by walking a folder: one whose
   * stamp is unchanged becomes a source without being opened (a re-ingest of an unchanged archive
   * opens no file). A file named on the command line is always detected.
   */
  known?: (path: string) => KnownFile | undefined;
  /** How a file's first bytes are read to detect its format (tests count the files opened). */
  readHead?: (path: string, decompress?: Decompressor) => Promise<FileHead>;
}

/** Expands the paths a user named (files or folders) into sources, one per transcript or session. */
export async function discoverSources(paths: readonly string[], options: DiscoverOptions): Promise<Discovery> {
  const adapters = options.format === 'auto' ? options.adapters : options.adapters.filter((a) => a.agent === options.format);
  const found = new Map<string, Source>();
  const problems: ProblemItem[] = [];
  const versions = new Map<string, string | null>();
  const add = (sources: Source[]): void => {
    for (const source of sources) if (!found.has(source.key)) found.set(source.key, source);
  };

  const detectFile = async (path: string, explicit: boolean): Promise<void> => {
    let head;
    try {
      head = await (options.readHead ?? readFileHead)(path, options.decompress);
    } catch (error) {
      problems.push({ kind: 'problem', message: `cannot read: ${(error as Error).message}`, location: { file: path } });
      return;
    }
    if (head.problem) {
      problems.push({ kind: 'problem', message: head.problem, location: { file: path } });
      return;
    }
    // A file the user named under `--format <agent>` is read as that agent's even when its
    // content does not look like it: the user's word wins over detection.
    const forced = explicit && options.format !== 'auto' && adapters.length === 1;
    for (const adapter of adapters) {
      const format = adapter.detect(head) ?? (forced ? (adapter.assume?.(head) ?? null) : null);
      if (!format) continue;
      versions.set(path, adapter.versionOf?.(head) ?? null);
      try {
        add(await adapter.sourcesForFile(path, format));
      } catch (error) {
        problems.push({ kind: 'problem', message: `cannot read as ${format}: ${(error as Error).message}`, location: { file: path } });
      }
      return;
    }
    if (explicit) {
      const which = options.format === 'auto' ? 'opencode, Claude Code, Codex or ATIF' : options.format;
      problems.push({ kind: 'problem', message: `not a transcript retrace can read (${which})`, location: { file: path } });
    }
  };

  // Symbolic links are followed (a transcript folder linked into a walked one is read like any
  // other); a folder reached twice (a link back up the tree, two links to one place) is walked once,
  // a file reached twice is read once, and a link to nothing is reported rather than skipped.
  const walkedDirs = new Set<string>();
  const seenFiles = new Set<string>();

  /** A file the store knows, with the stamp it recorded: its source, unopened; else null. */
  const knownUnchanged = async (path: string): Promise<Source | null> => {
    const known = options.known?.(path);
    if (!known || !ONE_FILE_FORMATS.has(known.format)) return null;
    const adapter = adapters.find((a) => a.formats.includes(known.format));
    if (!adapter || (await fileStamp(path)) !== known.stamp) return null;
    return unchangedSource(path, known, () => adapter.sourcesForFile(path, known.format));
  };

  const detectOnce = async (path: string): Promise<void> => {
    const real = await realpath(path).catch(() => path);
    if (seenFiles.has(real)) return;
    seenFiles.add(real);
    const unchanged = await knownUnchanged(path);
    if (unchanged) add([unchanged]);
    else await detectFile(path, false);
  };

  const followLink = async (path: string, name: string): Promise<void> => {
    const target = await stat(path).catch(() => null);
    if (!target) {
      const to = await readlink(path).catch(() => '?');
      problems.push({ kind: 'problem', message: `symbolic link to ${to}, which does not exist: nothing read`, location: { file: path } });
    } else if (target.isDirectory()) {
      if (!SKIPPED_DIRS.has(name)) await walk(path);
    } else if (target.isFile() && (CANDIDATE_FILE.test(name) || CANDIDATE_FILE.test(await realpath(path).catch(() => '')))) {
      await detectOnce(path);
    }
  };

  const walk = async (dir: string): Promise<void> => {
    const real = await realpath(dir).catch(() => dir);
    if (walkedDirs.has(real)) return;
    walkedDirs.add(real);
    for (const adapter of adapters) {
      let layout: Source[] | null | undefined;
      try {
        layout = await adapter.sourcesForLayout?.(dir);
      } catch (error) {
        problems.push({ kind: 'problem', message: `cannot read as ${adapter.agent} data: ${(error as Error).message}`, location: { file: dir } });
        return;
      }
      if (layout) {
        add(layout);
        return;
      }
    }
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      problems.push({ kind: 'problem', message: `cannot list: ${(error as Error).message}`, location: { file: dir } });
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) await followLink(path, entry.name);
      else if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) await walk(path);
      else if (entry.isFile() && CANDIDATE_FILE.test(entry.name)) await detectOnce(path);
    }
  };

  for (const given of paths) {
    const path = resolve(given);
    const info = await stat(path).catch(() => null);
    if (!info) problems.push({ kind: 'problem', message: 'no such file or folder', location: { file: path } });
    else if (info.isDirectory()) await walk(path);
    else {
      seenFiles.add(await realpath(path).catch(() => path));
      await detectFile(path, true);
    }
  }
  const warnings = dropCompressedTwins(found, versions);
  return { sources: [...found.values()], problems, warnings };
}

/**
 * A transcript and its `.zst` twin (`x.jsonl` beside `x.jsonl.zst`: a copy, or a compression
 * that did not remove the original) are one session: the plain file is read (it is the one an
 * agent may still append to), the twin is named in a warning, not read.
 */
function dropCompressedTwins(found: Map<string, Source>, versions: ReadonlyMap<string, string | null>): IngestWarning[] {
  const warnings: IngestWarning[] = [];
  for (const [key, source] of found) {
    if (!/\.zst$/i.test(key)) continue;
    const plain = found.get(key.slice(0, -4));
    if (!plain || plain.format !== source.format) continue;
    found.delete(key);
    warnings.push({
      file: source.path,
      agent: agentOfFormat(source.format),
      version: versions.get(source.path) ?? null,
      reason: `same session as ${plain.path} (its uncompressed twin): read once, from that file`,
    });
  }
  return warnings;
}

/** The agents' default locations that exist on this machine, plus ./sessions. */
export async function defaultPaths(adapters: readonly Adapter[], env: NodeJS.ProcessEnv, home: string, cwd: string): Promise<string[]> {
  const candidates = [...adapters.flatMap((adapter) => adapter.defaultLocations(env, home)), join(cwd, 'sessions')];
  const existing: string[] = [];
  for (const candidate of candidates) if (await stat(candidate).catch(() => null)) existing.push(candidate);
  return existing;
}
