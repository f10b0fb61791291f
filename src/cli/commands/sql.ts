import type { Command } from 'commander';
import { DB_OPTION_HELP, LAKE_OPTION_HELP, examples, type CliContext } from '../context.js';
import { resolveStoreLocation } from '../db-path.js';
import type { StoreLocation } from '../../store/location.js';
import { withReader } from '../../store/location.js';
import { JobFailedError } from '../errors.js';
import { renderCsv } from '../format/csv.js';
import { renderTable } from '../format/table.js';
import type { Output } from '../output.js';

export interface SqlOptions {
  db: StoreLocation;
  json: boolean;
  csv: boolean;
}

/** Runs one query read-only: the store cannot be changed through `retrace sql`. */
export async function sqlCommand(query: string, options: SqlOptions, output: Output): Promise<number> {
  return withReader(options.db, async (db) => {
    let result;
    try {
      result = await db.query(query);
    } catch (error) {
      throw new JobFailedError(`query failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (options.json) output.json(result.rows);
    else if (options.csv) output.line(renderCsv(result.columns, result.rows));
    else {
      output.line(renderTable(result.columns, result.rows, { maxCellWidth: Math.max(30, Math.floor(output.columns / 2)) }));
      output.line(`(${result.rows.length} row${result.rows.length === 1 ? '' : 's'})`);
    }
    return 0;
  });
}

export function registerSqlCommand(program: Command, ctx: CliContext): void {
  program
    .command('sql')
    .summary('run a read-only SQL query')
    .description('Run one read-only SQL query over the store (tables: sources, sessions, messages, tool_calls, …).')
    .argument('<query>', 'a DuckDB SQL query')
    .option('--db <file>', DB_OPTION_HELP)
    .option('--lake <dir>', LAKE_OPTION_HELP)
    .option('--json', 'print an array of row objects')
    .option('--csv', 'print CSV with a header')
    .addHelpText('after', examples([
      'retrace sql "SELECT tool, count(*) FROM tool_calls GROUP BY ALL ORDER BY 2 DESC"',
      'retrace sql "SELECT command, duration_ms FROM tool_calls WHERE timed_out" --json',
    ]))
    .action(async (query: string, opts: { db?: string; lake?: string; json?: boolean; csv?: boolean }) => {
      ctx.setExitCode(await sqlCommand(query, { db: resolveStoreLocation(opts), json: Boolean(opts.json), csv: Boolean(opts.csv) }, ctx.output));
    });
}
