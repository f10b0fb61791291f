import type { Command } from 'commander';
import { DB_OPTION_HELP, examples, type CliContext } from '../context.js';
import { resolveDbPath } from '../db-path.js';
import { UsageError } from '../errors.js';
import { renderTable } from '../format/table.js';
import { formatDuration } from '../../core/units.js';
import type { Output } from '../output.js';
import { withDatabase, type Database } from '../../store/database.js';
import { planSchema, recordedCallOf, type Plan } from '../../core/plan/schema.js';
import { renderRunMarkdown, type RecordedOutput } from '../../replay/report/run-markdown.js';
import { tableExists } from '../../store/view-queries.js';
import { listRuns, loadRun, RunLookupError, type StoredRun } from '../../store/run-queries.js';
import { describeHosts } from '../../core/run/fleet.js';

/** The plan a run ran, and what the record holds for each of its steps' calls (for the Markdown report). */
async function reportInputs(db: Database, run: StoredRun): Promise<{ plan: Plan | null; recorded: Map<string, RecordedOutput> }> {
  const parsed = planSchema.safeParse(JSON.parse(run.plan_json || '{}'));
  const plan = parsed.success ? parsed.data : null;
  const recorded = new Map<string, RecordedOutput>();
  if (!plan || !run.session_id) return { plan, recorded };
  const ids = [...new Set(plan.steps.flatMap((step) => step.roles.map((role) => recordedCallOf(step, role).call_id)).filter((id): id is string => id !== null))];
  if (ids.length === 0 || !(await tableExists(db, 'tool_calls'))) return { plan, recorded };
  const rows = await db.all(`SELECT call_id, exit_code, output FROM tool_calls WHERE session_id = ? AND call_id IN (${ids.map(() => '?').join(', ')})`, [run.session_id, ...ids]);
  for (const row of rows) recorded.set(String(row['call_id']), { exit_code: row['exit_code'] === null ? null : Number(row['exit_code']), output: row['output'] === null ? null : String(row['output']) });
  return { plan, recorded };
}

export async function runsCommand(reference: string | undefined, options: { db: string; json: boolean; format?: string }, output: Output): Promise<number> {
  if (options.format !== undefined && options.format !== 'text' && options.format !== 'markdown') throw new UsageError(`--format ${options.format}: one of text, markdown`);
  if (options.format === 'markdown' && !reference) throw new UsageError('--format markdown reports one run: name it (retrace runs RUN --format markdown)');
  return withDatabase(options.db, { readOnly: true }, async (db) => {
    if (reference) {
      let run;
      try {
        run = await loadRun(db, reference);
      } catch (error) {
        if (error instanceof RunLookupError) throw new UsageError(error.message);
        throw error;
      }
      if (options.format === 'markdown') {
        const { plan, recorded } = await reportInputs(db, run);
        output.line(renderRunMarkdown(run, plan, recorded).trimEnd());
        return 0;
      }
      const { step_rows: steps, plan_json: _plan, ...summary } = run;
      if (options.json) {
        output.json({ run: summary, steps });
        return 0;
      }
      output.line(`${run.id}  ${run.mode} ${run.status}  replay of ${run.session_title ?? run.session_id ?? '?'}  (${run.plan ?? ''})`);
      output.line(`hosts: ${describeHosts(run.hosts) || '—'}`);
      output.line('');
      output.line(
        renderTable(
          ['#', 'step', 'role', 'host', 'status', 'exit', 'took', 'verdict', 'detail'],
          steps.map((s) => ({
            '#': s.step_index + 1,
            step: s.attempt > 1 ? `${s.step_id} (attempt ${s.attempt})` : s.step_id,
            role: s.role,
            host: s.host ?? '',
            status: s.status,
            exit: s.exit_code ?? '',
            took: s.status === 'planned' ? '' : formatDuration(s.duration_ms),
            verdict: s.verdict ?? '',
            detail: s.detail ?? '',
          })),
          { maxCellWidth: 60, alignRight: new Set(['#', 'exit', 'took']) },
        ),
      );
      return 0;
    }
    const runs = await listRuns(db);
    if (options.json) {
      output.json(runs);
      return 0;
    }
    if (runs.length === 0) {
      output.line('No runs yet: `retrace replay PLAN` records a dry run, `--live` a live one.');
      return 0;
    }
    output.line(
      renderTable(
        ['id', 'session', 'mode', 'status', 'started', 'steps', 'diverged'],
        runs.map((r) => ({ ...r, session: r.session_id, started: r.started_at?.replace('T', ' ').slice(0, 19) ?? '' })),
        { maxCellWidth: 40, alignRight: new Set(['steps', 'diverged']) },
      ),
    );
    return 0;
  });
}

export function registerRunsCommand(program: Command, ctx: CliContext): void {
  program
    .command('runs')
    .summary('list replay runs (dry and live), or the steps of one')
    .description(
      'List the replay runs in the store: mode (dry|live), status (running, ok, failed, aborted, interrupted; abandoned ' +
        'when its process died mid-run), step executions and how many diverged from the record. With RUN, its steps.',
    )
    .argument('[run]', 'a run id or id prefix: show its steps')
    .option('--db <file>', DB_OPTION_HELP)
    .option('--json', 'print an array of {id, session_id, plan, mode, status, started_at, ended_at, steps, diverged} (with RUN: {run, steps})')
    .option('--format <format>', 'with RUN: text (default) or markdown (plan, hosts, each step per host, each divergence with the recorded and the actual line)')
    .addHelpText('after', examples(['retrace runs', 'retrace runs --json | jq ".[] | select(.diverged > 0)"', 'retrace runs run_20260226', 'retrace runs run_20260226 --format markdown > ticket.md']))
    .action(async (run: string | undefined, opts: { db?: string; json?: boolean; format?: string }) => {
      ctx.setExitCode(await runsCommand(run, { db: resolveDbPath(opts.db), json: Boolean(opts.json), format: opts.format }, ctx.output));
    });
}
