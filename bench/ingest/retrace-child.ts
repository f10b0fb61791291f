import { rmSync } from 'node:fs';
import { ADAPTERS } from '../../src/ingest/adapters.js';
import { discoverSources } from '../../src/ingest/discover.js';
import { decompressZstdHead } from '../../src/ingest/io/zstd.js';
import { emptySummary, ingestSources } from '../../src/store/ingest-pipeline.js';
import { BackgroundDerive } from '../../src/query/background-derive.js';
import { BULK_WRITE_MEMORY_LIMIT, Database } from '../../src/store/database.js';
import { knownFileLookup } from '../../src/store/known-files.js';
import { readSourceStates } from '../../src/store/sources.js';
import { emitResult } from '../lib/child.js';

/**
 * `node retrace-child.js DB PATH… [--no-derive] [--again]`: what `retrace ingest PATH… --db DB`
 * does (discover, validate, convert, redact, store, derive), in a fresh process, with its phases
 * timed. `--again` keeps the store: the re-ingest of an unchanged corpus.
 */
export interface RetraceIngestResult {
  ms: number;
  /** Opening the store (DuckDB's start-up and the schema check): a fixed cost per process. */
  openMs: number;
  discoverMs: number;
  deriveMs: number;
  /** Peak RSS (bytes) when the pipeline had stored everything, before deriving; and at the end. */
  rssAfterStoreBytes: number;
  rssPeakBytes: number;
  sources: number;
  sessions: number;
  messages: number;
  toolCalls: number;
  unknownRecords: number;
  redactions: number;
  /** Sources found unchanged since the store last read them (all of them, for `--again`). */
  skippedUnchanged: number;
  errorCount: number;
  errors: string[];
  /** The session with the most messages, for the TUI figure. */
  largestSession: { id: string; messages: number } | null;
}

const args = process.argv.slice(2);
const derive = !args.includes('--no-derive');
const [dbPath, ...paths] = args.filter((a) => !a.startsWith('--'));
if (!dbPath || paths.length === 0) throw new Error('usage: retrace-child.js DB PATH… [--no-derive] [--again]');
if (!args.includes('--again')) {
  rmSync(dbPath, { force: true });
  rmSync(`${dbPath}.wal`, { force: true });
}

const maxRss = (): number => process.resourceUsage().maxRSS * 1024;
const started = performance.now();
// As `retrace ingest` does: the store first, so discovery need not open the files it knows unchanged.
const db = await Database.open(dbPath, { memoryLimit: BULK_WRITE_MEMORY_LIMIT });
const openMs = performance.now() - started;
const states = await readSourceStates(db);
const discovery = await discoverSources(paths, { adapters: ADAPTERS, format: 'auto', decompress: decompressZstdHead, known: knownFileLookup(states, true) });
const discoverMs = performance.now() - started - openMs;
const summary = emptySummary();
for (const problem of discovery.problems) summary.errors.push({ file: problem.location.file, line: null, path: null, message: problem.message });
let deriveMs = 0;
let rssAfterStoreBytes = 0;
let largestSession: RetraceIngestResult['largestSession'] = null;
let notIngesting = 0;
// As `retrace ingest` does: each stored source's sessions derive beside the next source's reading.
// BENCH_DERIVE_THREAD=0 measures `retrace ingest --no-derive-thread`.
const background = derive ? await BackgroundDerive.start(db, { thread: process.env['BENCH_DERIVE_THREAD'] !== '0', sources: discovery.sources.length }) : null;
try {
  await ingestSources(db, discovery.sources, {
    redact: true,
    states,
    onSessionsWritten: background
      ? async (_store, sessionIds) => {
          rssAfterStoreBytes = Math.max(rssAfterStoreBytes, maxRss());
          // For a parent that may have to stop us during derive: what storing alone took.
          const heap = process.memoryUsage();
          process.stderr.write(`bench: stored ${sessionIds.length} sessions, peak RSS ${rssAfterStoreBytes} bytes, ${Math.round(performance.now() - started)} ms; now: rss ${heap.rss}, JS heap ${heap.heapUsed}, external ${heap.external}\n`);
          background.add(sessionIds);
        }
      : undefined,
  }, summary);
  // What deriving adds once everything is stored: the derivations still queued.
  const t = performance.now();
  if (background) summary.derive_failures.push(...(await background.finish()));
  deriveMs = performance.now() - t;
  // Not part of ingesting: timed apart and left out.
  const asked = performance.now();
  const largest = await db.one('SELECT session_id, count(*) AS n FROM messages GROUP BY session_id ORDER BY n DESC, session_id LIMIT 1');
  if (largest) largestSession = { id: String(largest['session_id']), messages: Number(largest['n']) };
  notIngesting = performance.now() - asked;
} finally {
  // Closing checkpoints the write-ahead log into the file: part of the cost, as in the DuckDB baseline.
  db.close();
}
emitResult({
  ms: performance.now() - started - notIngesting,
  openMs,
  discoverMs,
  deriveMs,
  rssAfterStoreBytes: rssAfterStoreBytes || maxRss(),
  rssPeakBytes: maxRss(),
  sources: summary.sources,
  sessions: summary.sessions,
  messages: summary.messages,
  toolCalls: summary.tool_calls,
  unknownRecords: summary.unknown_records,
  redactions: summary.redactions,
  skippedUnchanged: summary.skipped_unchanged,
  errorCount: summary.errors.length,
  errors: summary.errors.slice(0, 5).map((e) => `${e.file}${e.line ? `:${e.line}` : ''} ${e.message}`),
  largestSession,
} satisfies RetraceIngestResult);
