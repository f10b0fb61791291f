import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Budget } from '../lib/budget.js';
import { runChild, runCommand } from '../lib/child.js';
import { benchScript, CLI, WORK_ROOT } from '../lib/paths.js';
import { step } from '../lib/progress.js';
import { figure, type Figure } from '../lib/results.js';
import { median, round } from '../lib/stats.js';
import type { BuildStoreResult } from './build-store-child.js';
import type { QueryChildResult, QueryTiming } from './query-child.js';
import { sampleStore } from './sample-store.js';

/**
 * `tree`, `why` and `timings` on a store of 1,000,000 tool calls, against the same queries on a
 * store holding only the bundled sample session: in-process through the query functions, and end
 * to end through the CLI (a fresh `node bin/retrace.js …` each time, as a user runs it).
 */

export const TOOL_CALLS_TARGET = 1_000_000;
const CANDIDATE = 'scitrera';
const CLI_RUNS = 3;

type QueryName = 'sessions' | 'tree' | 'why' | 'timings';

function cliArgs(query: QueryName, db: string, session: string): string[] {
  if (query === 'sessions') return [CLI, 'sessions', '--db', db];
  if (query === 'tree') return [CLI, 'tree', session, '--db', db];
  if (query === 'why') return [CLI, 'why', CANDIDATE, '--db', db];
  return [CLI, 'timings', '--kind', 'all', '--db', db];
}

async function cliMedian(query: QueryName, db: string, session: string): Promise<{ ms: number; runs: number[]; error: string | null }> {
  const runs: number[] = [];
  for (let i = 0; i < CLI_RUNS; i += 1) {
    const run = await runCommand(process.execPath, cliArgs(query, db, session), { timeoutMs: 120_000, env: { NO_COLOR: '1' } });
    if (run.code !== 0) return { ms: Number.NaN, runs, error: `exit ${run.code}: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}` };
    runs.push(run.wallMs);
  }
  return { ms: median(runs), runs, error: null };
}

export async function queriesPhase(sourceStores: readonly string[], budget: Budget): Promise<Figure[]> {
  const sample = await sampleStore();
  const sampleDb = sample.db;
  const sampleSession = sample.session;
  const bigDb = join(WORK_ROOT, 'million.duckdb');
  const built = await runChild<BuildStoreResult>(benchScript('queries/build-store-child.js'), [bigDb, String(TOOL_CALLS_TARGET), ...sourceStores], { timeoutMs: 10 * 60_000 });
  const store = built.result;
  step(`built a store of ${store.toolCalls} tool calls, ${store.messages} messages, ${store.sessions} sessions (${store.copies} renamed copies, ${round(store.bytes / 1e9, 2)} GB) in ${round(store.ms / 1000, 1)} s`);

  const small = (await runChild<QueryChildResult>(benchScript('queries/query-child.js'), [sampleDb, sampleSession, CANDIDATE], { timeoutMs: 120_000 })).result;
  const large = (await runChild<QueryChildResult>(benchScript('queries/query-child.js'), [bigDb, store.largestSession, CANDIDATE], { timeoutMs: 300_000 })).result;
  step(`in-process (warm): tree ${round(large.tree.warmMs)} ms, why ${round(large.why.warmMs)} ms, timings ${round(large.timings.warmMs)} ms on the big store`);

  const figures: Figure[] = [];
  const scale = `${round(store.toolCalls / 1e6, 2)}M tool calls`;
  for (const query of ['tree', 'why', 'timings'] as const) {
    const big: QueryTiming = large[query];
    const base: QueryTiming = small[query];
    figures.push(figure({
      id: `queries.${query}.in-process`,
      group: 'queries',
      title: `${query} in-process, ${scale}`,
      measured: { label: 'retrace', value: round(big.warmMs, 1), unit: 'ms' },
      baseline: { label: 'sample store', value: round(base.warmMs, 1), unit: 'ms' },
      ratioMeaning: 'big store ms ÷ sample-store ms (how much slower at scale)',
      ratio: round(big.warmMs / base.warmMs, 2),
      goal: '< 200 ms',
      met: big.warmMs < 200,
      notes: [`first call (cold) ${round(big.firstMs, 0)} ms vs ${round(base.firstMs, 0)} ms; ${big.rows} rows vs ${base.rows}; store open ${round(large.openMs, 0)} ms`],
    }));
  }
  // Start-up: `retrace --version` against Node starting and doing nothing, medians of 5 interleaved.
  const versionRuns: number[] = [];
  const nodeRuns: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    versionRuns.push((await runCommand(process.execPath, [CLI, '--version'], { timeoutMs: 60_000 })).wallMs);
    nodeRuns.push((await runCommand(process.execPath, ['-e', ''], { timeoutMs: 60_000 })).wallMs);
  }
  const floor = { wallMs: median(versionRuns) };
  figures.push(figure({
    id: 'queries.version.cli',
    group: 'queries',
    title: 'retrace --version (start-up)',
    measured: { label: 'retrace', value: round(floor.wallMs, 0), unit: 'ms', runs: versionRuns.map((v) => round(v, 0)) },
    baseline: { label: 'node -e ""', value: round(median(nodeRuns), 0), unit: 'ms', runs: nodeRuns.map((v) => round(v, 0)) },
    ratioMeaning: 'retrace ms ÷ bare Node start-up ms',
    ratio: round(floor.wallMs / median(nodeRuns), 2),
    goal: '< 100 ms',
    met: floor.wallMs < 100,
  }));
  step(`retrace --version ${round(floor.wallMs, 0)} ms, node -e "" ${round(median(nodeRuns), 0)} ms`);
  for (const query of ['sessions', 'tree', 'why', 'timings'] as const) {
    if (!budget.allows(5_000)) break;
    const big = await cliMedian(query, bigDb, store.largestSession);
    const base = await cliMedian(query, sampleDb, sampleSession);
    const error = big.error ?? base.error;
    figures.push(figure({
      id: `queries.${query}.cli`,
      group: 'queries',
      title: `retrace ${query} (CLI), ${scale}`,
      status: error ? 'failed' : 'measured',
      measured: { label: 'retrace', value: round(big.ms, 0), unit: 'ms', runs: big.runs.map((v) => round(v, 0)) },
      baseline: { label: 'sample store', value: round(base.ms, 0), unit: 'ms', runs: base.runs.map((v) => round(v, 0)) },
      ratioMeaning: 'big store ms ÷ sample-store ms',
      ratio: error ? null : round(big.ms / base.ms, 2),
      goal: '< 200 ms',
      met: error ? null : big.ms < 200,
      notes: error ? [error] : [`includes node start-up: \`retrace --version\` alone takes ${round(floor.wallMs, 0)} ms`],
    }));
    step(`CLI ${query}: ${round(big.ms, 0)} ms on the big store, ${round(base.ms, 0)} ms on the sample`);
  }
  // Rebuilt every run (it follows retrace's schema and derive rules): 2–3 GB not worth keeping.
  rmSync(bigDb, { force: true });
  rmSync(`${bigDb}.wal`, { force: true });
  return figures;
}
