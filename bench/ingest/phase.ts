import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CorpusFormat, CorpusManifest } from '../generate/corpus.js';
import { FORMATS } from '../generate/corpus.js';
import type { Budget } from '../lib/budget.js';
import { runChild } from '../lib/child.js';
import { benchScript, WORK_ROOT } from '../lib/paths.js';
import { step, warn } from '../lib/progress.js';
import { figure, type Figure } from '../lib/results.js';
import { median, round } from '../lib/stats.js';
import type { BareParseResult } from './parse-child.js';
import type { DuckdbLoadResult } from './duckdb-child.js';
import type { RetraceIngestResult } from './retrace-child.js';

/**
 * Ingest throughput: retrace (`retrace ingest` in-process: validate, convert, redact, store,
 * derive) against DuckDB's own JSON loader and against a bare line split + JSON.parse, on the
 * same bytes, each run in a fresh process, contenders interleaved so load spikes hit them alike.
 */

export const FORMAT_NAMES: Record<CorpusFormat, string> = {
  claude: 'Claude Code JSONL',
  codex: 'Codex JSONL',
  'opencode-export': 'opencode export JSON',
  'opencode-storage': 'opencode storage tree',
};

const MAX_RUNS = 3;
const CHILD_TIMEOUT_MS = 15 * 60_000;

export interface IngestPhaseOutput {
  figures: Figure[];
  /** The store of the last retrace run per format (kept for the query and TUI phases). */
  stores: Record<CorpusFormat, string>;
  duckdbVersion: string | null;
  retrace: Record<CorpusFormat, RetraceIngestResult | null>;
}

interface Runs {
  parse: BareParseResult[];
  duckdb: DuckdbLoadResult[];
  retrace: RetraceIngestResult[];
}

const mbPerS = (bytes: number, ms: number): number => bytes / 1e6 / (ms / 1000);

export async function ingestPhase(manifest: CorpusManifest, budget: Budget, options: { profileDir?: string }): Promise<IngestPhaseOutput> {
  mkdirSync(WORK_ROOT, { recursive: true });
  const stores = {} as Record<CorpusFormat, string>;
  const all = {} as Record<CorpusFormat, Runs>;
  let duckdbVersion: string | null = null;
  // Every contender once per format first, then more rounds while the phase has time.
  for (let round_ = 0; round_ < MAX_RUNS; round_ += 1) {
    for (const format of FORMATS) {
      const corpus = manifest.formats[format];
      const runs = (all[format] ??= { parse: [], duckdb: [], retrace: [] });
      const estimate = (runs.retrace.at(-1)?.ms ?? 0) + (runs.duckdb.at(-1)?.ms ?? 0) + (runs.parse.at(-1)?.ms ?? 0);
      if (round_ > 0 && !budget.allows(estimate * 1.3)) continue;
      const parse = await runChild<BareParseResult>(benchScript('ingest/parse-child.js'), [format, corpus.root], { timeoutMs: CHILD_TIMEOUT_MS });
      runs.parse.push(parse.result);
      const duckStore = join(WORK_ROOT, `duckdb-${format}.duckdb`);
      const duck = await runChild<DuckdbLoadResult>(benchScript('ingest/duckdb-child.js'), [format, duckStore, corpus.root], { timeoutMs: CHILD_TIMEOUT_MS });
      rmSync(duckStore, { force: true });
      runs.duckdb.push(duck.result);
      duckdbVersion = duck.result.duckdbVersion;
      stores[format] = join(WORK_ROOT, `retrace-${format}.duckdb`);
      const profiling = options.profileDir && round_ === 0 ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`, `--cpu-prof-name=ingest-${format}.cpuprofile`] : [];
      const retrace = await runChild<RetraceIngestResult>(benchScript('ingest/retrace-child.js'), [stores[format], corpus.root], { timeoutMs: CHILD_TIMEOUT_MS, nodeArgs: profiling });
      runs.retrace.push(retrace.result);
      step(
        `${format} round ${round_ + 1}: retrace ${(retrace.result.ms / 1000).toFixed(1)} s (derive left after the store ${(retrace.result.deriveMs / 1000).toFixed(1)} s), ` +
          `DuckDB ${(duck.result.ms / 1000).toFixed(1)} s, bare parse ${(parse.result.ms / 1000).toFixed(1)} s`,
      );
      if (retrace.result.errorCount > 0) warn(`${format}: retrace reported ${retrace.result.errorCount} errors: ${retrace.result.errors.join(' | ')}`);
    }
  }
  const figures: Figure[] = [];
  let bytesAll = 0;
  const totals = { retrace: 0, duckdb: 0, parse: 0, messages: 0 };
  for (const format of FORMATS) {
    const corpus = manifest.formats[format];
    const runs = all[format];
    if (!runs) continue;
    const retraceMs = median(runs.retrace.map((r) => r.ms));
    const duckMs = median(runs.duckdb.map((r) => r.ms));
    const parseMs = median(runs.parse.map((r) => r.ms));
    const last = runs.retrace.at(-1);
    const messages = last?.messages ?? corpus.messages;
    bytesAll += corpus.bytes;
    totals.retrace += retraceMs;
    totals.duckdb += duckMs;
    totals.parse += parseMs;
    totals.messages += messages;
    const size = `${round(corpus.bytes / 1e6, 0)} MB`;
    const ours = { label: 'retrace', value: round(mbPerS(corpus.bytes, retraceMs), 1), unit: 'MB/s', runs: runs.retrace.map((r) => round(mbPerS(corpus.bytes, r.ms), 1)) };
    const notes = [
      `${corpus.sessions.length} sessions, ${messages} messages, ${last?.toolCalls ?? corpus.toolCalls} tool calls, ${corpus.files} files; retrace ${round(messages / (retraceMs / 1000), 0)} msg/s vs DuckDB ${round(messages / (duckMs / 1000), 0)} msg/s vs bare parse ${round(messages / (parseMs / 1000), 0)} msg/s`,
      `retrace time: ${round(retraceMs / 1000, 1)} s, of which derive left after the store (classify + tree, the rest overlaps) ${round((median(runs.retrace.map((r) => r.deriveMs)) / retraceMs) * 100, 0)}%; peak RSS ${round((last?.rssPeakBytes ?? 0) / 1048576, 0)} MB; DuckDB: ${runs.duckdb.at(-1)?.method ?? ''}`,
    ];
    const duckRatio = duckMs / retraceMs;
    figures.push(figure({
      id: `ingest.${format}.duckdb`,
      group: 'ingest',
      title: `ingest ${FORMAT_NAMES[format]} (${size}) vs DuckDB`,
      measured: ours,
      baseline: { label: 'DuckDB read_json', value: round(mbPerS(corpus.bytes, duckMs), 1), unit: 'MB/s', runs: runs.duckdb.map((r) => round(mbPerS(corpus.bytes, r.ms), 1)) },
      ratioMeaning: 'retrace MB/s ÷ DuckDB MB/s (higher is better)',
      ratio: round(duckRatio, 3),
      goal: '≥ 1.0',
      met: duckRatio >= 1,
      notes,
    }));
    const parseRatio = parseMs / retraceMs;
    figures.push(figure({
      id: `ingest.${format}.parse`,
      group: 'ingest',
      title: `ingest ${FORMAT_NAMES[format]} (${size}) vs bare parse`,
      measured: ours,
      baseline: { label: 'split + JSON.parse', value: round(mbPerS(corpus.bytes, parseMs), 1), unit: 'MB/s', runs: runs.parse.map((r) => round(mbPerS(corpus.bytes, r.ms), 1)) },
      ratioMeaning: 'retrace MB/s ÷ bare-parse MB/s (higher is better)',
      ratio: round(parseRatio, 3),
      goal: '≥ 0.4',
      met: parseRatio >= 0.4,
    }));
  }
  // Re-ingest of the unchanged corpus: every store again, nothing to read.
  let againMs = 0;
  let againOpenMs = 0;
  let againDiscoverMs = 0;
  let againWallMs = 0;
  let skipped = 0;
  let sourcesAll = 0;
  for (const format of FORMATS) {
    if (!stores[format]) continue;
    const again = await runChild<RetraceIngestResult>(benchScript('ingest/retrace-child.js'), [stores[format], manifest.formats[format].root, '--again'], { timeoutMs: CHILD_TIMEOUT_MS });
    againMs += again.result.ms;
    againOpenMs += again.result.openMs;
    againDiscoverMs += again.result.discoverMs;
    againWallMs += again.wallMs;
    skipped += again.result.skippedUnchanged;
    sourcesAll += again.result.skippedUnchanged + again.result.sources;
  }
  step(`re-ingest of the unchanged corpus: ${round(againMs, 0)} ms in-process (${round(againWallMs, 0)} ms with process start-up), ${skipped}/${sourcesAll} sources skipped`);
  figures.push(figure({
    id: 'ingest.again',
    group: 'ingest',
    title: `re-ingest of the unchanged corpus (${sourcesAll} sources)`,
    measured: { label: 'retrace', value: round(againMs, 0), unit: 'ms' },
    baseline: null,
    ratioMeaning: null,
    goal: '≤ 1000 ms',
    met: againMs <= 1000,
    notes: [
      `in-process, open the store + discover + skip, one store per format (sum of ${FORMATS.length}); with each process's start-up ${round(againWallMs, 0)} ms; ${skipped} of ${sourcesAll} sources found unchanged`,
      `of which opening the ${FORMATS.length} stores (DuckDB's start-up, a fixed cost per process) ${round(againOpenMs, 0)} ms, discovery ${round(againDiscoverMs, 0)} ms, deciding and skipping the rest`,
    ],
  }));
  const errors = FORMATS.reduce((sum, format) => sum + (all[format]?.retrace.reduce((s, r) => Math.max(s, r.errorCount), 0) ?? 0), 0);
  figures.push(figure({
    id: 'ingest.all.duckdb',
    group: 'ingest',
    title: `ingest whole corpus (${round(bytesAll / 1e6, 0)} MB) vs DuckDB`,
    measured: { label: 'retrace', value: round(mbPerS(bytesAll, totals.retrace), 1), unit: 'MB/s' },
    baseline: { label: 'DuckDB read_json', value: round(mbPerS(bytesAll, totals.duckdb), 1), unit: 'MB/s' },
    ratioMeaning: 'retrace MB/s ÷ DuckDB MB/s',
    ratio: round(totals.duckdb / totals.retrace, 3),
    goal: '≥ 1.0',
    met: totals.duckdb / totals.retrace >= 1,
    notes: [`${totals.messages} messages: retrace ${round(totals.messages / (totals.retrace / 1000), 0)} msg/s, DuckDB ${round(totals.messages / (totals.duckdb / 1000), 0)} msg/s, bare parse ${round(totals.messages / (totals.parse / 1000), 0)} msg/s`],
  }));
  figures.push(figure({
    id: 'ingest.all.parse',
    group: 'ingest',
    title: `ingest whole corpus (${round(bytesAll / 1e6, 0)} MB) vs bare parse`,
    measured: { label: 'retrace', value: round(mbPerS(bytesAll, totals.retrace), 1), unit: 'MB/s' },
    baseline: { label: 'split + JSON.parse', value: round(mbPerS(bytesAll, totals.parse), 1), unit: 'MB/s' },
    ratioMeaning: 'retrace MB/s ÷ bare-parse MB/s',
    ratio: round(totals.parse / totals.retrace, 3),
    goal: '≥ 0.4',
    met: totals.parse / totals.retrace >= 0.4,
  }));
  figures.push(figure({
    id: 'ingest.errors',
    group: 'ingest',
    title: 'ingest errors on the generated corpus',
    measured: { label: 'retrace', value: errors, unit: '' },
    baseline: null,
    ratioMeaning: null,
    goal: '= 0',
    met: errors === 0,
    notes: errors === 0 ? [] : FORMATS.flatMap((format) => all[format]?.retrace.at(-1)?.errors ?? []),
  }));
  const retrace = Object.fromEntries(FORMATS.map((format) => [format, all[format]?.retrace.at(-1) ?? null])) as Record<CorpusFormat, RetraceIngestResult | null>;
  return { figures, stores, duckdbVersion, retrace };
}
