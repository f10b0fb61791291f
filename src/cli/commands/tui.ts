import type { Output } from '../output.js';
import type { Command } from 'commander';
import { DB_OPTION_HELP, LAKE_OPTION_HELP, examples, type CliContext } from '../context.js';
import { resolveStoreLocation } from '../db-path.js';
import type { StoreLocation } from '../../store/location.js';
import { UsageError } from '../errors.js';
import { listSessions, resolveSession } from '../../query/session-queries.js';
import { loadRun, RunLookupError } from '../../store/run-queries.js';
import type { Database } from '../../store/database.js';
import { withDerivedSessions } from '../derived-store.js';
import type { Route } from '../../tui/routes.js';
import { createTuiServices } from '../tui-services.js';
import { leasedStore } from '../tui-store.js';
import { followRun } from '../run-follower.js';

export interface TuiOptions {
  db: StoreLocation;
  run?: string;
}

/** True when both ends are a terminal: the TUI reads keys and draws a screen. */
export function canRunTui(stdin: NodeJS.ReadStream = process.stdin, stdout: NodeJS.WriteStream = process.stdout): boolean {
  return Boolean(stdin.isTTY && stdout.isTTY);
}

/**
 * The screens to open on: the sessions list, then the session or run asked for on top of it; a
 * live run still going opens on the live-run screen, which follows it.
 */
export async function startRoutes(db: Database, reference: string | undefined, runId: string | undefined): Promise<Route[]> {
  if (runId) {
    try {
      const run = await loadRun(db, runId);
      return [{ screen: 'runs' }, run.mode === 'live' && run.status === 'running' ? { screen: 'live-run', runId: run.id } : { screen: 'compare', runId: run.id }];
    } catch (error) {
      throw error instanceof RunLookupError ? new UsageError(error.message) : error;
    }
  }
  if (!reference) return [{ screen: 'sessions' }];
  const session = await resolveSession(db, reference);
  const title = session.title ?? session.id;
  return [{ screen: 'sessions' }, { screen: 'timeline', sessionId: session.id, title: session.machine ? `${title} @${session.machine}` : title }];
}

export type TuiModule = typeof import('../../tui/run-tui.js');

/**
 * Loads Ink, React and the screens (half a second of startup, so begun while the store opens).
 * Ink draws nothing until exit when it thinks it runs in CI (`CI` set); a terminal the user
 * opened is not CI, so the variables are cleared before Ink is first imported. React runs its
 * production build unless told otherwise (its development checks cost a third of each frame).
 */
export function loadTui(): Promise<TuiModule> {
  delete process.env['CI'];
  delete process.env['CONTINUOUS_INTEGRATION'];
  process.env['NODE_ENV'] ??= 'production';
  const loading = import('../../tui/run-tui.js');
  loading.catch(() => undefined);
  return loading;
}

/** The timeline of the store's only session (the sample's, for `npm start`), else the sessions list. */
export async function soleSessionRoutes(db: Database): Promise<Route[]> {
  const sessions = await listSessions(db);
  const [only] = sessions;
  return sessions.length === 1 && only ? startRoutes(db, only.id, undefined) : [{ screen: 'sessions' }];
}

/**
 * Runs the TUI until the user quits, over a store it opens only while it reads (leasedStore), so
 * ingest and replay can write meanwhile and the screens see their rows.
 */
export async function openTui(location: StoreLocation, start: readonly Route[], tui: Promise<TuiModule> = loadTui()): Promise<void> {
  const { runTui } = await tui;
  const last = start.at(-1);
  // Following a run, the store is read every second: let go sooner, so the run's writes get in.
  const store = leasedStore(location, last?.screen === 'live-run' && last.runId ? { idleMs: 100 } : {});
  const followed = last?.screen === 'live-run' && last.runId ? await followRun(store, last.runId) : null;
  try {
    const live = followed ? { liveRun: followed.controller, liveRunWatch: { pid: followed.pid } } : {};
    await runTui(createTuiServices(store, live), start);
  } finally {
    followed?.close();
    await store.close();
  }
}

export async function tuiCommand(reference: string | undefined, options: TuiOptions, output: Output): Promise<number> {
  if (reference && options.run) throw new UsageError('name a SESSION or --run ID, not both');
  if (!canRunTui()) throw new UsageError('retrace tui needs a terminal (stdin and stdout); in scripts use `retrace show`, `retrace sql` or --json');
  const tui = loadTui();
  // Sessions ingested before the decision tree existed (or by older rules) are derived first.
  // Sessions ingested before the decision tree existed (or by older rules) are derived first;
  // the store is then closed, and the TUI opens it only while it reads.
  const start = await withDerivedSessions(output, options.db, async () => null, (db) => startRoutes(db, reference, options.run));
  await openTui(options.db, start, tui);
  return 0;
}

export function registerTuiCommand(program: Command, ctx: CliContext): void {
  program
    .command('tui')
    .summary('step through sessions, decision trees and runs in a terminal UI')
    .description(
      'Open the terminal UI: sessions, a session timeline (Enter opens a call\'s output), the decision tree and why, ' +
        'timings, runs and run vs record. `?` shows the keys of each screen; Esc goes back; q quits. ' +
        'The store is opened only while a screen reads, so ingest and replay run meanwhile. --run ID of a live ' +
        'replay still going (started in another terminal) follows it as it runs: steps, status, output, how it ended; ' +
        'it is steered only from the terminal that started it.',
    )
    .argument('[session]', 'open this session\'s timeline (an id, an id prefix, or a title substring)')
    .option('--run <id>', 'open this run beside its record (an id or id prefix); a live run still going is followed as it runs, from any terminal (it is steered only from the one that started it)')
    .option('--db <file>', DB_OPTION_HELP)
    .option('--lake <dir>', LAKE_OPTION_HELP)
    .addHelpText('after', examples(['retrace tui', 'retrace tui qwen', 'retrace tui --run run_2026', 'retrace tui --run run_20260226-134100_3f9a   # a live run going on elsewhere: watch it', 'NO_COLOR=1 retrace tui --db sample.duckdb']))
    .action(async (session: string | undefined, opts: { db?: string; lake?: string; run?: string }) => {
      ctx.setExitCode(await tuiCommand(session, { db: resolveStoreLocation(opts), run: opts.run }, ctx.output));
    });
}
