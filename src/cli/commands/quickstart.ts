import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { join, relative } from 'node:path';
import { ADAPTERS } from '../../ingest/adapters.js';
import { discoverSources } from '../../ingest/discover.js';
import { ingestSources } from '../../store/ingest-pipeline.js';
import { sessionHighlights } from '../../query/highlights.js';
import { deriveSessions, staleSessions } from '../../query/derive.js';
import { loadTree } from '../../query/tree/queries.js';
import { renderTreeText } from '../../query/tree/render-text.js';
import { BULK_WRITE_MEMORY_LIMIT, Database } from '../../store/database.js';
import { JobFailedError } from '../errors.js';
import { formatDuration } from '../format/units.js';
import type { Output } from '../output.js';
import { bundledSessionsDir, packageRoot } from '../paths.js';
import { canRunTui, loadTui, openTui, soleSessionRoutes } from './tui.js';

/** `npm start`: ingest the bundled sample into a local store and summarise it. */
export async function quickstartCommand(options: { db?: string; tui?: boolean }, output: Output): Promise<number> {
  const dbPath = options.db ?? join(packageRoot(), '.retrace', 'sample.duckdb');
  // In a terminal, `npm start` ends in the TUI on the sample (loaded while the sample ingests).
  const tui = options.tui !== false && canRunTui() ? loadTui() : null;
  const discovery = await discoverSources([bundledSessionsDir()], { adapters: ADAPTERS, format: 'auto' });
  if (discovery.sources.length === 0) throw new JobFailedError(`no sample session found in ${bundledSessionsDir()}`);
  const db = await Database.open(dbPath, { memoryLimit: BULK_WRITE_MEMORY_LIMIT });
  let open = true;
  try {
    const summary = await ingestSources(db, discovery.sources, { redact: true, onSessionsWritten: deriveSessions });
    // A store ingested before the derived tables existed (or by older rules) gets its trees now.
    await deriveSessions(db, await staleSessions(db));
    if (summary.errors.length > 0) {
      throw new JobFailedError(`the bundled sample did not ingest cleanly: ${summary.errors[0]?.message ?? ''}`);
    }
    // Hints a user can paste: the store's path as seen from where they are.
    const shown = relative(process.cwd(), dbPath).startsWith('..') ? dbPath : relative(process.cwd(), dbPath);
    output.line(`retrace: the bundled sample is in ${shown}`);
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
      const tree = await loadTree(db, highlights.id);
      if (tree && tree.candidates.length > 0) {
        output.line();
        output.line(renderTreeText(tree, { title: highlights.title, width: Math.max(60, output.columns) }));
      }
    }
    output.line();
    output.line('Next:');
    output.line(`  npx retrace why scitrera --db ${shown}`);
    output.line(`  npx retrace timings --kind pull --db ${shown}`);
    output.line(`  npx retrace sessions --db ${shown}`);
    output.line(`  npx retrace show qwen --db ${shown} --from 13 --to 14`);
    output.line(`  npx retrace sql --db ${shown} "SELECT tool, command, duration_ms, timed_out FROM tool_calls WHERE timed_out"`);
    if (!tui) return 0;
    const start = await soleSessionRoutes(db);
    // The writer lets go first: the TUI reads the store only while a screen reads.
    db.close();
    open = false;
    await openTui(dbPath, start, tui);
    return 0;
  } finally {
    if (open) db.close();
  }
}

export function registerQuickstartCommand(program: Command, ctx: CliContext): void {
  program
    .command('quickstart')
    .summary('ingest and summarise the bundled sample (npm start)')
    .description('Ingest the bundled sample session into ./.retrace/sample.duckdb and summarise it (what `npm start` runs); in a terminal, then open the TUI on it.')
    .option('--db <file>', 'where to put the sample store')
    .option('--no-tui', 'print the summary only, even in a terminal')
    .action(async (opts: { db?: string; tui: boolean }) => {
      ctx.setExitCode(await quickstartCommand({ db: opts.db, tui: opts.tui }, ctx.output));
    });
}
