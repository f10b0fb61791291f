import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Prng } from '../lib/prng.js';
import { CORPUS_ROOT } from '../lib/paths.js';
import { plannedSession } from './story/session.js';
import { writeClaudeSession } from './writers/claude.js';
import { writeCodexSession } from './writers/codex.js';
import { writeOpencodeExport, writeOpencodeStorage } from './writers/opencode.js';
import type { SessionLimits, WrittenSession } from './writers/written.js';
import type { SessionInfo, Turn } from './story/turns.js';

/**
 * The benchmark corpus: for each format, one long session of 10,000+ messages and then shorter
 * ones until the format's share of the size is reached. Same parameters, same bytes: a corpus
 * already on disk with the same manifest is reused.
 */

/** Bump when the generator's output changes, so old corpora are not reused. */
export const GENERATOR_VERSION = 2;
export const DEFAULT_SEED = 'retrace-bench';
export const LONG_SESSION_MESSAGES = 10_500;

export const FORMATS = ['claude', 'codex', 'opencode-export', 'opencode-storage'] as const;
export type CorpusFormat = (typeof FORMATS)[number];

const SHARES: Record<CorpusFormat, number> = { claude: 0.3, codex: 0.2, 'opencode-export': 0.27, 'opencode-storage': 0.23 };
/** The long session may overrun its format's share by this much to reach its message count. */
const LONG_SESSION_OVERRUN = 1.25;

type Writer = (prng: Prng, info: SessionInfo, turns: Iterable<Turn>, root: string, limits: SessionLimits) => WrittenSession;

const WRITERS: Record<CorpusFormat, Writer> = {
  claude: writeClaudeSession,
  codex: writeCodexSession,
  'opencode-export': writeOpencodeExport,
  'opencode-storage': writeOpencodeStorage,
};

export interface CorpusParams {
  sizeMb: number;
  seed: string;
  version: number;
}

export interface FormatCorpus {
  format: CorpusFormat;
  /** What to hand to `retrace ingest` (a folder). */
  root: string;
  bytes: number;
  files: number;
  messages: number;
  toolCalls: number;
  sessions: { id: string; messages: number; toolCalls: number; bytes: number; file: string }[];
}

export interface CorpusManifest {
  params: CorpusParams;
  generatedMs: number;
  formats: Record<CorpusFormat, FormatCorpus>;
}

function corpusDir(params: CorpusParams): string {
  return join(CORPUS_ROOT, `v${params.version}-${params.sizeMb}mb-${params.seed}`);
}

function readManifest(dir: string, params: CorpusParams): CorpusManifest | null {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as CorpusManifest;
    const same = JSON.stringify(manifest.params) === JSON.stringify(params);
    return same && FORMATS.every((format) => existsSync(manifest.formats[format]?.root ?? '/nonexistent')) ? manifest : null;
  } catch {
    return null;
  }
}

function generateFormat(format: CorpusFormat, params: CorpusParams, root: string, finalRoot: string): FormatCorpus {
  const budget = Math.round(params.sizeMb * 1024 * 1024 * SHARES[format]);
  const prng = new Prng(`${params.seed}/${format}`);
  const sessions: FormatCorpus['sessions'] = [];
  let bytes = 0;
  let files = 0;
  for (let index = 0; bytes < budget * 0.98; index += 1) {
    const sessionPrng = prng.fork(`session-${index}`);
    const plan = plannedSession(sessionPrng, index);
    const long = index === 0;
    const limits = long
      ? { messages: LONG_SESSION_MESSAGES, bytes: budget * LONG_SESSION_OVERRUN }
      : { messages: sessionPrng.int(300, 2500), bytes: budget - bytes };
    const written = WRITERS[format](sessionPrng, plan.info, plan.turns, root, limits);
    bytes += written.bytes;
    files += written.fileCount ?? written.files.length;
    const file = (written.files[0] ?? '').replace(root, finalRoot);
    sessions.push({ id: written.id, messages: written.messages, toolCalls: written.toolCalls, bytes: written.bytes, file });
  }
  return {
    format,
    root: finalRoot,
    bytes,
    files,
    messages: sessions.reduce((sum, s) => sum + s.messages, 0),
    toolCalls: sessions.reduce((sum, s) => sum + s.toolCalls, 0),
    sessions,
  };
}

/** The corpus for these parameters: reused when on disk, else generated (into a temp folder, then renamed). */
export function ensureCorpus(params: CorpusParams, log: (text: string) => void): { manifest: CorpusManifest; reused: boolean } {
  const dir = corpusDir(params);
  const existing = readManifest(dir, params);
  if (existing) return { manifest: existing, reused: true };
  const staging = `${dir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
  const started = Date.now();
  const formats = {} as Record<CorpusFormat, FormatCorpus>;
  for (const format of FORMATS) {
    const formatStarted = Date.now();
    const root = join(staging, format);
    mkdirSync(root, { recursive: true });
    formats[format] = generateFormat(format, params, root, join(dir, format));
    const made = formats[format];
    log(`generated ${format}: ${(made.bytes / 1048576).toFixed(1)} MB, ${made.sessions.length} sessions, ${made.messages} messages, ${made.toolCalls} tool calls, ${made.files} files in ${((Date.now() - formatStarted) / 1000).toFixed(1)} s`);
  }
  const manifest: CorpusManifest = { params, generatedMs: Date.now() - started, formats };
  writeFileSync(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2));
  renameSync(staging, dir);
  return { manifest, reused: false };
}

export interface LargeTranscript {
  /** The folder holding it (and its manifest): delete this to drop it. */
  dir: string;
  file: string;
  bytes: number;
  messages: number;
  toolCalls: number;
}

/** One Claude Code transcript of `sizeMb` (the peak-memory figure), reused when already on disk. */
export function ensureLargeTranscript(sizeMb: number, seed: string, log: (text: string) => void): LargeTranscript {
  const dir = join(CORPUS_ROOT, `large-v${GENERATOR_VERSION}-${sizeMb}mb-${seed}`);
  const manifestFile = join(dir, 'manifest.json');
  if (existsSync(manifestFile)) {
    const known = JSON.parse(readFileSync(manifestFile, 'utf8')) as LargeTranscript;
    if (existsSync(known.file)) return { ...known, dir };
  }
  rmSync(dir, { recursive: true, force: true });
  const staging = `${dir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  const started = Date.now();
  const prng = new Prng(`${seed}/large`);
  const plan = plannedSession(prng, 0);
  const written = writeClaudeSession(prng, plan.info, plan.turns, staging, { messages: Number.POSITIVE_INFINITY, bytes: sizeMb * 1024 * 1024 });
  renameSync(staging, dir);
  const made: LargeTranscript = { dir, file: (written.files[0] ?? '').replace(staging, dir), bytes: written.bytes, messages: written.messages, toolCalls: written.toolCalls };
  writeFileSync(manifestFile, JSON.stringify(made, null, 2));
  log(`generated a ${(made.bytes / 1048576).toFixed(0)} MB Claude Code transcript (${made.messages} messages) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return made;
}
