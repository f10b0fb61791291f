import { statfsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensureLargeTranscript } from '../generate/corpus.js';
import type { Budget } from '../lib/budget.js';
import { runChild, runCommand } from '../lib/child.js';
import { benchScript, CORPUS_ROOT, WORK_ROOT } from '../lib/paths.js';
import { step, warn } from '../lib/progress.js';
import { figure, pendingFigure, type Figure } from '../lib/results.js';
import { round } from '../lib/stats.js';
import type { BareParseResult } from '../ingest/parse-child.js';
import type { RetraceIngestResult } from '../ingest/retrace-child.js';

/**
 * Peak memory ingesting one large Claude Code transcript (1 GB by default), the way `retrace
 * ingest` does it (store, then derive), against the peak of a bare streamed parse of the same
 * file. The child is stopped when the phase runs out of time; what it reported before still counts.
 */
const GOAL_BYTES = 400 * 1024 * 1024;
const MB = 1024 * 1024;

function freeBytes(path: string): number {
  const stats = statfsSync(path);
  return stats.bavail * stats.bsize;
}

export async function memoryPhase(sizeMb: number, seed: string, budget: Budget, keep: boolean): Promise<Figure[]> {
  const title = `peak RSS ingesting one ${sizeMb >= 1024 ? `${round(sizeMb / 1024, 1)} GB` : `${sizeMb} MB`} JSONL transcript`;
  const needed = sizeMb * MB * 3; // the file, the store, DuckDB's temp files
  if (freeBytes(CORPUS_ROOT) < needed) return [pendingFigure('memory.large', 'memory', title, '< 400 MB', `not enough free disk (${round(freeBytes(CORPUS_ROOT) / 1e9, 1)} GB) for a ${sizeMb} MB transcript and its store`)];
  const large = ensureLargeTranscript(sizeMb, seed, step);
  const dir = dirname(large.file);
  const parse = await runChild<BareParseResult>(benchScript('ingest/parse-child.js'), ['claude', dir], { timeoutMs: 10 * 60_000 });
  step(`bare parse: ${round(parse.result.ms / 1000, 1)} s, peak RSS ${round((parse.maxRssBytes ?? 0) / MB, 0)} MB`);
  const db = join(WORK_ROOT, 'large.duckdb');
  let stored: { rss: number; ms: number; heap: number; nowRss: number } | null = null;
  const timeoutMs = Math.max(90_000, budget.remainingMs());
  const run = await runCommand(process.execPath, [benchScript('ingest/retrace-child.js'), db, large.file], {
    timeoutMs,
    onStderr: (chunk) => {
      const match = /bench: stored \d+ sessions, peak RSS (\d+) bytes, (\d+) ms; now: rss (\d+), JS heap (\d+)/.exec(chunk);
      if (match) stored = { rss: Number(match[1]), ms: Number(match[2]), nowRss: Number(match[3]), heap: Number(match[4]) };
    },
  });
  rmSync(db, { force: true });
  rmSync(`${db}.wal`, { force: true });
  if (!keep && freeBytes(CORPUS_ROOT) < 20e9) rmSync(large.dir, { recursive: true, force: true });
  const storedInfo = stored as { rss: number; ms: number; heap: number; nowRss: number } | null;
  let result: RetraceIngestResult | null = null;
  if (!run.timedOut && run.code === 0) result = JSON.parse(run.stdout.trim().split('\n').pop() ?? 'null') as RetraceIngestResult;
  else if (!run.timedOut) throw new Error(`retrace ingest of the large transcript failed (exit ${run.code}): ${run.stderr.trim().split('\n').slice(-5).join(' | ')}`);
  const peak = run.maxRssBytes ?? result?.rssPeakBytes ?? 0;
  const notes: string[] = [];
  if (storedInfo) {
    notes.push(`peak ${round(storedInfo.rss / MB, 0)} MB once every row was stored (${round(storedInfo.ms / 1000, 0)} s), before deriving the decision tree; of the ${round(storedInfo.nowRss / MB, 0)} MB resident then, the JS heap held ${round(storedInfo.heap / MB, 0)} MB (the rest is native: DuckDB)`);
  }
  if (result) notes.push(`${result.messages} messages, ${result.toolCalls} tool calls in ${round(result.ms / 1000, 0)} s (derive ${round(result.deriveMs / 1000, 0)} s), errors ${result.errorCount}`);
  if (run.timedOut) {
    warn(`the large ingest was stopped after ${round(timeoutMs / 1000, 0)} s (phase budget)`);
    notes.push(`stopped after ${round(timeoutMs / 1000, 0)} s by the phase budget${storedInfo ? ' while deriving' : ' while storing'}: the peak shown is the peak until then`);
  }
  step(`retrace: peak RSS ${round(peak / MB, 0)} MB${storedInfo ? ` (${round(storedInfo.rss / MB, 0)} MB before derive)` : ''}`);
  return [
    figure({
      id: 'memory.large',
      group: 'memory',
      title,
      measured: { label: 'retrace', value: round(peak / MB, 0), unit: 'MB' },
      baseline: { label: 'bare streamed parse', value: round((parse.maxRssBytes ?? 0) / MB, 0), unit: 'MB' },
      ratioMeaning: 'retrace peak RSS ÷ bare-parse peak RSS (lower is better)',
      ratio: parse.maxRssBytes ? round(peak / parse.maxRssBytes, 2) : null,
      goal: '< 400 MB',
      met: run.timedOut ? (peak >= GOAL_BYTES ? false : null) : peak < GOAL_BYTES,
      notes,
    }),
  ];
}
