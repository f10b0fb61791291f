import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Prng } from '../lib/prng.js';
import { archiveFileSizes, dealSizes } from './archive-profile.js';
import { CORPUS_ROOT } from '../lib/paths.js';
import { plannedSession } from './story/session.js';
import { writeClaudeSession } from './writers/claude.js';
import { writeCodexSession } from './writers/codex.js';
import { writeOpencodeExport, writeOpencodeStorage } from './writers/opencode.js';
import type { SessionLimits, WrittenSession } from './writers/written.js';
import type { SessionInfo, Turn } from './story/turns.js';

/**
 * The benchmark corpus: a real archive's file-size profile (`archive-profile.ts`: 3,142 files,
 * 1.24 GiB at scale 1) dealt out to the four formats by share, each file one session written until
 * it reaches its size. Same parameters, same bytes: a corpus already on disk with the same
 * manifest is reused. The inputs that break readers are in `shapes.ts`.
 */

/** Bump when the generator's output changes, so old corpora are not reused. */
export const GENERATOR_VERSION = 3;
export const DEFAULT_SEED = 'retrace-bench';

export const FORMATS = ['claude', 'codex', 'opencode-export', 'opencode-storage'] as const;
export type CorpusFormat = (typeof FORMATS)[number];

const SHARES: Record<CorpusFormat, number> = { claude: 0.3, codex: 0.2, 'opencode-export': 0.27, 'opencode-storage': 0.23 };

type Writer = (prng: Prng, info: SessionInfo, turns: Iterable<Turn>, root: string, limits: SessionLimits) => WrittenSession;

const WRITERS: Record<CorpusFormat, Writer> = {
  claude: writeClaudeSession,
  codex: writeCodexSession,
  'opencode-export': writeOpencodeExport,
  'opencode-storage': writeOpencodeStorage,
};

export interface CorpusParams {
  /** 1 = the archive's 3,142 files; 0.1 = 314 of them, same profile. */
  scale: number;
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
  return join(CORPUS_ROOT, `v${params.version}-x${params.scale}-${params.seed}`);
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

function generateFormat(format: CorpusFormat, params: CorpusParams, root: string, finalRoot: string, targets: readonly number[]): FormatCorpus {
  const prng = new Prng(`${params.seed}/${format}`);
  const sessions: FormatCorpus['sessions'] = [];
  let bytes = 0;
  let files = 0;
  targets.forEach((target, index) => {
    const sessionPrng = prng.fork(`session-${index}`);
    const plan = plannedSession(sessionPrng, index);
    const written = WRITERS[format](sessionPrng, plan.info, plan.turns, root, { messages: Number.POSITIVE_INFINITY, bytes: target });
    bytes += written.bytes;
    files += written.fileCount ?? written.files.length;
    const file = (written.files[0] ?? '').replace(root, finalRoot);
    sessions.push({ id: written.id, messages: written.messages, toolCalls: written.toolCalls, bytes: written.bytes, file });
  });
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
  const targets = dealSizes(archiveFileSizes(params.scale), SHARES, new Prng(`${params.seed}/deal`));
  for (const format of FORMATS) {
    const formatStarted = Date.now();
    const root = join(staging, format);
    mkdirSync(root, { recursive: true });
    formats[format] = generateFormat(format, params, root, join(dir, format), targets[format]);
    const made = formats[format];
    log(`generated ${format}: ${(made.bytes / 1048576).toFixed(1)} MB, ${made.sessions.length} sessions, ${made.messages} messages, ${made.toolCalls} tool calls, ${made.files} files in ${((Date.now() - formatStarted) / 1000).toFixed(1)} s`);
  }
  const manifest: CorpusManifest = { params, generatedMs: Date.now() - started, formats };
  writeFileSync(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2));
  renameSync(staging, dir);
  return { manifest, reused: false };
}
