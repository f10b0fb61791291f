import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ensureCorpus, FORMATS, GENERATOR_VERSION, type CorpusFormat, type CorpusManifest } from './generate/corpus.js';
import { ingestPhase } from './ingest/phase.js';
import { Budget } from './lib/budget.js';
import { summarise } from './lib/profile-summary.js';
import { RESULTS_DIR, WORK_ROOT } from './lib/paths.js';
import { elapsedSeconds, phase, step, warn } from './lib/progress.js';
import { failedFigure, machineInfo, pendingFigure, renderTable, type Figure } from './lib/results.js';
import { round } from './lib/stats.js';
import { parseOptions, USAGE, type PhaseName } from './options.js';
import { queriesPhase } from './queries/phase.js';
import { sampleStore } from './queries/sample-store.js';
import { replayPhase } from './replay/phase.js';
import { shapesPhase } from './shapes/phase.js';
import { longSessionStore } from './tui/long-session.js';
import { tuiPhase } from './tui/phase.js';

/**
 * `npm run bench`: generates (or reuses) the corpus, then measures every figure of issue 7 with
 * its baseline in the same run, prints the table on stdout (progress goes to stderr) and writes
 * bench/results/latest.json. Phases share the budget; the shapes phase, last, gets the rest.
 */
/** Exits once stdout has taken everything (a pipe is written asynchronously; exiting early cuts the table). */
function exitAfterFlush(code: number): void {
  process.stdout.write('', () => process.exit(code));
}

if (process.argv.includes('--help')) {
  console.log(USAGE);
  exitAfterFlush(0);
  await new Promise(() => undefined);
}
const options = parseOptions(process.argv.slice(2), process.env);
const loadAtStart = loadavg().map((v) => round(v, 2));
const wants = (name: PhaseName): boolean => options.phases.includes(name);
const SHARES: Record<'corpus' | Exclude<PhaseName, 'shapes'>, number> = { corpus: 0.12, ingest: 0.32, queries: 0.13, tui: 0.09, replay: 0.07 };
const budgetOf = (name: keyof typeof SHARES): Budget => new Budget(Math.round(options.budgetSeconds * SHARES[name]));
mkdirSync(WORK_ROOT, { recursive: true });

const figures: Figure[] = [];
const phaseSeconds: Record<string, number> = {};
let duckdbVersion: string | null = null;
const profiles: Record<string, { name: string; where: string; selfPct: number; totalPct: number }[]> = {};

async function timed<T>(name: string, budget: Budget, work: () => Promise<T>): Promise<T | null> {
  phase(name, budget.seconds);
  const started = Date.now();
  try {
    return await work();
  } catch (error) {
    warn(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  } finally {
    phaseSeconds[name] = round((Date.now() - started) / 1000, 1);
  }
}

const corpusBudget = budgetOf('corpus');
phase('corpus', corpusBudget.seconds);
const corpusStarted = Date.now();
const { manifest, reused } = ensureCorpus({ scale: options.scale, seed: options.seed, version: GENERATOR_VERSION }, step);
phaseSeconds['corpus'] = round((Date.now() - corpusStarted) / 1000, 1);
step(`${reused ? 'reused' : 'generated'} corpus: ${FORMATS.map((f) => `${f} ${round(manifest.formats[f].bytes / 1e6, 0)} MB/${manifest.formats[f].messages} msgs`).join(', ')}`);

/** Stores of an earlier run's ingest phase, for `--only queries,tui`. */
function existingStores(): Record<CorpusFormat, string> | null {
  const stores = Object.fromEntries(FORMATS.map((f) => [f, join(WORK_ROOT, `retrace-${f}.duckdb`)])) as Record<CorpusFormat, string>;
  return FORMATS.every((f) => existsSync(stores[f])) ? stores : null;
}

let stores: Record<CorpusFormat, string> | null = null;
if (wants('ingest')) {
  const profileDir = options.profile ? join(WORK_ROOT, 'profiles') : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const out = await timed('ingest', budgetOf('ingest'), () => ingestPhase(manifest, budgetOf('ingest'), { profileDir }));
  if (out) {
    figures.push(...out.figures);
    stores = out.stores;
    duckdbVersion = out.duckdbVersion;
    if (profileDir) collectProfiles(profileDir);
  } else figures.push(failedFigure('ingest', 'ingest', 'ingest throughput', '≥ 1.0 / ≥ 0.4', 'the ingest phase failed (see stderr)'));
} else {
  stores = existingStores();
}

function collectProfiles(dir: string): void {
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const rows = summarise(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    profiles[file] = [...rows].sort((a, b) => b.selfPct - a.selfPct).slice(0, 15).map((r) => ({ ...r, selfPct: round(r.selfPct, 1), totalPct: round(r.totalPct, 1) }));
    step(`profile ${file}: ${profiles[file].slice(0, 6).map((r) => `${r.name} ${r.selfPct}%`).join(', ')}`);
  }
}

if (wants('queries')) {
  if (!stores) figures.push(pendingFigure('queries', 'queries', 'tree/why/timings on 1M tool calls', '< 200 ms', 'needs the stores of the ingest phase: run it first'));
  else {
    const sources = FORMATS.map((f) => (stores as Record<CorpusFormat, string>)[f]);
    const out = await timed('queries', budgetOf('queries'), () => queriesPhase(sources, budgetOf('queries')));
    figures.push(...(out ?? [failedFigure('queries', 'queries', 'tree/why/timings on 1M tool calls', '< 200 ms', 'the queries phase failed (see stderr)')]));
  }
}

if (wants('tui')) {
  const out = await timed('tui', budgetOf('tui'), async () => tuiPhase(await longSessionStore(options.seed, step), await sampleStore(), options.keys));
  figures.push(...(out ?? [failedFigure('tui', 'tui', 'TUI first frame and key → frame', '< 30 ms', 'the TUI phase failed (see stderr)')]));
}

if (wants('replay')) {
  const out = await timed('replay', budgetOf('replay'), () => replayPhase(options.replaySteps));
  figures.push(...(out ?? [failedFigure('replay', 'replay', 'replay step overhead', '≥ 10× / ≤ 1.5×', 'the replay phase failed (see stderr)')]));
}

if (wants('shapes')) {
  const left = Math.max(120, Math.round(options.budgetSeconds - elapsedSeconds() - 10));
  const budget = new Budget(left);
  const out = await timed('shapes', budget, () => shapesPhase(options.scale, options.seed, GENERATOR_VERSION, budget, options.keepLarge));
  figures.push(...(out ?? [failedFigure('memory.shapes', 'memory', 'peak RSS on the shapes that break readers', '< 400 MB', 'the shapes phase failed (see stderr)')]));
}

const order: Figure['group'][] = ['ingest', 'memory', 'queries', 'replay', 'tui'];
figures.sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group));
const total = round(elapsedSeconds(), 1);
console.log(renderTable(figures));
console.log(`\n${figures.filter((f) => f.met === true).length} goals met, ${figures.filter((f) => f.met === false).length} missed, ${figures.filter((f) => f.status !== 'measured').length} pending/failed; ${total} s in all (${Object.entries(phaseSeconds).map(([k, v]) => `${k} ${v} s`).join(', ')})`);
if (options.write) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const results = {
    machine: { ...machineInfo(duckdbVersion), loadAverageAtStart: loadAtStart },
    options: { ...options },
    corpus: corpusSummary(manifest, reused),
    totalSeconds: total,
    phaseSeconds,
    figures,
    profiles,
  };
  const target = join(RESULTS_DIR, options.phases.length === 5 ? 'latest.json' : 'partial.tmp');
  writeFileSync(target, `${JSON.stringify(results, null, 2)}\n`);
  step(`wrote ${target}`);
}

function corpusSummary(corpus: CorpusManifest, wasReused: boolean): unknown {
  return {
    params: corpus.params,
    reused: wasReused,
    generatedSeconds: round(corpus.generatedMs / 1000, 1),
    formats: FORMATS.map((f) => {
      const c = corpus.formats[f];
      return { format: f, bytes: c.bytes, files: c.files, sessions: c.sessions.length, messages: c.messages, toolCalls: c.toolCalls, longestSession: Math.max(...c.sessions.map((s) => s.messages)) };
    }),
  };
}
// Native handles (DuckDB, ssh2) of finished phases can keep the loop alive: leave explicitly.
exitAfterFlush(0);
