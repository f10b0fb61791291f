import { Option, type Command } from 'commander';
import { DB_OPTION_HELP, examples, type CliContext } from '../context.js';
import { requireStoreFolder, resolveDbPath } from '../db-path.js';
import { existsSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { machineFromHostname, machineNameProblem } from '../../core/machine.js';
import { ADAPTERS } from '../../ingest/adapters.js';
import { defaultPaths, discoverSources, lookedFor, type Discovery, type FormatChoice } from '../../ingest/discover.js';
import { emptySummary, ingestSources, type IngestSummary } from '../../store/ingest-pipeline.js';
import { BULK_WRITE_MEMORY_LIMIT, Database } from '../../store/database.js';
import { EXIT, UsageError } from '../errors.js';
import { renderTable } from '../format/table.js';
import { formatDuration } from '../../core/units.js';
import type { Output } from '../output.js';
import { warnRuleProblems } from '../rule-problems.js';
import { activeRuleProblems } from '../../query/rules/active.js';
import { decompressZstdHead } from '../../ingest/io/zstd.js';
import { underivedSessions } from '../../store/derived-writer.js';
import { knownFileLookup } from '../../store/known-files.js';
import { readSourceStates } from '../../store/sources.js';
import type { SourceState } from '../../store/source-writer.js';
import { ingestProgress } from '../ingest-progress.js';
import { BackgroundDerive } from '../../query/background-derive.js';

export interface IngestCommandOptions {
  db: string;
  /** --machine NAME; undefined: this machine's host name. */
  machine?: string;
  format: FormatChoice;
  redact: boolean;
  json: boolean;
  /** A line on stderr per source read, stored and derived (for logs; a terminal gets a bar anyway). */
  progress: boolean;
  /** Derive in a worker thread beside the reading (default); false: between sources, on this thread (less memory, slower). */
  deriveThread?: boolean;
}

export const FORMAT_CHOICES: readonly FormatChoice[] = ['auto', 'opencode', 'claude', 'codex', 'atif'];

/**
 * Exit status per the contract: 2 nothing could be read (bad input or usage), 1 the job failed
 * in part (some sources had problems, or the store could not take them), 0 clean.
 */
export function ingestExitCode(summary: IngestSummary, sourcesFound: number): number {
  if (summary.store_failures > 0) return EXIT.failed;
  if (summary.sources + summary.skipped_unchanged === 0 && (sourcesFound === 0 || summary.failed_sources === sourcesFound)) {
    return EXIT.usage;
  }
  return summary.errors.length > 0 ? EXIT.failed : EXIT.ok;
}

export async function ingestCommand(paths: string[], options: IngestCommandOptions, output: Output): Promise<number> {
  const targets = paths.length > 0 ? paths : await defaultPaths(ADAPTERS, process.env, homedir(), process.cwd());
  if (targets.length === 0) {
    throw new UsageError(
      'nothing to ingest: no PATH given, and none of the default locations exist ' +
        '(~/.local/share/opencode, ~/.claude/projects, ~/.codex/sessions, ./sessions)',
    );
  }
  const machineProblem = options.machine === undefined ? null : machineNameProblem(options.machine);
  if (machineProblem) throw new UsageError(`--machine: ${machineProblem}`);
  const machine = options.machine === undefined ? { name: machineFromHostname(hostname()), explicit: false } : { name: options.machine, explicit: true };
  const started = Date.now();
  // An existing store is opened first: what it recorded lets discovery skip opening unchanged files.
  let db = existsSync(options.db) ? await Database.open(options.db, { memoryLimit: BULK_WRITE_MEMORY_LIMIT }) : null;
  let states: Map<string, SourceState> | undefined;
  let discovery: Discovery;
  try {
    states = db ? await readSourceStates(db) : undefined;
    const known = states ? knownFileLookup(states, options.redact) : undefined;
    discovery = await discoverSources(targets, { adapters: ADAPTERS, format: options.format, decompress: decompressZstdHead, known });
  } catch (error) {
    await db?.close();
    throw error;
  }
  const summary = emptySummary();
  for (const problem of discovery.problems) {
    summary.errors.push({ file: problem.location.file, line: null, path: null, message: problem.message });
  }
  summary.warnings.push(...discovery.warnings);
  if (discovery.sources.length === 0) {
    await db?.close();
    // Nothing to store: say what was looked for, and leave no empty store behind.
    if (discovery.problems.length === 0 && discovery.warnings.length === 0) {
      throw new UsageError(`no transcripts found in ${targets.join(', ')} (looked for ${lookedFor(ADAPTERS, options.format)})`);
    }
    if (options.json) output.json(summary);
    else printSummary(summary, 0, options.db, Date.now() - started, output);
    return ingestExitCode(summary, 0);
  }
  db ??= await Database.open(options.db, { memoryLimit: BULK_WRITE_MEMORY_LIMIT });
  try {
    const background = await BackgroundDerive.start(db, { thread: options.deriveThread !== false, sources: discovery.sources.length });
    const progress = ingestProgress(output, { json: options.json, lines: options.progress }, started, background);
    try {
      await ingestSources(db, discovery.sources, { redact: options.redact, machine, states, ...progress }, summary);
    } finally {
      // Every stored source's sessions are derived (or their failures recorded) before the store is read or closed.
      summary.derive_failures.push(...(await background.finish()));
    }
    // A killed ingest may have stored sessions it never derived: this one derives them.
    const leftOver = await underivedSessions(db);
    if (leftOver.length > 0) {
      summary.derive_failures.push(...(await progress.deriveLeftOver(db, leftOver)));
      summary.derived_left_over = leftOver.length;
    }
  } finally {
    output.clearStatus();
    await db.close();
  }
  warnRuleProblems(activeRuleProblems(), output);
  if (options.json) output.json(summary);
  else printSummary(summary, discovery.sources.length, options.db, Date.now() - started, output);
  return ingestExitCode(summary, discovery.sources.length);
}

function printSummary(summary: IngestSummary, found: number, dbPath: string, elapsedMs: number, output: Output): void {
  output.line(`Ingested ${summary.sources} of ${found} source${found === 1 ? '' : 's'} into ${dbPath} in ${formatDuration(elapsedMs)}`);
  output.line();
  output.line(
    renderTable(
      ['sources', 'sessions', 'messages', 'tool calls', 'redactions', 'unchanged', 'unknown records', 'errors'],
      [
        {
          sources: summary.sources,
          sessions: summary.sessions,
          messages: summary.messages,
          'tool calls': summary.tool_calls,
          redactions: summary.redactions,
          unchanged: summary.skipped_unchanged,
          'unknown records': summary.unknown_records,
          errors: summary.errors.length,
        },
      ],
    ),
  );
  if (summary.messages_updated + summary.tool_calls_updated > 0) {
    output.line(`Updated in place: ${summary.messages_updated} messages, ${summary.tool_calls_updated} tool calls (sessions that grew).`);
  }
  if (summary.texts_cut > 0) {
    output.line(
      `Kept the first and last 4 Mi characters of ${summary.texts_cut} text${summary.texts_cut === 1 ? '' : 's'} over 16 MiB ` +
        '(full size and SHA-256 in the text and in extra.retrace_cut; truncated is set on such tool calls).',
    );
  }
  if (summary.messages_removed + summary.tool_calls_removed > 0) {
    output.line(`Removed: ${summary.messages_removed} messages, ${summary.tool_calls_removed} tool calls the agent no longer holds.`);
  }
  if (summary.warnings.length > 0) {
    output.line();
    output.line(`Warnings (${summary.warnings.length}): read without error, but worth a look:`);
    for (const warning of summary.warnings.slice(0, 20)) {
      output.line(`  ${warning.file} (${warning.agent}${warning.version ? ` ${warning.version}` : ''}): ${warning.reason}`);
    }
    if (summary.warnings.length > 20) output.line(`  … and ${summary.warnings.length - 20} more (use --json for all)`);
  }
  if (summary.errors.length > 0) {
    output.line();
    const rest = summary.sources + summary.skipped_unchanged > 0 ? '; everything else was ingested' : '';
    output.line(`Problems (${summary.errors.length})${rest}:`);
    for (const error of summary.errors.slice(0, 20)) {
      const where = [error.file, error.line ?? undefined].filter((v) => v !== undefined).join(':');
      output.line(`  ${where}${error.path ? ` ${error.path}` : ''}: ${error.message}`);
    }
    if (summary.errors.length > 20) output.line(`  … and ${summary.errors.length - 20} more (use --json for all)`);
  }
  if (summary.renamed_sessions.length > 0) {
    output.line();
    output.line(`Stored under an agent-qualified id, because another agent's session already had the id (${summary.renamed_sessions.length}):`);
    for (const renamed of summary.renamed_sessions.slice(0, 20)) output.line(`  ${renamed.id} (${renamed.agent}, ${renamed.file}) → ${renamed.stored_as}`);
  }
  if (summary.derived_left_over > 0) {
    output.line(`Derived the decision trees of ${summary.derived_left_over} sessions an interrupted ingest had stored without them.`);
  }
  if (summary.derive_failures.length > 0) {
    output.line();
    output.line(`Stored, but no decision tree (${summary.derive_failures.length}; retried when the rules change):`);
    for (const failure of summary.derive_failures.slice(0, 20)) output.line(`  ${failure.sessionId}: ${failure.cause}`);
  }
}

export function registerIngestCommand(program: Command, ctx: CliContext): void {
  program
    .command('ingest')
    .summary('read transcripts into the store (only what is new)')
    .description(
      "Read transcripts into the store. With no PATH: opencode's data folder (storage tree and opencode.db), " +
        '~/.claude/projects, $CODEX_HOME/sessions and ./sessions. Re-ingesting adds only what is new; ' +
        'secrets are redacted before anything is written. Exit 0 clean, 1 some input had problems ' +
        '(reported with file and line; the rest is ingested), 2 nothing could be read.',
    )
    .argument('[path...]', 'files or folders: opencode export JSON, storage trees, opencode.db, Claude Code / Codex JSONL, ATIF trajectories (.atif.json)')
    .option('--db <file>', DB_OPTION_HELP)
    .option('--machine <name>', 'label the sources with this machine (default: this host name; an ATIF file that names its machine keeps it unless this is given)')
    .addOption(new Option('--format <format>', 'which agent wrote them').choices(FORMAT_CHOICES as string[]).default('auto'))
    .option('--no-redact', 'keep secrets (tokens, keys, passwords) instead of replacing them with [REDACTED:kind]')
    .option('--json', 'print {sources, sessions, messages, tool_calls, redactions, skipped_unchanged, errors, warnings} only')
    .option('--progress', 'print a line on stderr as each source is read, stored and derived (for logs and pipes)')
    .option('--no-derive-thread', 'derive decision trees on the main thread instead of a worker beside the reading of the next source (about 100 MB less memory, slower; one source always derives on the main thread)')
    .addHelpText('after', examples([
      'retrace ingest sessions/',
      'retrace ingest ~/.local/share/opencode --db deploys.duckdb',
      'retrace ingest export.json --json | jq .errors',
      'retrace ingest ~/laptop-copy/.claude/projects --machine laptop-7',
    ]))
    .action(async (paths: string[], opts: { db?: string; machine?: string; format: FormatChoice; redact: boolean; json?: boolean; progress?: boolean; deriveThread: boolean }) => {
      ctx.setExitCode(await ingestCommand(paths, {
        db: requireStoreFolder(resolveDbPath(opts.db)), machine: opts.machine, format: opts.format, redact: opts.redact, json: Boolean(opts.json), progress: Boolean(opts.progress), deriveThread: opts.deriveThread,
      }, ctx.output));
    });
}
