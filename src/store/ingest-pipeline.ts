import { StoreError } from './errors.js';
import { readSourceStates, refreshFileStamp } from './sources.js';
import { SessionIdentity, type RenamedSession } from './session-identity.js';
import { SourceWriter, type SourceState, type SourceWriteCounts, type WriteMode } from './source-writer.js';
import type { Database } from './database.js';
import { boundMessageItem, boundUnknownItem } from '../core/bounded-text.js';
import { hashFile, type FileHashes } from '../core/io/hash.js';
import type { IngestItem, Location, ProblemItem, SessionOrigin } from '../core/model.js';
import {
  redactMessageItem,
  redactPath,
  redactProblemMessage,
  redactSessionItem,
  redactUnknownItem,
} from '../core/redact/redact-item.js';
import { totalRedactions, type RedactionCounts } from '../core/redact/redact.js';
import { redactRunItem } from '../core/redact/redact-run.js';
import type { ResumePoint, Source } from '../core/source.js';
import { agentOfFormat, emptySourceReport, noteForReport, warningsFor, type IngestWarning, type SourceReport } from '../core/warnings.js';
import { storedLocation, storedName, type StoredName } from './stored-name.js';

export interface IngestProgress {
  sourceIndex: number;
  sourceCount: number;
  path: string;
  bytesDone: number;
  bytesTotal: number;
  messages: number;
}

/** The machine sources are labelled with; `explicit` when the user named it (it then wins over a source's own record). */
export interface MachineLabel {
  name: string;
  explicit: boolean;
}

export interface IngestOptions {
  redact: boolean;
  /** Provenance of every source written (none: left unknown). */
  machine?: MachineLabel;
  onProgress?: (progress: IngestProgress) => void;
  /** Bytes of an appendable transcript per transaction (default 64 MB). */
  batchBytes?: number;
  /** Called as each source is committed, before its sessions are derived. */
  onSourceStored?: (source: Source, index: number, count: number) => void;
  /** The store's records of its sources, when the caller read them already (for discovery). */
  states?: ReadonlyMap<string, SourceState>;
  /** How an appendable file is hashed (tests count the files opened through it). */
  hashFile?: (path: string, prefixBytes?: number | null) => Promise<FileHashes>;
  /** Called after each committed source with the sessions it touched (derived tables hook here). */
  onSessionsWritten?: (db: Database, sessionIds: readonly string[]) => Promise<readonly SessionFailure[] | void>;
}

export interface IngestError {
  file: string;
  line: number | null;
  path: string | null;
  message: string;
}

/** A session stored whole whose derived rows (its tree) could not be built: reported, never fatal. */
export interface SessionFailure {
  sessionId: string;
  cause: string;
}

export interface IngestSummary {
  sources: number;
  sessions: number;
  messages: number;
  tool_calls: number;
  messages_updated: number;
  tool_calls_updated: number;
  /** Rows a re-read database session no longer holds (deleted or merged by the agent), removed. */
  messages_removed: number;
  tool_calls_removed: number;
  redactions: number;
  redactions_by_kind: RedactionCounts;
  skipped_unchanged: number;
  resumed: number;
  failed_sources: number;
  /** Of the failed sources, those the store could not take (a full disk): not the input's fault. */
  store_failures: number;
  unknown_records: number;
  unknown_fields: Record<string, number>;
  /** Texts over 16 MiB kept as their head and tail (their records say so in `extra.retrace_cut`). */
  texts_cut: number;
  errors: IngestError[];
  derive_failures: SessionFailure[];
  /** Sessions an earlier, interrupted ingest stored but never derived: derived by this one. */
  derived_left_over: number;
  /** Sessions whose id another agent's session held already: stored as `<agent>:<id>`. */
  renamed_sessions: RenamedSession[];
  /** Sources that read without error but look like format drift (src/core/warnings.ts), and twins read once. */
  warnings: IngestWarning[];
}

export function emptySummary(): IngestSummary {
  return {
    sources: 0,
    sessions: 0,
    messages: 0,
    tool_calls: 0,
    messages_updated: 0,
    tool_calls_updated: 0,
    messages_removed: 0,
    tool_calls_removed: 0,
    redactions: 0,
    redactions_by_kind: {},
    skipped_unchanged: 0,
    resumed: 0,
    failed_sources: 0,
    store_failures: 0,
    unknown_records: 0,
    unknown_fields: {},
    texts_cut: 0,
    errors: [],
    derive_failures: [],
    derived_left_over: 0,
    renamed_sessions: [],
    warnings: [],
  };
}

function toError(location: Location, message: string): IngestError {
  return { file: location.file, line: location.line ?? null, path: location.path ?? null, message };
}

interface Plan {
  mode: 'replace' | 'append' | 'skip';
  resume?: ResumePoint;
  fingerprint: string;
  /** The store has no record of the source. */
  fresh?: boolean;
  /** Skipped on the store's record alone: the source was never opened. */
  unopened?: boolean;
}

/**
 * The store's record says this source is exactly what was stored, without opening it: same size,
 * times and inode as when it was read whole (a half-stored source, `partial`, is never trusted).
 */
function unchangedByStamp(state: SourceState | undefined, source: Source): boolean {
  return !!state && !!source.stamp && state.fileStamp === source.stamp && state.size === source.size && state.contentHash !== 'partial';
}

type Hasher = NonNullable<IngestOptions['hashFile']>;

/**
 * Skip a source whose stamp is unchanged (nothing opened) or, when its stamp moved, whose content
 * hash is; resume a grown JSONL whose old bytes are untouched; else read it whole.
 */
async function planSource(state: SourceState | undefined, source: Source, hash: Hasher): Promise<Plan> {
  if (state && unchangedByStamp(state, source)) return { mode: 'skip', fingerprint: state.contentHash, unopened: true };
  if (!source.appendable) {
    const fingerprint = await source.fingerprint();
    if (state && state.contentHash === fingerprint && state.size === source.size) return { mode: 'skip', fingerprint };
    return { mode: 'replace', fingerprint, fresh: state === undefined };
  }
  const consumed = state?.bytesConsumed ?? null;
  const hashes = await hash(source.path, consumed !== null && consumed <= source.size ? consumed : null);
  if (state && state.contentHash === hashes.full) return { mode: 'skip', fingerprint: hashes.full };
  if (state && consumed !== null && state.prefixHash !== null && hashes.prefix === state.prefixHash && consumed <= source.size) {
    return { mode: 'append', resume: { offset: consumed, line: (state.linesConsumed ?? 0) + 1 }, fingerprint: hashes.full };
  }
  return { mode: 'replace', fingerprint: hashes.full, fresh: state === undefined };
}

/** Bytes of an appendable transcript written per transaction (see the checkpoint case below). */
const DEFAULT_BATCH_BYTES = 64 * 1024 * 1024;

interface Provenance {
  machine: string | null;
  originalPath: string | null;
}

/** The user's --machine, else what the source says of itself, else this machine's name. */
function provenanceOf(label: MachineLabel | undefined, origin: SessionOrigin | null): Provenance {
  const machine = label?.explicit ? label.name : (origin?.machine ?? label?.name ?? null);
  return { machine, originalPath: origin?.path ?? null };
}

function partialState(source: Source, name: StoredName, checkpoint: ResumePoint, provenance: Provenance): SourceState {
  // No prefix hash: should the process die before the last batch, the next ingest reads the file
  // again from the start (rows already stored are matched, not duplicated).
  return {
    key: name.key, path: name.path, format: source.format, size: source.size, contentHash: 'partial',
    bytesConsumed: checkpoint.offset, linesConsumed: checkpoint.line - 1, prefixHash: null, fileStamp: null, ...provenance,
  };
}

async function finalState(source: Source, name: StoredName, plan: Plan, checkpoint: ResumePoint | null, provenance: Provenance, hash: Hasher): Promise<SourceState> {
  const bytesConsumed = source.appendable ? (checkpoint?.offset ?? 0) : null;
  const prefixHash = !source.appendable
    ? null
    : bytesConsumed === source.size
      ? plan.fingerprint
      : (await hash(source.path, bytesConsumed)).prefix;
  return {
    key: name.key, path: name.path, format: source.format, size: source.size, contentHash: plan.fingerprint,
    bytesConsumed, linesConsumed: source.appendable ? (checkpoint ? checkpoint.line - 1 : 0) : null, prefixHash,
    fileStamp: source.stamp ?? null, ...provenance,
  };
}

function addWritten(summary: IngestSummary, written: SourceWriteCounts, counts: RedactionCounts): void {
  summary.sessions += written.sessionsAdded;
  summary.messages += written.messagesAdded;
  summary.tool_calls += written.toolCallsAdded;
  summary.messages_updated += written.messagesUpdated;
  summary.tool_calls_updated += written.toolCallsUpdated;
  summary.messages_removed += written.messagesRemoved;
  summary.tool_calls_removed += written.toolCallsRemoved;
  for (const [kind, n] of Object.entries(counts)) summary.redactions_by_kind[kind] = (summary.redactions_by_kind[kind] ?? 0) + n;
  summary.redactions += totalRedactions(counts);
}

function redactOrigin(origin: SessionOrigin, counts: RedactionCounts): SessionOrigin {
  return {
    machine: origin.machine === null ? null : redactPath(origin.machine, counts),
    path: origin.path === null ? null : redactPath(origin.path, counts),
  };
}

/** Streams every source through redaction into the store, one transaction per source. */
export async function ingestSources(
  db: Database,
  sources: readonly Source[],
  options: IngestOptions,
  summary: IngestSummary = emptySummary(),
): Promise<IngestSummary> {
  const bytesTotal = sources.reduce((sum, source) => sum + source.size, 0);
  const identity = new SessionIdentity(db);
  const hash = options.hashFile ?? hashFile;
  const states = options.states ?? (await readSourceStates(db));
  let bytesDone = 0;
  let messagesSeen = 0;
  for (const [index, source] of sources.entries()) {
    const report = (extraBytes = 0): void =>
      options.onProgress?.({
        sourceIndex: index,
        sourceCount: sources.length,
        path: source.path,
        bytesDone: bytesDone + extraBytes,
        bytesTotal,
        messages: messagesSeen,
      });
    report();
    let writer: SourceWriter | null = null;
    const nameCounts: RedactionCounts = {};
    const name = storedName(source, options.redact, nameCounts);
    try {
      const state = states.get(name.key);
      const plan = await planSource(state, source, hash);
      if (plan.mode === 'skip') {
        // Proven unchanged by its bytes though its stamp moved (touched, copied back): record the new one.
        if (!plan.unopened && source.stamp && state && state.fileStamp !== source.stamp) await refreshFileStamp(db, name.key, source.stamp);
        summary.skipped_unchanged += 1;
        bytesDone += source.size;
        continue;
      }
      const counts: RedactionCounts = { ...nameCounts };
      const sessionIds = new Set<string>();
      const drift: SourceReport = emptySourceReport(source.path, source.format, plan.mode === 'replace', source.sessionId ?? null);
      const mode: WriteMode = plan.mode === 'append' && plan.resume ? { append: { fromLine: plan.resume.line } } : 'replace';
      writer = await SourceWriter.begin(db, name.key, mode, undefined, plan.fresh === true);
      const agent = agentOfFormat(source.format);
      // One session of a database, read whole: what it no longer holds leaves the store too.
      if (mode === 'replace' && source.sessionId) writer.ownsWholeSession(await identity.storedId(source.sessionId, agent, name.path));
      let checkpoint: ResumePoint | null = plan.resume ?? null;
      let committedAt = plan.resume?.offset ?? 0;
      let lastReport = Date.now();
      let origin: SessionOrigin | null = null;
      const commit = async (final: boolean): Promise<void> => {
        const provenance = provenanceOf(options.machine, origin);
        const state = final ? await finalState(source, name, plan, checkpoint, provenance, hash) : partialState(source, name, checkpoint as ResumePoint, provenance);
        const written = await (writer as SourceWriter).commit(state, totalRedactions(counts));
        addWritten(summary, written, counts);
        for (const kind of Object.keys(counts)) delete counts[kind];
      };
      for await (const raw of source.read(plan.resume)) {
        const item: IngestItem = await identity.apply(raw, agent, name.path);
        noteForReport(drift, item);
        switch (item.kind) {
          case 'session': {
            const session = options.redact ? redactSessionItem(item, counts) : item;
            writer.addSession(session.session);
            if (item.origin && !origin) origin = options.redact ? redactOrigin(item.origin, counts) : item.origin;
            sessionIds.add(session.session.id);
            for (const [field, n] of Object.entries(item.unknownFields ?? {})) {
              summary.unknown_fields[field] = (summary.unknown_fields[field] ?? 0) + n;
            }
            break;
          }
          case 'message': {
            const bounded = boundMessageItem(options.redact ? redactMessageItem(item, counts) : item);
            summary.texts_cut += bounded.cut;
            const message = bounded.item;
            await writer.addMessage(message.message, message.toolCalls);
            sessionIds.add(message.message.sessionId);
            messagesSeen += 1;
            break;
          }
          case 'unknown': {
            const redacted = options.redact ? { ...redactUnknownItem(item, counts), location: storedLocation(item.location, true, counts) } : item;
            const bounded = boundUnknownItem(redacted);
            summary.texts_cut += bounded.cut;
            writer.addUnknown(bounded.item);
            summary.unknown_records += 1;
            break;
          }
          case 'problem': {
            const problem: ProblemItem = options.redact
              ? { ...item, message: redactProblemMessage(item.message, counts), location: storedLocation(item.location, true, counts) }
              : item;
            writer.addProblem(problem);
            summary.errors.push(toError(problem.location, problem.message));
            break;
          }
          case 'checkpoint':
            checkpoint = { offset: item.offset, line: item.line };
            // A long transcript is committed in batches, each a consistent prefix of the file
            // (as if it had grown to here): DuckDB holds a transaction's rows in memory until commit.
            if (source.appendable && checkpoint.offset - committedAt >= (options.batchBytes ?? DEFAULT_BATCH_BYTES)) {
              await commit(false);
              committedAt = checkpoint.offset;
              writer = await SourceWriter.begin(db, name.key, { append: { fromLine: checkpoint.line } }, writer);
            }
            break;
          case 'run':
            writer.addRun(options.redact ? redactRunItem(item, counts) : item);
            break;
        }
        if (Date.now() - lastReport > 100) {
          lastReport = Date.now();
          report(checkpoint ? checkpoint.offset - (plan.resume?.offset ?? 0) : 0);
        }
      }
      await commit(true);
      writer = null;
      options.onSourceStored?.(source, index, sources.length);
      summary.sources += 1;
      summary.warnings.push(...warningsFor(drift));
      if (plan.mode === 'append') summary.resumed += 1;
      if (options.onSessionsWritten && sessionIds.size > 0) summary.derive_failures.push(...((await options.onSessionsWritten(db, [...sessionIds])) ?? []));
    } catch (error) {
      await writer?.rollback();
      summary.failed_sources += 1;
      if (error instanceof StoreError) summary.store_failures += 1;
      const message = error instanceof Error ? error.message : String(error);
      summary.errors.push({ file: name.path, line: null, path: null, message: `not ingested: ${options.redact ? redactProblemMessage(message, {}) : message}` });
    }
    bytesDone += source.size;
  }
  summary.renamed_sessions.push(...identity.renamed);
  options.onProgress?.({
    sourceIndex: sources.length,
    sourceCount: sources.length,
    path: '',
    bytesDone: bytesTotal,
    bytesTotal,
    messages: messagesSeen,
  });
  return summary;
}
