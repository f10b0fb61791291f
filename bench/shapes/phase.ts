import { rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { dropShape, ensureShape, SHAPES, type Shape } from '../generate/shapes.js';
import type { Budget } from '../lib/budget.js';
import { runChild, runCommand } from '../lib/child.js';
import { benchScript, CORPUS_ROOT, WORK_ROOT } from '../lib/paths.js';
import { step, warn } from '../lib/progress.js';
import { failedFigure, figure, pendingFigure, type Figure } from '../lib/results.js';
import { round } from '../lib/stats.js';
import type { BareParseResult } from '../ingest/parse-child.js';
import type { DuckdbLoadResult } from '../ingest/duckdb-child.js';
import type { RetraceIngestResult } from '../ingest/retrace-child.js';

/**
 * The inputs that break readers (`generate/shapes.ts`), one at a time: peak RSS of `retrace
 * ingest` on each (goal < 400 MB) against the bare streamed parse of the same bytes, and its
 * throughput against DuckDB's loader on them (an opencode.db has no DuckDB baseline here: the
 * sqlite extension is downloaded on first use and this machine cannot). A child still running
 * when the phase is out of time is stopped; the peak until then is reported.
 */
const GOAL_BYTES = 400 * 1024 * 1024;
const MB = 1024 * 1024;
const STORED = /bench: stored \d+ sessions, peak RSS (\d+) bytes, (\d+) ms; now: rss (\d+), JS heap (\d+)/;

function freeBytes(path: string): number {
  const stats = statfsSync(path);
  return stats.bavail * stats.bsize;
}

interface Stored {
  rss: number;
  ms: number;
  nowRss: number;
  heap: number;
}

async function measureShape(shape: Shape, budget: Budget): Promise<Figure[]> {
  const parse = await runChild<BareParseResult>(benchScript('ingest/parse-child.js'), [shape.format, shape.root], { timeoutMs: 20 * 60_000 });
  let duck: DuckdbLoadResult | null = null;
  if (shape.format !== 'opencode-db') {
    const duckStore = join(WORK_ROOT, `duckdb-${shape.name}.duckdb`);
    duck = (await runChild<DuckdbLoadResult>(benchScript('ingest/duckdb-child.js'), [shape.format, duckStore, shape.root], { timeoutMs: 20 * 60_000 })).result;
    rmSync(duckStore, { force: true });
  }
  const db = join(WORK_ROOT, `shape-${shape.name}.duckdb`);
  let stored: Stored | null = null;
  const timeoutMs = Math.max(120_000, budget.remainingMs());
  const run = await runCommand(process.execPath, [benchScript('ingest/retrace-child.js'), db, shape.root], {
    timeoutMs,
    onStderr: (chunk) => {
      const match = STORED.exec(chunk);
      if (match) stored = { rss: Number(match[1]), ms: Number(match[2]), nowRss: Number(match[3]), heap: Number(match[4]) };
    },
  });
  rmSync(db, { force: true });
  rmSync(`${db}.wal`, { force: true });
  let result: RetraceIngestResult | null = null;
  if (!run.timedOut && run.code === 0) result = JSON.parse(run.stdout.trim().split('\n').pop() ?? 'null') as RetraceIngestResult;
  else if (!run.timedOut) throw new Error(`retrace ingest of ${shape.name} failed (exit ${run.code}): ${run.stderr.trim().split('\n').slice(-5).join(' | ')}`);
  const storedInfo = stored as Stored | null;
  const peak = run.maxRssBytes ?? result?.rssPeakBytes ?? 0;
  const size = `${round(shape.bytes / 1e6, 0)} MB`;
  const notes: string[] = [];
  if (storedInfo) notes.push(`peak ${round(storedInfo.rss / MB, 0)} MB once every row was stored (${round(storedInfo.ms / 1000, 1)} s), before deriving; resident then ${round(storedInfo.nowRss / MB, 0)} MB, of which JS heap ${round(storedInfo.heap / MB, 0)} MB`);
  if (result) notes.push(`${result.sessions} sessions, ${result.messages} messages, ${result.toolCalls} tool calls in ${round(result.ms / 1000, 1)} s (derive ${round(result.deriveMs / 1000, 1)} s), errors ${result.errorCount}${result.errorCount ? `: ${result.errors.join(' | ')}` : ''}`);
  if (run.timedOut) notes.push(`stopped after ${round(timeoutMs / 1000, 0)} s by the phase budget${storedInfo ? ' while deriving' : ' while storing'}: the peak shown is the peak until then`);
  step(`${shape.name} (${size}): retrace ${result ? `${round(result.ms / 1000, 1)} s` : 'stopped'}, peak RSS ${round(peak / MB, 0)} MB; DuckDB ${duck ? `${round(duck.ms / 1000, 1)} s` : '—'}; bare parse ${round(parse.result.ms / 1000, 1)} s, ${round((parse.maxRssBytes ?? 0) / MB, 0)} MB`);
  const figures: Figure[] = [
    figure({
      id: `memory.${shape.name}`,
      group: 'memory',
      title: `peak RSS: ${shape.title} (${size})`,
      measured: { label: 'retrace', value: round(peak / MB, 0), unit: 'MB' },
      baseline: { label: 'bare streamed parse', value: round((parse.maxRssBytes ?? 0) / MB, 0), unit: 'MB' },
      ratioMeaning: 'retrace peak RSS ÷ bare-parse peak RSS (lower is better)',
      ratio: parse.maxRssBytes ? round(peak / parse.maxRssBytes, 2) : null,
      goal: '< 400 MB',
      met: run.timedOut ? (peak >= GOAL_BYTES ? false : null) : peak < GOAL_BYTES,
      notes,
    }),
  ];
  if (result) {
    const mbPerS = (ms: number): number => round(shape.bytes / 1e6 / (ms / 1000), 1);
    figures.push(duck
      ? figure({
          id: `ingest.${shape.name}.duckdb`,
          group: 'ingest',
          title: `ingest ${shape.title} (${size}) vs DuckDB`,
          measured: { label: 'retrace', value: mbPerS(result.ms), unit: 'MB/s' },
          baseline: { label: 'DuckDB read_json', value: mbPerS(duck.ms), unit: 'MB/s' },
          ratioMeaning: 'retrace MB/s ÷ DuckDB MB/s (higher is better)',
          ratio: round(duck.ms / result.ms, 3),
          goal: '≥ 1.0',
          met: duck.ms / result.ms >= 1,
          notes: [`bare parse ${mbPerS(parse.result.ms)} MB/s; derive ${round((result.deriveMs / result.ms) * 100, 0)}% of retrace's time`],
        })
      : figure({
          id: `ingest.${shape.name}.parse`,
          group: 'ingest',
          title: `ingest ${shape.title} (${size}) vs reading its rows`,
          measured: { label: 'retrace', value: mbPerS(result.ms), unit: 'MB/s' },
          baseline: { label: 'better-sqlite3 rows + JSON.parse', value: mbPerS(parse.result.ms), unit: 'MB/s' },
          ratioMeaning: 'retrace MB/s ÷ bare-read MB/s (higher is better)',
          ratio: round(parse.result.ms / result.ms, 3),
          goal: null,
          notes: [`no DuckDB baseline: DuckDB reads SQLite only through its sqlite extension, downloaded on first use (no network here); ${round(result.sessions / (result.ms / 1000), 0)} sessions/s; derive ${round((result.deriveMs / result.ms) * 100, 0)}% of the time`],
        }));
  }
  return figures;
}

export async function shapesPhase(scale: number, seed: string, version: number, budget: Budget, keep: boolean): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const name of SHAPES) {
    if (freeBytes(CORPUS_ROOT) < 6e9) {
      figures.push(pendingFigure(`memory.${name}`, 'memory', `peak RSS: ${name}`, '< 400 MB', `not enough free disk (${round(freeBytes(CORPUS_ROOT) / 1e9, 1)} GB) for the input and its store`));
      continue;
    }
    if (!budget.allows(30_000)) {
      figures.push(pendingFigure(`memory.${name}`, 'memory', `peak RSS: ${name}`, '< 400 MB', 'the run was out of budget (--budget) before this input'));
      continue;
    }
    const shape = ensureShape(name, scale, seed, version, step);
    try {
      figures.push(...(await measureShape(shape, budget)));
    } catch (error) {
      warn(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      figures.push(failedFigure(`memory.${name}`, 'memory', `peak RSS: ${shape.title}`, '< 400 MB', error));
    }
    if (!keep && freeBytes(CORPUS_ROOT) < 20e9) dropShape(shape);
  }
  return figures;
}
