import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { join } from 'node:path';
import { ADAPTERS } from '../../ingest/adapters.js';
import { discoverSources } from '../../ingest/discover.js';
import { ingestSources } from '../../ingest/pipeline.js';
import { sessionHighlights } from '../../query/highlights.js';
import { Database } from '../../store/database.js';
import { JobFailedError } from '../errors.js';
import { formatDuration } from '../format/units.js';
import type { Output } from '../output.js';
import { bundledSessionsDir, packageRoot } from '../paths.js';

/** `npm start`: ingest the bundled sample into a local store and summarise it. */
export async function quickstartCommand(options: { db?: string }, output: Output): Promise<number> {
  const dbPath = options.db ?? join(packageRoot(), '.retrace', 'sample.duckdb');
  const discovery = await discoverSources([bundledSessionsDir()], { adapters: ADAPTERS, format: 'auto' });
  if (discovery.sources.length === 0) throw new JobFailedError(`no sample session found in ${bundledSessionsDir()}`);
  const db = await Database.open(dbPath);
  try {
    const summary = await ingestSources(db, discovery.sources, { redact: true });
    if (summary.errors.length > 0) {
      throw new JobFailedError(`the bundled sample did not ingest cleanly: ${summary.errors[0]?.message ?? ''}`);
    }
    output.line(`retrace: the bundled sample is in ${dbPath}`);
    output.line(
      `  (${summary.sources} source${summary.sources === 1 ? '' : 's'} ingested, ${summary.skipped_unchanged} unchanged, ` +
        `${summary.redactions} secret${summary.redactions === 1 ? '' : 's'} redacted)`,
    );
    for (const highlights of await sessionHighlights(db)) {
      output.line();
      output.line(`▌ ${highlights.title}`);
      output.line(`  ${highlights.id} · ${highlights.agent} · ${highlights.started_at ?? '?'} → ${highlights.ended_at ?? '?'}`);
      output.line(
        `  ${highlights.messages} messages, ${highlights.tool_calls} tool calls (${highlights.failed_calls} failed, ` +
          `${highlights.timed_out_calls} timed out, ${highlights.parallel_groups} parallel groups)`,
      );
      for (const timeout of highlights.timeouts) {
        output.line(`  ⏱ timed out after ${formatDuration(timeout.duration_ms)} at #${timeout.message_ordinal}: ${timeout.command}`);
      }
    }
    output.line();
    output.line('Next:');
    output.line(`  npx retrace sessions --db ${dbPath}`);
    output.line(`  npx retrace show qwen --db ${dbPath} --from 13 --to 14`);
    output.line(`  npx retrace sql --db ${dbPath} "SELECT tool, command, duration_ms, timed_out FROM tool_calls WHERE timed_out"`);
    return 0;
  } finally {
    db.close();
  }
}

export function registerQuickstartCommand(program: Command, ctx: CliContext): void {
  program
    .command('quickstart')
    .summary('ingest and summarise the bundled sample (npm start)')
    .description('Ingest the bundled sample session into ./.retrace/sample.duckdb and summarise it (what `npm start` runs).')
    .option('--db <file>', 'where to put the sample store')
    .action(async (opts: { db?: string }) => {
      ctx.setExitCode(await quickstartCommand({ db: opts.db }, ctx.output));
    });
}
