import { Command, InvalidArgumentError, Option } from 'commander';
import { ingestCommand, FORMAT_CHOICES } from './commands/ingest.js';
import { quickstartCommand } from './commands/quickstart.js';
import { sessionsCommand } from './commands/sessions.js';
import { showCommand } from './commands/show.js';
import { sqlCommand } from './commands/sql.js';
import { resolveDbPath } from './db-path.js';
import type { Output } from './output.js';
import type { FormatChoice } from '../ingest/discover.js';

/** The command's result: an exit code, set by whichever subcommand ran. */
export interface ProgramResult {
  exitCode: number;
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number ≥ 1');
  return n;
}

const DB_HELP = 'the store (default: $RETRACE_DB, else ~/.local/share/retrace/retrace.duckdb)';

function examples(lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

export function buildProgram(output: Output, result: ProgramResult): Command {
  const program = new Command('retrace')
    .description(
      'Turn AI coding agents\' deployment transcripts into a queryable DuckDB store, a decision tree of\n' +
        'probes and pivots, and a safe SSH replay of the winning path.',
    )
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => output.line(text.trimEnd()),
      writeErr: (text) => output.warn(text.trimEnd()),
    })
    .exitOverride();

  program
    .command('ingest')
    .description(
      'Read transcripts into the store. With no PATH: opencode\'s data folder (storage tree and opencode.db),\n' +
        '~/.claude/projects, $CODEX_HOME/sessions and ./sessions. Re-ingesting adds only what is new.',
    )
    .argument('[path...]', 'files or folders: opencode export JSON, storage trees, opencode.db, Claude Code / Codex JSONL')
    .option('--db <file>', DB_HELP)
    .addOption(new Option('--format <format>', 'which agent wrote them').choices(FORMAT_CHOICES as string[]).default('auto'))
    .option('--no-redact', 'keep secrets (tokens, keys, passwords) instead of replacing them with [REDACTED:kind]')
    .option('--json', 'print {sources, sessions, messages, tool_calls, redactions, skipped_unchanged, errors} only')
    .addHelpText('after', examples([
      'retrace ingest sessions/',
      'retrace ingest ~/.local/share/opencode --db deploys.duckdb',
      'retrace ingest export.json --json | jq .errors',
    ]))
    .action(async (paths: string[], opts: { db?: string; format: FormatChoice; redact: boolean; json?: boolean }) => {
      result.exitCode = await ingestCommand(paths, { db: resolveDbPath(opts.db), format: opts.format, redact: opts.redact, json: Boolean(opts.json) }, output);
    });

  program
    .command('sessions')
    .description('List the sessions in the store (agent, title, start, messages, tool calls).')
    .option('--db <file>', DB_HELP)
    .option('--json', 'print an array of {id, agent, title, started_at, ended_at, messages, tool_calls}')
    .addHelpText('after', examples(['retrace sessions', 'retrace sessions --json | jq ".[].title"']))
    .action(async (opts: { db?: string; json?: boolean }) => {
      result.exitCode = await sessionsCommand({ db: resolveDbPath(opts.db), json: Boolean(opts.json) }, output);
    });

  program
    .command('show')
    .description('Print a session as a story: messages, reasoning, tool calls with their outcome and output.')
    .argument('<session>', 'a session id, an id prefix, or a title substring')
    .option('--db <file>', DB_HELP)
    .option('--from <n>', 'first message ordinal', positiveInteger)
    .option('--to <n>', 'last message ordinal', positiveInteger)
    .option('--json', 'print {session, messages:[{…, tool_calls:[…]}]}')
    .addHelpText('after', examples(['retrace show qwen --from 13 --to 14', 'retrace show ses_3a1f --json']))
    .action(async (session: string, opts: { db?: string; from?: number; to?: number; json?: boolean }) => {
      result.exitCode = await showCommand(session, { db: resolveDbPath(opts.db), from: opts.from, to: opts.to, json: Boolean(opts.json) }, output);
    });

  program
    .command('sql')
    .description('Run one read-only SQL query over the store (tables: sources, sessions, messages, tool_calls, …).')
    .argument('<query>', 'a DuckDB SQL query')
    .option('--db <file>', DB_HELP)
    .option('--json', 'print an array of row objects')
    .option('--csv', 'print CSV with a header')
    .addHelpText('after', examples([
      'retrace sql "SELECT tool, count(*) FROM tool_calls GROUP BY ALL ORDER BY 2 DESC"',
      'retrace sql "SELECT command, duration_ms FROM tool_calls WHERE timed_out" --json',
    ]))
    .action(async (query: string, opts: { db?: string; json?: boolean; csv?: boolean }) => {
      result.exitCode = await sqlCommand(query, { db: resolveDbPath(opts.db), json: Boolean(opts.json), csv: Boolean(opts.csv) }, output);
    });

  program
    .command('quickstart')
    .description('Ingest the bundled sample session into ./.retrace/sample.duckdb and summarise it (what `npm start` runs).')
    .option('--db <file>', 'where to put the sample store')
    .action(async (opts: { db?: string }) => {
      result.exitCode = await quickstartCommand({ db: opts.db }, output);
    });

  return program;
}
