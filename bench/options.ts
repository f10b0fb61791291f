/**
 * `npm run bench -- [options]`. The scale can also come from the environment (RETRACE_BENCH_SCALE)
 * so CI can shrink the run without editing the script.
 */
export const PHASES = ['ingest', 'queries', 'tui', 'replay', 'shapes'] as const;
export type PhaseName = (typeof PHASES)[number];

export interface BenchOptions {
  /** 1: the real archive's 3,142 files (1.24 GiB) and the full-size shapes; 0.1: a tenth. */
  scale: number;
  seed: string;
  phases: PhaseName[];
  /** Whole-run budget in seconds; phases get shares of it. */
  budgetSeconds: number;
  keys: number;
  replaySteps: number;
  profile: boolean;
  write: boolean;
  keepLarge: boolean;
}

export const USAGE = `npm run bench -- [options]
  --scale N          corpus and shapes scale (default 1: 3,142 files / 1.24 GiB, a 700 MB and a
                     1.5 GiB transcript…; 0.1 for a quick run; or $RETRACE_BENCH_SCALE)
  --only LIST        phases to run, comma-separated: ${PHASES.join(',')}
  --seed S           corpus seed (default retrace-bench)
  --budget S         whole-run budget in seconds (default 2400 × scale, at least 600)
  --keys N           scripted TUI keys (default 500)
  --replay-steps N   steps per replay mode (default 60)
  --profile          CPU-profile retrace's ingest runs (node --cpu-prof) and summarise where the time goes
  --no-write         do not write bench/results/latest.json
  --keep-large       keep the shapes' inputs even when disk is short`;

function positive(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not ${text}`);
  return value;
}

export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const valueOf = (name: string): string | undefined => {
    const index = argv.indexOf(name);
    if (index < 0) return undefined;
    const value = argv[index + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value\n${USAGE}`);
    return value;
  };
  const known = new Set(['--scale', '--only', '--seed', '--budget', '--keys', '--replay-steps', '--profile', '--no-write', '--keep-large', '--help']);
  for (const arg of argv) if (arg.startsWith('--') && !known.has(arg)) throw new Error(`unknown option ${arg}\n${USAGE}`);
  const only = valueOf('--only');
  const phases = only ? only.split(',').map((p) => p.trim()) : [...PHASES];
  for (const phase of phases) if (!(PHASES as readonly string[]).includes(phase)) throw new Error(`unknown phase ${phase}; phases: ${PHASES.join(', ')}`);
  const scale = positive('--scale', valueOf('--scale') ?? env['RETRACE_BENCH_SCALE'], 1);
  return {
    scale,
    seed: valueOf('--seed') ?? 'retrace-bench',
    phases: phases as PhaseName[],
    budgetSeconds: positive('--budget', valueOf('--budget'), Math.max(600, Math.round(2400 * scale))),
    keys: positive('--keys', valueOf('--keys'), 500),
    replaySteps: positive('--replay-steps', valueOf('--replay-steps'), 60),
    profile: argv.includes('--profile'),
    write: !argv.includes('--no-write'),
    keepLarge: argv.includes('--keep-large'),
  };
}
