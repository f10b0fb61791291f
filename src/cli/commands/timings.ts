import { Option, type Command } from 'commander';
import { DB_OPTION_HELP, LAKE_OPTION_HELP, examples, positiveInteger, type CliContext } from '../context.js';
import { resolveStoreLocation } from '../db-path.js';
import type { StoreLocation } from '../../store/location.js';
import { renderTable } from '../format/table.js';
import { formatBytes, formatDuration } from '../../core/units.js';
import type { Output } from '../output.js';
import { withDerivedSessions } from '../derived-store.js';
import { resolveSession } from '../../query/session-queries.js';
import { attemptTimings, OUTCOME_MEANINGS, TIMING_KINDS, type TimingKindChoice, type TimingRow } from '../../query/timings.js';

const KIND_CHOICES: readonly TimingKindChoice[] = [...TIMING_KINDS, 'all'];
/** A terminal table past this many rows helps nobody; --json (or --limit) has them all. */
const MAX_TEXT_ROWS = 1000;

function renderTimings(rows: readonly TimingRow[], output: Output): void {
  // Rows of several sessions would read as one story: name the session where it changes.
  const severalSessions = new Set(rows.map((r) => r.session)).size > 1;
  let previous = '';
  let previousSession = '';
  const table: Record<string, unknown>[] = [];
  for (const row of rows) {
    const group = `${row.session}\u0000${row.kind}\u0000${row.subject}\u0000${row.host}`;
    const first = group !== previous;
    previous = group;
    const newSession = row.session !== previousSession;
    previousSession = row.session;
    table.push({
      session: newSession ? row.session : '',
      kind: first ? row.kind : '',
      subject: first ? row.subject : '',
      host: first ? (row.host ?? 'local') : '',
      attempt: row.attempt,
      started: row.started_at?.replace('T', ' ').slice(0, 19) ?? '',
      duration: formatDuration(row.duration_ms),
      outcome: row.outcome,
      size: row.bytes !== undefined ? formatBytes(row.bytes) : '',
      'MB/s': row.mb_per_s ?? '',
      at: `#${row.message_ordinal}`,
    });
  }
  const columns = ['kind', 'subject', 'host', 'attempt', 'started', 'duration', 'outcome', 'size', 'MB/s', 'at'];
  output.line(renderTable(severalSessions ? ['session', ...columns] : columns, table, {
    maxCellWidth: 48,
    alignRight: new Set(['attempt', 'duration', 'size', 'MB/s']),
  }));
}

export async function timingsCommand(options: { db: StoreLocation; kind: TimingKindChoice; session?: string; json: boolean; limit?: number }, output: Output): Promise<number> {
  let sessionId: string | undefined;
  return withDerivedSessions(output, 
    options.db,
    async (db) => {
      if (!options.session) return null;
      sessionId = (await resolveSession(db, options.session)).id;
      return [sessionId];
    },
    async (db) => {
      // One row more than is shown, to know whether there are more.
      const limit = options.limit ?? (options.json ? undefined : MAX_TEXT_ROWS + 1);
      const rows = await attemptTimings(db, { kind: options.kind, sessionId, limit });
      if (options.json) {
        output.json({ kind: options.kind, session: sessionId ?? null, attempts: rows });
        return 0;
      }
      if (rows.length === 0) {
        output.line(`No ${options.kind === 'all' ? 'pulls, downloads or probes' : `${options.kind}s`} recorded${sessionId ? ` in ${sessionId}` : ''}.`);
        return 0;
      }
      const shown = rows.slice(0, MAX_TEXT_ROWS);
      renderTimings(shown, output);
      if (rows.length > shown.length) output.line('… more attempts: narrow with --session or --kind, or read them all with --json');
      return 0;
    },
  );
}

export function registerTimingsCommand(program: Command, ctx: CliContext): void {
  program
    .command('timings')
    .summary('how long pulls, downloads and probes took; timeouts and retries')
    .description(
      'One row per attempt at an image pull, a weight download or a probe: subject, host, attempt number ' +
        '(retries of the same subject on the same host are grouped and numbered), start, duration, outcome ' +
        'and outcome, and bytes and MB/s when the output says how much was moved. With several sessions, a session ' +
        'column names each.\nOutcomes (the classified action\'s own):\n' +
        Object.entries(OUTCOME_MEANINGS).map(([outcome, meaning]) => `  ${outcome.padEnd(9)} ${meaning}`).join('\n'),
    )
    .addOption(new Option('--kind <kind>', 'which steps').choices(KIND_CHOICES as string[]).default('all'))
    .option('--session <session>', 'only this session (an id, an id prefix, or a title substring)')
    .option('--limit <n>', `at most this many attempts (default: ${MAX_TEXT_ROWS} on a terminal, all with --json)`, positiveInteger)
    .option('--db <file>', DB_OPTION_HELP)
    .option('--lake <dir>', LAKE_OPTION_HELP)
    .option('--json', 'print {kind, session, attempts:[{kind, subject, host, attempt, started_at, duration_ms, outcome, bytes?, mb_per_s?, …}]}')
    .addHelpText('after', examples(['retrace timings --kind pull', 'retrace timings --kind download --session qwen', 'retrace timings --json | jq \'.attempts[] | select(.outcome == "timeout")\'']))
    .action(async (opts: { db?: string; lake?: string; kind: TimingKindChoice; session?: string; json?: boolean; limit?: number }) => {
      ctx.setExitCode(await timingsCommand({ db: resolveStoreLocation(opts), kind: opts.kind, session: opts.session, json: Boolean(opts.json), limit: opts.limit }, ctx.output));
    });
}
