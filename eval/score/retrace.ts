// The thin I/O edge of the scorer: runs the BUILT retrace CLI on a transcript in a temp store and
// reads back the tree, the timings and the plan, validated with zod (they are another program's
// output, so a changed shape fails here with a clear message instead of scoring garbage).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

const TreeCandidate = z.looseObject({
  name: z.string(),
  kind: z.string().optional(),
  verdict: z.string(),
  reason: z.string().nullable().optional(),
});

const TreeJson = z.looseObject({
  session: z.string(),
  goal: z.string().nullable().optional(),
  candidates: z.array(TreeCandidate),
  pivots: z.array(z.looseObject({ from: z.string(), to: z.string(), message_ordinal: z.number().nullable().optional() })),
});

const TimingRowSchema = z.looseObject({
  session: z.string().nullable().optional(),
  kind: z.string(),
  subject: z.string().nullable().optional(),
  host: z.string().nullable().optional(),
  attempt: z.number().optional(),
  outcome: z.string(),
});

const TimingsJson = z.looseObject({ attempts: z.array(TimingRowSchema) });

const PlanYaml = z.looseObject({
  roles: z.record(z.string(), z.looseObject({
    recorded_address: z.string().nullable().optional(),
    recorded_hostname: z.string().nullable().optional(),
  }).nullable()).nullable().optional(),
  variables: z.record(z.string(), z.looseObject({ value: z.unknown().optional() }).nullable()).nullable().optional(),
  steps: z.array(z.looseObject({
    id: z.string().optional(),
    command: z.string(),
    roles: z.array(z.string()).nullable().optional(),
    workdir: z.string().nullable().optional(),
    file: z.looseObject({ path: z.string() }).nullable().optional(),
    source: z.looseObject({ call_id: z.string().nullable().optional() }).nullable().optional(),
  })).default([]),
});

/**
 * The steps labels describe: recorded shell commands. A step that writes a file the agent wrote
 * with its edit tools (labels never score those, eval/README.md) and a step the plan adds that the
 * record never ran (the guarded removal of a stopped container before `docker run --name`) are
 * not matched against labels.
 */
export function scoredSteps<T extends { file?: unknown; source?: { call_id?: string | null } | null }>(steps: readonly T[]): T[] {
  return steps.filter((step) => (step.file === undefined || step.file === null) && !(step.source && step.source.call_id === null));
}

/**
 * A plan's commands name its variables (`{{ image }}`); their values are part of what the step does.
 * A step with a working directory runs there (`cd DIR` before its command, as the replay renders
 * it), so the directory is part of what is scored: labels name it where the record ran relative paths.
 */
export function substituteVariables(plan: z.infer<typeof PlanYaml>): RetracePlan {
  const values = new Map<string, string>();
  for (const [name, variable] of Object.entries(plan.variables ?? {})) {
    if (variable !== null && (typeof variable.value === 'string' || typeof variable.value === 'number')) values.set(name, String(variable.value));
  }
  const fill = (text: string): string => text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, name: string) => values.get(name) ?? whole);
  const steps = scoredSteps(plan.steps).map((step) => ({ ...step, command: `${step.workdir ? `cd ${fill(step.workdir)} && ` : ''}${fill(step.command)}` }));
  return { roles: plan.roles, steps, dryRun: null };
}

const SessionsJson = z.array(z.looseObject({ id: z.string(), parent_id: z.string().nullable().optional(), agent: z.string().optional() }));

export type RetraceTree = z.infer<typeof TreeJson>;
export type TimingRow = z.infer<typeof TimingRowSchema>;
export type RetracePlan = {
  roles?: Record<string, { recorded_address?: string | null; recorded_hostname?: string | null } | null> | null;
  steps: { command: string; roles?: string[] | null }[];
  /** Whether `retrace replay PLAN` (a dry run) validated and rendered the plan; null or absent when not tried. */
  dryRun?: boolean | null;
};

export interface RetraceRun {
  sessions: string[];
  trees: RetraceTree[];
  timings: TimingRow[];
  plans: (RetracePlan | null)[];
  /** Problems worth showing (ingest errors, a plan that could not be made). */
  notes: string[];
}

export class RetraceStore {
  private readonly dir: string;
  private readonly db: string;

  constructor(private readonly cli: string) {
    this.dir = mkdtempSync(join(tmpdir(), 'retrace-eval-'));
    this.db = join(this.dir, 'eval.duckdb');
  }

  private run(args: string[]): { stdout: string; ok: boolean; stderr: string } {
    try {
      // Built-in rules only: the user's ~/.config/retrace/rules must not change the scores.
      const env = { ...process.env, HOME: this.dir, XDG_CONFIG_HOME: join(this.dir, 'config'), RETRACE_DB: this.db, NO_COLOR: '1' };
      const stdout = execFileSync(process.execPath, [this.cli, ...args, '--db', this.db], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
      return { stdout, ok: true, stderr: '' };
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; status?: number };
      return { stdout: failed.stdout ?? '', ok: false, stderr: `${failed.stderr ?? ''}`.trim() || `exit ${failed.status ?? '?'}` };
    }
  }

  private json<T>(what: string, args: string[], schema: z.ZodType<T>): T {
    const result = this.run(args);
    if (!result.ok) throw new Error(`retrace ${what} failed: ${result.stderr.split('\n')[0]}`);
    const parsed = schema.safeParse(JSON.parse(result.stdout));
    if (!parsed.success) throw new Error(`retrace ${what}: unexpected JSON (${parsed.error.issues[0]?.message} at ${parsed.error.issues[0]?.path.join('.')})`);
    return parsed.data;
  }

  /** Ingests the files (databases are copied first: opening them leaves -wal/-shm files beside them). */
  ingest(files: string[], notes: string[]): void {
    const paths = files.map((file, index) => {
      if (!file.endsWith('.db')) return file;
      const copyDir = join(this.dir, `db-${index}`);
      mkdirSync(copyDir, { recursive: true });
      const copy = join(copyDir, basename(file));
      copyFileSync(file, copy);
      return copy;
    });
    const report = this.json('ingest', ['ingest', ...paths, '--json'], z.looseObject({ errors: z.array(z.unknown()).default([]) }));
    if (report.errors.length > 0) notes.push(`ingest reported ${report.errors.length} problem(s): ${JSON.stringify(report.errors[0])}`);
  }

  topSessions(): string[] {
    return this.json('sessions', ['sessions', '--json'], SessionsJson).filter((session) => !session.parent_id).map((session) => session.id);
  }

  read(sessions: string[], notes: string[]): RetraceRun {
    const trees = sessions.map((session) => this.json('tree', ['tree', session, '--format', 'json'], TreeJson));
    const timings = sessions.flatMap((session) => this.json('timings', ['timings', '--kind', 'all', '--session', session, '--limit', '10000', '--json'], TimingsJson).attempts);
    const plans = sessions.map((session) => {
      const out = join(this.dir, `plan-${sessions.indexOf(session)}.yaml`);
      const result = this.run(['plan', session, '-o', out]);
      if (!result.ok) {
        notes.push(`plan: ${result.stderr.split('\n')[0]}`);
        return null;
      }
      const parsed = PlanYaml.safeParse(parseYaml(readFileSync(out, 'utf8')));
      if (!parsed.success) throw new Error(`retrace plan: unexpected YAML (${parsed.error.issues[0]?.message})`);
      // Every plan must replay: its dry run validates it and renders every step for every role.
      const dry = this.run(['replay', out]);
      if (!dry.ok) notes.push(`dry run of the plan failed: ${dry.stderr.trim().split('\n').slice(0, 4).join(' ')}`);
      return { ...substituteVariables(parsed.data), dryRun: dry.ok };
    });
    return { sessions, trees, timings, plans, notes };
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
