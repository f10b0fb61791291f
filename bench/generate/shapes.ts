import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Prng } from '../lib/prng.js';
import { CORPUS_ROOT } from '../lib/paths.js';
import { plannedSession } from './story/session.js';
import type { Turn } from './story/turns.js';
import { writeClaudeSession } from './writers/claude.js';
import { writeCodexSession } from './writers/codex.js';
import { writeOpencodeDb } from './writers/opencode-db.js';
import { writeTinyLines } from './writers/tiny-lines.js';
import type { WrittenSession } from './writers/written.js';

/**
 * The inputs that break readers (issue 18), each one input of its own: a 700 MB Claude Code
 * session that is mostly `file-history-snapshot` and `progress` lines, one tool result of 12.8
 * million characters, a 1.5 GiB Codex rollout, a million tiny lines, an opencode.db of 20,000
 * sessions. Sizes and counts follow the scale, except the 12.8M-character result (cheap, and the
 * point of the shape). Reused from disk like the corpus.
 */
export const SHAPES = ['claude-snapshots', 'giant-result', 'codex-rollout', 'tiny-lines', 'opencode-db'] as const;
export type ShapeName = (typeof SHAPES)[number];

/** What `duckdb-child` / `parse-child` call the bytes. */
export type ShapeFormat = 'claude' | 'codex' | 'opencode-db';

export interface Shape {
  name: ShapeName;
  title: string;
  format: ShapeFormat;
  /** What to hand to `retrace ingest`: the folder holding the one input. */
  root: string;
  file: string;
  bytes: number;
  sessions: number;
  messages: number;
  toolCalls: number;
}

const MIB = 1024 * 1024;
export const GIANT_RESULT_CHARS = 12_800_000;

/** The story's turns with the output of its `nth` shell call replaced by `chars` characters of log. */
function* withGiantOutput(turns: Iterable<Turn>, prng: Prng, nth: number, chars: number): Generator<Turn> {
  let shells = 0;
  for (const turn of turns) {
    if (turn.role === 'assistant') {
      for (const call of turn.calls) {
        if (call.kind !== 'shell') continue;
        shells += 1;
        if (shells === nth) call.output = logOf(prng, chars);
      }
    }
    yield turn;
  }
}

/** A server log of about `chars` characters: what `cat`-ing a long-running service's log returns. */
function logOf(prng: Prng, chars: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i += 1) {
    const line = `INFO ${String(i).padStart(8, '0')} [engine] Avg prompt throughput: ${prng.int(0, 9000)}.${prng.int(0, 9)} tokens/s, Running: ${prng.int(0, 64)} reqs, GPU KV cache usage: ${prng.int(0, 99)}.${prng.int(0, 9)}%`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n').slice(0, chars);
}

function build(name: ShapeName, scale: number, seed: string, root: string): Omit<Shape, 'root'> & { written: WrittenSession | null } {
  const prng = new Prng(`${seed}/shape/${name}`);
  const plan = plannedSession(prng, 0);
  const endless = { messages: Number.POSITIVE_INFINITY, bytes: 0 };
  if (name === 'claude-snapshots') {
    const written = writeClaudeSession(prng, plan.info, plan.turns, root, { ...endless, bytes: Math.round(700e6 * scale) }, { heavy: true });
    return { name, title: `Claude Code session, mostly file-history-snapshot and progress lines`, format: 'claude', file: written.files[0] ?? '', bytes: written.bytes, sessions: 1, messages: written.messages, toolCalls: written.toolCalls, written };
  }
  if (name === 'giant-result') {
    const turns = withGiantOutput(plan.turns, prng, 40, GIANT_RESULT_CHARS);
    const written = writeClaudeSession(prng, plan.info, turns, root, { ...endless, bytes: GIANT_RESULT_CHARS * 2 + 8 * MIB });
    return { name, title: `Claude Code session with one tool result of ${(GIANT_RESULT_CHARS / 1e6).toFixed(1)}M characters`, format: 'claude', file: written.files[0] ?? '', bytes: written.bytes, sessions: 1, messages: written.messages, toolCalls: written.toolCalls, written };
  }
  if (name === 'codex-rollout') {
    const written = writeCodexSession(prng, plan.info, plan.turns, root, { ...endless, bytes: Math.round(1.5 * 1024 * MIB * scale) });
    return { name, title: 'one Codex rollout', format: 'codex', file: written.files[0] ?? '', bytes: written.bytes, sessions: 1, messages: written.messages, toolCalls: written.toolCalls, written };
  }
  if (name === 'tiny-lines') {
    const written = writeTinyLines(prng, plan.info, root, Math.round(1_000_000 * scale));
    return { name, title: `Claude Code session of ${Math.round(1_000_000 * scale).toLocaleString('en-US')} tiny lines`, format: 'claude', file: written.files[0] ?? '', bytes: written.bytes, sessions: 1, messages: written.messages, toolCalls: written.toolCalls, written };
  }
  const count = Math.max(10, Math.round(20_000 * scale));
  const made = writeOpencodeDb(prng, join(root, 'opencode.db'), count, (index) => plannedSession(prng.fork(`db-${index}`), index));
  return { name, title: `opencode.db of ${count.toLocaleString('en-US')} sessions`, format: 'opencode-db', file: made.file, bytes: statSync(made.file).size, sessions: count, messages: made.messages, toolCalls: made.toolCalls, written: null };
}

/** One shape's input, reused when its manifest is on disk. */
export function ensureShape(name: ShapeName, scale: number, seed: string, version: number, log: (text: string) => void): Shape {
  const dir = join(CORPUS_ROOT, `shapes-v${version}-x${scale}-${seed}`, name);
  const manifestFile = join(dir, 'shape.json');
  if (existsSync(manifestFile)) {
    const known = JSON.parse(readFileSync(manifestFile, 'utf8')) as Shape;
    if (existsSync(known.file)) return known;
  }
  const staging = `${dir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const started = Date.now();
  const { written: _written, ...made } = build(name, scale, seed, staging);
  renameSync(staging, dir);
  const shape: Shape = { ...made, root: dir, file: made.file.replace(staging, dir) };
  writeFileSync(manifestFile, JSON.stringify(shape, null, 2));
  log(`generated ${name}: ${(shape.bytes / MIB).toFixed(1)} MiB, ${shape.sessions} sessions, ${shape.messages} messages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return shape;
}

/** Deletes a shape's input (the memory phase does, after measuring, when disk is short). */
export function dropShape(shape: Shape): void {
  rmSync(shape.root, { recursive: true, force: true });
}
