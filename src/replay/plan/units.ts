import type { ActionKind } from '../../query/classify/index.js';
import { isDestructiveArgv } from './destructive.js';
import { leavesOf, type Leaf } from './leaves.js';
import { bookkeeping, leafEffect, redirectTargets } from './lookups.js';
import type { RecordedAction, RecordedCall } from './recorded.js';
import type { Segment } from './segments.js';

/**
 * A segment read for planning: the simple commands it ran (where, in which directory), what they
 * did to the machine (only looked, checked a service, changed something, or only touched scratch
 * files and notes), how it ended, and the kind the classifier gave it. Pure.
 */

export type Effect = 'lookup' | 'check' | 'change' | 'scratch' | 'bookkeeping' | 'loadtest' | 'benchmark';

export interface Unit {
  segment: Segment;
  call: RecordedCall;
  /** Position among all units, in the order they ran. */
  order: number;
  /** Where it started. */
  cwd: string | null;
  leaves: Leaf[];
  /** The leaves that change the machine. */
  changes: Leaf[];
  effect: Effect;
  /** The action that names the step, by priority. */
  primary: RecordedAction | null;
  /** The record says it did not work (its exit, a timeout, a failure its output shows). */
  failed: boolean;
  /** It worked, but a check at its end failed (a service still loading): its exit is not to be expected. */
  trailingCheckFailed: boolean;
}

/** When a segment holds several actions, the one that names the step. */
const PRIORITY: readonly ActionKind[] = ['serve', 'cluster', 'download', 'pull', 'install', 'build', 'start', 'stop', 'other', 'health', 'probe', 'inspect', 'fetch', 'search'];
const CHECK_KINDS: ReadonlySet<ActionKind> = new Set(['health', 'inspect', 'probe', 'fetch', 'search']);
const DEPLOY_KINDS: ReadonlySet<ActionKind> = new Set(['serve', 'start', 'cluster', 'pull', 'download', 'install', 'build', 'stop']);
/** Kinds of action that start something that keeps running (a server, a service, a cluster). */
export const START_KINDS: ReadonlySet<string> = new Set(['serve', 'start', 'cluster']);
const SCRATCH = /^\/(?:tmp|var\/tmp|dev)(?:\/|$)/;

function primaryOf(actions: readonly RecordedAction[]): RecordedAction | null {
  for (const kind of PRIORITY) {
    const action = actions.find((a) => a.kind === kind);
    if (action) return action;
  }
  return null;
}

/** A cluster check: `ray status` and the like, which look but decide whether the cluster is up. */
export function isClusterCheck(unit: Pick<Unit, 'segment' | 'changes'>): boolean {
  return unit.changes.length === 0 && unit.segment.actions.some((a) => a.kind === 'cluster');
}

/** Touches only /tmp: a compile test, a request body written for a curl. */
function scratchLeaf(leaf: Leaf): boolean {
  const { command } = leaf;
  // A request whose answer is saved in /tmp (`curl … -o /tmp/r.json`, run in parallel too).
  if (/^(?:curl|wget)$/.test(command.program)) {
    const out = command.argv.findIndex((w) => w === '-o' || w === '--output' || w === '-O' || w === '--output-document');
    return out > 0 && SCRATCH.test(command.argv[out + 1] ?? '');
  }
  if (command.background || command.dockerRun) return false;
  const targets = redirectTargets(command);
  const inScratch = leaf.cwd !== null && SCRATCH.test(leaf.cwd);
  if (targets.length > 0 && targets.every((t) => SCRATCH.test(t) || (inScratch && !t.startsWith('/') && !t.startsWith('~')))) return true;
  if (command.pythonBody !== null) return [...command.pythonBody.matchAll(/['"](\/[^'"]+)['"]/g)].every((m) => SCRATCH.test(m[1] ?? ''));
  const paths = command.argv.slice(1).filter((word) => word.startsWith('/') || word.startsWith('~'));
  return inScratch && paths.every((path) => SCRATCH.test(path) || path === command.argv[0]);
}

/** Requests in a loop or in parallel: a load test or a benchmark, not the proof that a service is up. */
/** `xargs -P 8 sh -c 'curl …'`, `parallel curl …`: requests fanned out (the runner itself changes nothing). */
function fansOutRequests(leaf: Leaf): boolean {
  return /^(?:xargs|parallel)$/.test(leaf.command.program) && leaf.command.argv.some((word) => /(?:^|[\s'"(;|&])(?:curl|wget)\s/.test(` ${word} `)) && redirectTargets(leaf.command).length === 0;
}

function loadTest(leaves: readonly Leaf[]): boolean {
  if (leaves.some(fansOutRequests)) return true;
  const requests = leaves.filter((leaf) => /^(?:curl|wget|http|xh)$/.test(leaf.command.program));
  return requests.some((leaf) => leaf.command.background) || (requests.length > 0 && leaves.some((leaf) => /^(?:for|while|until|seq|parallel)$/.test(leaf.command.program) || (leaf.command.program === 'xargs' && leaf.command.argv.includes('-P'))));
}

/** A name that says benchmark: `llama-bench`, `trtllm-bench`, `benchmark_serving.py`, `sglang.bench_serving`. */
const BENCH_NAME = /(?:^|[-_./])bench(?:mark)?(?:s|ing)?(?:[-_.]|$)/i;

/**
 * A benchmark run: measures the deployment and changes nothing it needs (`llama-bench -m …`,
 * `vllm bench serve`, `python -m sglang.bench_serving`, `python benchmarks/benchmark_serving.py`).
 */
function benchmarkLeaf(leaf: Leaf): boolean {
  const { program, argv } = leaf.command;
  if (BENCH_NAME.test(program.split('/').pop() ?? program)) return true;
  const module = argv.indexOf('-m');
  if (/^python[\d.]*$/.test(program)) {
    if (module > 0 && BENCH_NAME.test(argv[module + 1] ?? '')) return true;
    if (module < 0 && /\.py$/.test(argv[1] ?? '') && BENCH_NAME.test(argv[1] ?? '')) return true;
  }
  // `vllm bench serve`, `python -m vllm.entrypoints.cli.main bench serve`: a bench subcommand.
  const words = argv.slice(module > 0 ? module + 2 : 1).filter((w) => !w.startsWith('-'));
  return words[0] === 'bench' && redirectTargets(leaf.command).length === 0;
}

function effectOf(segment: Segment, leaves: readonly Leaf[], changes: readonly Leaf[]): Effect {
  if (changes.length === 0) {
    if (!segment.actions.some((a) => a.kind === 'health' || a.kind === 'cluster')) return 'lookup';
    return loadTest(leaves) ? 'loadtest' : 'check';
  }
  if (changes.every(bookkeeping)) return 'bookkeeping';
  if (changes.every(benchmarkLeaf)) return 'benchmark';
  const deploys = segment.actions.some((a) => DEPLOY_KINDS.has(a.kind));
  if (!deploys && loadTest(leaves) && changes.every((leaf) => scratchLeaf(leaf) || fansOutRequests(leaf))) return 'loadtest';
  if (!deploys && changes.every(scratchLeaf)) return leaves.length > 0 && segment.actions.some((a) => a.kind === 'health') ? 'check' : 'scratch';
  return 'change';
}

function failureOf(segment: Segment, call: RecordedCall): { failed: boolean; trailingCheckFailed: boolean } {
  const failing = segment.actions.filter((a) => a.outcome === 'failed' || a.outcome === 'timeout');
  const stateFailed = failing.some((a) => !CHECK_KINDS.has(a.kind));
  if (call.notRun) return { failed: true, trailingCheckFailed: false };
  if (call.timedOut && segment.ownsExit) return { failed: true, trailingCheckFailed: false };
  if (stateFailed) return { failed: true, trailingCheckFailed: false };
  const exitFailed = segment.ownsExit && call.exitCode !== null && call.exitCode !== 0;
  if (!exitFailed) return { failed: false, trailingCheckFailed: false };
  // The exit is a check's (a health probe at the end while the server was still loading).
  const last = segment.actions.at(-1);
  if (failing.length > 0 && last && CHECK_KINDS.has(last.kind) && segment.actions.some((a) => !CHECK_KINDS.has(a.kind))) return { failed: false, trailingCheckFailed: true };
  return { failed: true, trailingCheckFailed: false };
}

export function unitOf(segment: Segment, cwd: string | null, order: number): Unit {
  const leaves = leavesOf(segment.command, cwd);
  const changes = leaves.filter((leaf) => leafEffect(leaf) === 'change');
  const effect = effectOf(segment, leaves, changes);
  return { segment, call: segment.call, order, cwd, leaves, changes, effect, primary: primaryOf(segment.actions), ...failureOf(segment, segment.call) };
}

/** Every change the unit makes is a stop or a removal (`docker rm`, `systemctl stop`, `pkill`, `rm -rf`). */
export function removesSomething(leaf: Leaf): boolean {
  return isDestructiveArgv(leaf.command.program, leaf.command.argv) || (leaf.command.program === 'systemctl' && /^(?:disable|stop)$/.test(leaf.command.argv[1] ?? ''));
}

export function onlyRemoves(unit: Unit): boolean {
  return unit.changes.length > 0 && unit.changes.every(removesSomething);
}
