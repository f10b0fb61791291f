// `npm run eval`: ingests every rendered story (and every label-only entry in eval/real/) with the
// BUILT retrace CLI into a temp store, reads back its tree, timings and plan, scores them against
// the labels, prints the tables and writes bench/results/eval.json. Goals are reported, not
// asserted: the exit code is 0 unless the corpus itself is broken (2) or stale (2).
//
//   npx tsx eval/score.ts --help   (the options are in USAGE below)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CorpusError, loadRealEntries, loadSets, loadStories } from './load.js';
import { EVAL_DIR, renderAll } from './render/main.js';
import type { Labels, Story } from './schema.js';
import { scoreSession } from './score/metrics.js';
import { GOALS, groupBy, means, pooled, renderReport, type EntryResult } from './score/report.js';
import { RetraceStore, type RetraceRun } from './score/retrace.js';

const ROOT = dirname(EVAL_DIR);
const CLI = join(ROOT, 'bin', 'retrace.js');

interface Job {
  id: string;
  source: 'story' | 'real';
  set: string;
  agent: string;
  version: string | null;
  frameworks: string[];
  shapes: string[];
  labels: Labels;
  files: string[];
  /** The session to score; null: every top-level session of the transcript. */
  session: string | null;
}

function storyJobs(): Job[] {
  const { entries, problems } = renderAll(true);
  if (problems.length > 0) {
    throw new CorpusError([...problems, 'eval/transcripts is stale: run `npx tsx eval/render/main.ts` and commit the result']);
  }
  const stories = new Map<string, Story>(loadStories(join(EVAL_DIR, 'stories')).map(({ story }) => [story.id, story]));
  const sets = loadSets(join(EVAL_DIR, 'sets.yaml'), [...stories.keys()], loadRealEntries(join(EVAL_DIR, 'real')).map(({ id }) => id));
  return entries.map((entry) => {
    const story = stories.get(entry.id)!;
    return {
      id: entry.id, source: 'story', set: sets.get(entry.id)!, agent: entry.agent, version: entry.version, frameworks: story.frameworks, shapes: story.shapes,
      labels: story.labels, files: entry.files.map((file) => join(EVAL_DIR, file)), session: entry.session_id,
    } satisfies Job;
  });
}

function realJobs(): Job[] {
  const real = loadRealEntries(join(EVAL_DIR, 'real'));
  const stories = loadStories(join(EVAL_DIR, 'stories')).map(({ story }) => story.id);
  const sets = loadSets(join(EVAL_DIR, 'sets.yaml'), stories, real.map(({ id }) => id));
  return real.map(({ file, entry, id }) => {
    const { transcript, session, agent, frameworks, shapes, ...labels } = entry;
    const path = resolve(dirname(file), transcript);
    if (!existsSync(path)) throw new CorpusError([`${file}:1: transcript ${transcript} does not exist (${path})`]);
    return {
      id, source: 'real', set: sets.get(id) ?? 'real', agent: agent ?? 'unknown', version: null, frameworks, shapes,
      labels: labels satisfies Labels, files: [path], session: session ?? null,
    } satisfies Job;
  });
}

/** Several top-level sessions in one transcript are scored together: their candidates, pivots and plans add up. */
function merged(run: RetraceRun): { tree: RetraceRun['trees'][number]; plan: RetraceRun['plans'][number] } {
  const [first] = run.trees;
  const tree = {
    session: run.sessions.join(','), goal: first?.goal ?? null,
    candidates: run.trees.flatMap((t) => t.candidates), pivots: run.trees.flatMap((t) => t.pivots),
  };
  const steps = run.plans.flatMap((plan) => plan?.steps ?? []);
  const roles = Object.assign({}, ...run.plans.map((plan) => plan?.roles ?? {}));
  const tried = run.plans.filter((plan) => plan !== null && plan.dryRun !== null);
  const dryRun = tried.length === 0 ? null : tried.every((plan) => plan?.dryRun === true);
  return { tree, plan: run.plans.every((plan) => plan === null) ? null : { roles, steps, dryRun } };
}

function scoreJob(job: Job): EntryResult {
  const store = new RetraceStore(CLI);
  const notes: string[] = [];
  const base = { id: job.id, source: job.source, set: job.set, agent: job.agent, version: job.version, frameworks: job.frameworks, shapes: job.shapes, deploys: job.labels.deploys, notes };
  try {
    store.ingest(job.files, notes);
    const tops = store.topSessions();
    let sessions = tops;
    if (job.session !== null) {
      const wanted = job.session;
      sessions = tops.filter((id) => id === wanted || id.startsWith(wanted));
      if (sessions.length === 0) {
        notes.push(`session ${wanted} not among ${tops.join(', ') || 'no sessions'}; scoring those instead`);
        sessions = tops;
      }
    }
    if (sessions.length === 0) throw new Error('retrace found no session in the transcript');
    const run = store.read(sessions, notes);
    const { tree, plan } = merged(run);
    return { ...base, score: scoreSession(job.labels, tree, run.timings, plan), error: null };
  } catch (error) {
    return { ...base, score: null, error: error instanceof Error ? error.message : String(error) };
  } finally {
    store.close();
  }
}

const USAGE = `npx tsx eval/score.ts [--only SUBSTRING] [--set NAME] [--out FILE]
  --only SUBSTRING  score only the entries whose id contains SUBSTRING
  --set NAME        score only the entries of one set of eval/sets.yaml (development, fresh-5, real …)
  --out FILE        write the JSON there instead of bench/results/eval.json
`;

const OPTIONS = {
  only: { type: 'string' },
  set: { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function main(): number {
  let options: { only?: string; set?: string; out?: string; help?: boolean };
  try {
    // strict: an unknown or value-less option is a mistake, told before a five-minute run
    options = parseArgs({ options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    process.stderr.write(`eval: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const { only, set } = options;
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) {
    process.stderr.write('eval: the CLI is not built; run `npm run eval` (it builds first) or `npm run build`\n');
    return 2;
  }
  let jobs: Job[];
  try {
    jobs = [...storyJobs(), ...realJobs()];
  } catch (error) {
    if (error instanceof CorpusError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (only !== undefined) jobs = jobs.filter((job) => job.id.includes(only));
  if (set !== undefined) jobs = jobs.filter((job) => job.set === set);
  if (jobs.length === 0) {
    process.stderr.write(`eval: no transcript matches${only === undefined ? '' : ` --only ${only}`}${set === undefined ? '' : ` --set ${set}`}\n`);
    return 2;
  }
  const results: EntryResult[] = [];
  for (const job of jobs) {
    process.stderr.write(`eval: ${job.id} …\n`);
    results.push(scoreJob(job));
  }
  process.stdout.write(renderReport(results));
  const overall = means(results);
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const out = options.out ?? join(ROOT, 'bench', 'results', 'eval.json');
  const document = {
    generated_at: new Date().toISOString(),
    retrace_version: version,
    transcripts: results.length,
    overall,
    pooled_candidates: pooled(results),
    goals: GOALS.map((goal) => ({ ...goal, value: overall[goal.metric], met: overall[goal.metric] === null ? null : overall[goal.metric]! >= goal.target })),
    by_set: groupBy(results, (entry) => [entry.set]),
    by_framework: groupBy(results, (entry) => entry.frameworks),
    by_shape: groupBy(results, (entry) => entry.shapes),
    by_agent: groupBy(results, (entry) => [entry.agent]),
    entries: results,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
  process.stderr.write(`eval: wrote ${out}\n`);
  return 0;
}

process.exitCode = main();
