import { InvalidArgumentError, type Command } from 'commander';
import { DB_OPTION_HELP, LAKE_OPTION_HELP, examples, type CliContext } from '../context.js';
import { resolveStoreLocation } from '../db-path.js';
import { isLake, type StoreLocation } from '../../store/location.js';
import { DERIVED_TABLES } from '../../store/derived-writer.js';
import { QueryError, StoreError } from '../../store/errors.js';
import { withDerivedSessions } from '../derived-store.js';
import { DEFAULT_USER_QUERY_LIMITS, leadingKeyword, looksLikeQuery, READ_ONLY_STATEMENTS, runUserQuery } from '../../store/user-query.js';
import { JobFailedError, UsageError } from '../errors.js';
import { renderCsv } from '../format/csv.js';
import { renderTable } from '../format/table.js';
import type { Output } from '../output.js';

export interface SqlOptions {
  db: StoreLocation;
  json: boolean;
  csv: boolean;
  allowFiles: boolean;
  timeoutSeconds: number;
  memoryLimit: string;
}

/**
 * DuckDB's message without its advice to change settings or install extensions, neither of which
 * `retrace sql` allows; the position of a syntax error (`LINE 1: …`) stays.
 */
function duckdbMessage(message: string): string {
  const paragraphs = message.split(/\n\s*\n/);
  return [paragraphs[0] ?? '', ...paragraphs.slice(1).filter((p) => /^LINE \d+:/.test(p))].join('\n').trim();
}

function explain(error: QueryError, query: string, options: SqlOptions): Error {
  switch (error.reason) {
    case 'refused': {
      const readsFile = /^Permission Error/.test(error.message);
      if (readsFile && looksLikeQuery(query) && isLake(options.db)) {
        return new UsageError(`refused: the query reads a file outside the lake (${error.message.split('\n')[0]}); a --lake query reads only the lake's folder`);
      }
      if (readsFile && looksLikeQuery(query)) {
        return new UsageError(
          `refused: the query reads a file other than the store (${error.message.split('\n')[0]}); pass --allow-files to read other files deliberately`,
        );
      }
      const what = readsFile ? `${leadingKeyword(query) ?? 'this statement'} is not a read-only query` : error.message.replace(/^LOAD\b/, leadingKeyword(query) ?? 'LOAD');
      return new UsageError(`refused: ${what}; \`retrace sql\` runs one statement of ${READ_ONLY_STATEMENTS}, and the store is read-only`);
    }
    case 'timeout':
      return new JobFailedError(`query ${error.message} (--timeout ${options.timeoutSeconds}); interrupted, nothing changed`);
    default:
      if (/Missing Extension Error/.test(error.message)) {
        return new JobFailedError(`query failed: ${error.message.split('\n')[0]} (\`retrace sql\` loads no extension, so it reads no URL)`);
      }
      return new JobFailedError(
        `query failed: ${duckdbMessage(error.message)}${/Out of Memory/i.test(error.message) ? ` (the limit is --memory-limit ${options.memoryLimit})` : ''}`,
      );
  }
}

/** A query that may read the derived tables (a mention in a string literal only costs a check). */
const DERIVED_TABLE = new RegExp(`\\b(?:${[...DERIVED_TABLES, 'derive_failures'].join('|')})\\b`, 'i');

/**
 * Sessions an interrupted ingest left underived (or derived by other rules) are derived before a
 * query reads the derived tables, by retrace itself through a short read-write open; the query
 * still runs read-only. A store another process holds open is queried as it is, with a warning.
 */
async function deriveFirst(db: string, output: Output): Promise<void> {
  try {
    await withDerivedSessions(output, db, async () => null, async () => undefined);
  } catch (error) {
    if (!(error instanceof StoreError) || !/locked/.test(error.message)) throw error;
    output.warn(`retrace: the derived tables may lag behind (${error.message})`);
  }
}

/**
 * Runs one read-only query: the store cannot be changed, no other file read (unless --allow-files),
 * no extension fetched, and a runaway query is stopped by --timeout and --memory-limit.
 */
export async function sqlCommand(query: string, options: SqlOptions, output: Output): Promise<number> {
  // A lake holds derived rows as pushed, with their rules fingerprint: nothing to derive there.
  if (!isLake(options.db) && DERIVED_TABLE.test(query)) await deriveFirst(options.db, output);
  let result;
  try {
    result = await runUserQuery(options.db, query, {
      allowFiles: options.allowFiles,
      timeoutMs: options.timeoutSeconds * 1000,
      memoryLimit: options.memoryLimit,
    });
  } catch (error) {
    throw error instanceof QueryError ? explain(error, query, options) : error;
  }
  if (options.json) output.json(result.rows);
  else if (options.csv) output.data(renderCsv(result.columns, result.rows));
  else {
    output.line(renderTable(result.columns, result.rows, { maxCellWidth: Math.max(30, Math.floor(output.columns / 2)) }));
    output.line(`(${result.rows.length} row${result.rows.length === 1 ? '' : 's'})`);
  }
  return 0;
}

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a number of seconds > 0');
  return n;
}

function memorySize(value: string): string {
  if (!/^\d+(?:\.\d+)?\s*(?:[KMGT]i?B)$/i.test(value.trim())) throw new InvalidArgumentError('expected a size such as 512MB or 4GB');
  return value.trim();
}

export function registerSqlCommand(program: Command, ctx: CliContext): void {
  const defaults = DEFAULT_USER_QUERY_LIMITS;
  program
    .command('sql')
    .summary('run a read-only SQL query')
    .description(
      `Run one read-only SQL query over the store (tables: sources, sessions, messages, tool_calls, …). ` +
        `One statement of ${READ_ONLY_STATEMENTS}; anything else (COPY, EXPORT, ATTACH, INSTALL, LOAD, PRAGMA, SET, …) ` +
        'is refused with exit 2. No file but the store is read unless --allow-files, no extension is loaded, ' +
        'and a query is stopped after --timeout seconds or at --memory-limit.',
    )
    .argument('<query>', 'a DuckDB SQL query')
    .option('--db <file>', DB_OPTION_HELP)
    .option('--lake <dir>', LAKE_OPTION_HELP)
    .option('--json', 'print an array of row objects')
    .option('--csv', 'print CSV with a header')
    .option('--allow-files', 'let the query read other files (read_csv, read_json, glob, …); still one read-only query')
    .option('--timeout <seconds>', 'stop the query after this long', seconds, defaults.timeoutMs / 1000)
    .option('--memory-limit <size>', 'DuckDB memory limit for the query', memorySize, defaults.memoryLimit)
    .addHelpText('after', examples([
      'retrace sql "SELECT tool, count(*) FROM tool_calls GROUP BY ALL ORDER BY 2 DESC"',
      'retrace sql "SELECT command, duration_ms FROM tool_calls WHERE timed_out" --json',
      "retrace sql --allow-files \"SELECT * FROM read_csv('hosts.csv')\"",
    ]))
    .action(async (query: string, opts: { db?: string; lake?: string; json?: boolean; csv?: boolean; allowFiles?: boolean; timeout: number; memoryLimit: string }) => {
      ctx.setExitCode(await sqlCommand(query, {
        db: resolveStoreLocation(opts),
        json: Boolean(opts.json),
        csv: Boolean(opts.csv),
        allowFiles: Boolean(opts.allowFiles),
        timeoutSeconds: opts.timeout,
        memoryLimit: opts.memoryLimit,
      }, ctx.output));
    });
}
