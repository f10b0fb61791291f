import { hostname } from 'node:os';
import type { Command } from 'commander';
import { machineFromHostname, machineNameProblem } from '../../core/machine.js';
import { pushToLake, type PushSummary } from '../../store/lake/push.js';
import { DB_OPTION_HELP, examples, type CliContext } from '../context.js';
import { resolveDbPath } from '../db-path.js';
import { withDerivedSessions } from '../derived-store.js';
import { UsageError } from '../errors.js';
import { renderTable } from '../format/table.js';
import type { Output } from '../output.js';

export interface PushOptions {
  db: string;
  /** Labels rows the store holds without a machine; default: this host name. */
  machine?: string;
  json: boolean;
}

/**
 * `retrace push DIR`: the store's rows, derived ones included (their trees carry the fingerprint
 * of the rules they came from), appended to a lake folder. Sessions whose trees are stale are
 * derived in the store first, so the lake answers `tree`, `why` and `timings` without deriving.
 */
export async function pushCommand(dir: string, options: PushOptions, output: Output): Promise<number> {
  const problem = options.machine === undefined ? null : machineNameProblem(options.machine);
  if (problem) throw new UsageError(`--machine: ${problem}`);
  const machine = options.machine ?? machineFromHostname(hostname());
  const summary = await withDerivedSessions(output, options.db, async () => null, (db) => pushToLake(db, dir, machine));
  if (options.json) output.json(summary);
  else printSummary(summary, output);
  return 0;
}

function printSummary(summary: PushSummary, output: Output): void {
  output.line(
    `Pushed to ${summary.lake}: ${summary.files_written} file${summary.files_written === 1 ? '' : 's'} written ` +
      `(${summary.rows_written} rows), ${summary.files_unchanged} already there, ${summary.files_replaced} replaced`,
  );
  output.line();
  output.line(renderTable(['table', 'written', 'unchanged', 'replaced', 'rows written'], summary.tables.map((t) => ({
    table: t.table, written: t.written, unchanged: t.unchanged, replaced: t.replaced, 'rows written': t.rows_written,
  })), { alignRight: new Set(['written', 'unchanged', 'replaced', 'rows written']) }));
}

export function registerPushCommand(program: Command, ctx: CliContext): void {
  program
    .command('push')
    .summary('append the store to a shared Parquet lake (Hive-partitioned; idempotent)')
    .description(
      "Append the store's rows, derived tables included, to a lake: a folder of Parquet files laid out as " +
        'TABLE/agent=…/machine=…/month=…/part-….parquet, which `--lake DIR` reads back and Spark, Trino, ClickHouse or ' +
        'DuckDB read directly. Files are named by the digest of their rows: pushing again adds nothing; a session whose ' +
        'rows changed replaces its own files. Several machines may push to one shared folder at once (each file is ' +
        'written under a temporary name, then renamed). The store is only read (stale trees are derived first).',
    )
    .argument('<dir>', 'the lake folder (created if missing)')
    .option('--db <file>', DB_OPTION_HELP)
    .option('--machine <name>', 'the machine for rows the store holds without one (default: this host name)')
    .option('--json', 'print {lake, machine, tables:[{table, written, unchanged, replaced, rows_written}], files_written, …}')
    .addHelpText('after', examples([
      'retrace push /mnt/team/retrace-lake',
      'retrace sessions --lake /mnt/team/retrace-lake',
      'duckdb -c "SELECT machine, count(*) FROM read_parquet(\'/mnt/team/retrace-lake/sessions/*/*/*/*.parquet\', hive_partitioning=true) GROUP BY ALL"',
    ]))
    .action(async (dir: string, opts: { db?: string; machine?: string; json?: boolean }) => {
      ctx.setExitCode(await pushCommand(dir, { db: resolveDbPath(opts.db), machine: opts.machine, json: Boolean(opts.json) }, ctx.output));
    });
}
