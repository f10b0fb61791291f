import type { Command } from 'commander';
import { DB_OPTION_HELP, LAKE_OPTION_HELP, examples, type CliContext } from '../context.js';
import { resolveStoreLocation } from '../db-path.js';
import type { StoreLocation } from '../../store/location.js';
import { listSessions } from '../../query/session-queries.js';
import { withReader } from '../../store/location.js';
import { renderTable } from '../format/table.js';
import type { Output } from '../output.js';

export async function sessionsCommand(options: { db: StoreLocation; json: boolean }, output: Output): Promise<number> {
  const sessions = await withReader(options.db, listSessions);
  if (options.json) {
    output.json(
      sessions.map(({ id, agent, title, started_at, ended_at, messages, tool_calls, parent_id, machine, directory, source_path }) => ({
        id, agent, title, started_at, ended_at, messages, tool_calls, parent_id, machine, directory, source_path,
      })),
    );
    return 0;
  }
  if (sessions.length === 0) {
    output.line('No sessions in this store yet: run `retrace ingest [PATH]`.');
    return 0;
  }
  output.line(
    renderTable(
      ['id', 'agent', 'machine', 'title', 'directory', 'started', 'messages', 'tool calls'],
      sessions.map((s) => ({
        id: s.parent_id ? `↳ ${s.id}` : s.id,
        agent: s.agent,
        machine: s.machine ?? '',
        title: s.title,
        directory: s.directory ?? '',
        started: s.started_at?.replace('T', ' ').slice(0, 16) ?? '',
        messages: s.messages,
        'tool calls': s.tool_calls,
      })),
      { maxCellWidth: 48, alignRight: new Set(['messages', 'tool calls']) },
    ),
  );
  return 0;
}

export function registerSessionsCommand(program: Command, ctx: CliContext): void {
  program
    .command('sessions')
    .summary('list the sessions in the store')
    .description('List the sessions in the store (agent, the machine it came from, title, working directory, start, messages, tool calls).')
    .option('--db <file>', DB_OPTION_HELP)
    .option('--lake <dir>', LAKE_OPTION_HELP)
    .option('--json', 'print an array of {id, agent, title, started_at, ended_at, messages, tool_calls, parent_id, machine, directory, source_path}')
    .addHelpText('after', examples(['retrace sessions', 'retrace sessions --json | jq ".[].title"']))
    .action(async (opts: { db?: string; lake?: string; json?: boolean }) => {
      ctx.setExitCode(await sessionsCommand({ db: resolveStoreLocation(opts), json: Boolean(opts.json) }, ctx.output));
    });
}
