import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { homedir } from 'node:os';
import { isAbsolute, relative, resolve } from 'node:path';
import { resolveDbPath } from '../db-path.js';
import { ADAPTERS } from '../../ingest/adapters.js';
import { discoverSources } from '../../ingest/discover.js';
import { ingestSources } from '../../store/ingest-pipeline.js';
import { sessionHighlights } from '../../query/highlights.js';
import { deriveSessions, staleSessions } from '../../query/derive.js';
import { loadTree } from '../../query/tree/queries.js';
import { renderTreeText } from '../../query/tree/render-text.js';
import { BULK_WRITE_MEMORY_LIMIT, Database } from '../../store/database.js';
import { JobFailedError } from '../errors.js';
import { formatDuration } from '../../core/units.js';
import type { Output } from '../output.js';
import { bundledSessionsDir } from '../paths.js';
import { canRunTui, loadTui, openTui, soleSessionRoutes } from './tui.js';

/** `npm start`: ingest the bundled sample into a local store and summarise it. */
/** A path as a user would type it here: relative below the working folder, `~/…` below home. */
function displayPath(path: string): string {
  const fromHere = relative(process.cwd(), path);
  if (!fromHere.startsWith('..') && !isAbsolute(fromHere)) return fromHere;
  const fromHome = relative(homedir(), path);
  return !fromHome.startsWith('..') && !isAbsolute(fromHome) ? `~/${fromHome}` : path;
}

export async function quickstartCommand(options: { db?: string; tui?: boolean }, output: Output): Promise<number> {
  // The default store (or $RETRACE_DB): where every later command looks without --db, so the
  // README's next examples work as typed right after `npm start`.
  const dbPath = options.db ? resolve(options.db) : resolveDbPath(undefined);
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
    const shown = displayPath(dbPath);
    const dbHint = dbPath === resolveDbPath(undefined) ? '' : ` --db ${shown}`;
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
    output.line(`  npx retrace why scitrera${dbHint}`);
    output.line(`  npx retrace timings --kind pull${dbHint}`);
    output.line(`  npx retrace show qwen --from 13 --to 14${dbHint}`);
    output.line(`  npx retrace plan qwen -o qwen.yaml${dbHint}`);
    output.line(`  npx retrace sql "SELECT tool, command, duration_ms, timed_out FROM tool_calls WHERE timed_out"${dbHint}`);
    if (!tui) return 0;
    const start = await soleSessionRoutes(db);
    // The writer lets go first: the TUI reads the store only while a screen reads.
    await db.close();
    open = false;
    await openTui(dbPath, start, tui);
    return 0;
  } finally {
    if (open) await db.close();
  }
}

export function registerQuickstartCommand(program: Command, ctx: CliContext): void {
  program
    .command('quickstart')
    .summary('ingest and summarise the bundled sample (npm start)')
    .description('Ingest the bundled sample session into the store (--db, else $RETRACE_DB, else ~/.local/share/retrace/retrace.duckdb, where every command looks) and summarise it (what `npm start` runs); in a terminal, then open the TUI on it.')
    .option('--db <file>', 'the store to put the sample in')
    .option('--no-tui', 'print the summary only, even in a terminal')
    .action(async (opts: { db?: string; tui: boolean }) => {
      ctx.setExitCode(await quickstartCommand({ db: opts.db, tui: opts.tui }, ctx.output));
    });
}
