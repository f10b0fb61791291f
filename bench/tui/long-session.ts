import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { plannedSession } from '../generate/story/session.js';
import { writeClaudeSession } from '../generate/writers/claude.js';
import { runChild } from '../lib/child.js';
import { benchScript, CORPUS_ROOT, WORK_ROOT } from '../lib/paths.js';
import { Prng } from '../lib/prng.js';
import type { RetraceIngestResult } from '../ingest/retrace-child.js';
import type { TuiTarget } from './phase.js';

/**
 * The session the TUI goal names: one Claude Code session of exactly 10,000 messages, whatever
 * the scale (the archive corpus's longest session at scale 0.05 has ~650), generated once and
 * ingested into a store of its own, both reused from disk while the seed is the same.
 */
export const LONG_SESSION_MESSAGES = 10_000;

interface LongSessionManifest {
  seed: string;
  /** Messages the writer wrote, and those the store holds (the figure's count). */
  written: number;
  messages: number;
  root: string;
  db: string;
  session: string;
}

export async function longSessionStore(seed: string, log: (text: string) => void): Promise<TuiTarget> {
  const root = join(CORPUS_ROOT, `tui-long-v1-${seed}`);
  const db = join(WORK_ROOT, `tui-long-${seed}.duckdb`);
  const manifestFile = join(root, 'long-session.json');
  if (existsSync(manifestFile) && existsSync(db)) {
    const known = JSON.parse(readFileSync(manifestFile, 'utf8')) as LongSessionManifest;
    if (known.written === LONG_SESSION_MESSAGES && known.db === db) return { db, session: known.session, messages: known.messages };
  }
  const prng = new Prng(`${seed}/tui/long-session`);
  const plan = plannedSession(prng, 0);
  const staging = `${root}.partial`;
  rmSync(staging, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const written = writeClaudeSession(prng, plan.info, plan.turns, staging, { messages: LONG_SESSION_MESSAGES, bytes: Number.POSITIVE_INFINITY });
  renameSync(staging, root);
  mkdirSync(WORK_ROOT, { recursive: true });
  for (const file of [db, `${db}.wal`]) rmSync(file, { force: true });
  const started = Date.now();
  const { result } = await runChild<RetraceIngestResult>(benchScript('ingest/retrace-child.js'), [db, root], { timeoutMs: 20 * 60_000 });
  if (result.errorCount > 0 || !result.largestSession) throw new Error(`ingest of the ${LONG_SESSION_MESSAGES}-message session failed: ${result.errors.join(' | ')}`);
  const session = result.largestSession;
  log(`long session for the TUI: ${written.messages} messages written, ${session.messages} stored, ingested in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const manifest: LongSessionManifest = { seed, written: written.messages, messages: session.messages, root, db, session: session.id };
  writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
  return { db, session: session.id, messages: session.messages };
}
