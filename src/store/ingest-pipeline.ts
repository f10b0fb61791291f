import { StoreError } from './errors.js';
import { CommitGroup, GROUP_SOURCE_BYTES } from './commit-group.js';
import { addWritten, emptySummary, mergeSummary, type IngestSummary, type SessionFailure } from './ingest-summary.js';
import { readSourceStates, refreshFileStamp } from './sources.js';
import { SessionIdentity } from './session-identity.js';
import type { SourceState, SourceWriter } from './source-writer.js';
import { DEFAULT_BATCH_BYTES, planSource, type MachineLabel, type Plan } from './source-plan.js';
import { storeSource, type SourceRun } from './store-source.js';
import type { Database } from './database.js';
import { hashFile, type FileHashes } from '../core/io/hash.js';
import { redactProblemMessage } from '../core/redact/redact-item.js';
import type { RedactionCounts } from '../core/redact/redact.js';
import type { Source } from '../core/source.js';
import { storedName, type StoredName } from './stored-name.js';

export { emptySummary, type IngestError, type IngestSummary, type SessionFailure } from './ingest-summary.js';
export type { MachineLabel } from './source-plan.js';

export interface IngestProgress {
  sourceIndex: number;
  sourceCount: number;
  path: string;
  bytesDone: number;
  bytesTotal: number;
  messages: number;
}

export interface IngestOptions {
  redact: boolean;
  /** Provenance of every source written (none: left unknown). */
  machine?: MachineLabel;
  onProgress?: (progress: IngestProgress) => void;
  /**
   * Bytes of an appendable transcript per transaction (default 64 MB). Sources smaller than this
   * and than 1 MiB are stored in groups, several to a transaction (commit-group.ts).
   */
  batchBytes?: number;
  /** Called as each source is committed (in a group: when the group is), before its sessions are derived. */
  onSourceStored?: (source: Source, index: number, count: number) => void;
  /** The store's records of its sources, when the caller read them already (for discovery). */
  states?: ReadonlyMap<string, SourceState>;
  /** How an appendable file is hashed (tests count the files opened through it). */
  hashFile?: (path: string, prefixBytes?: number | null) => Promise<FileHashes>;
  /** Called after each committed source with the sessions it touched (derived tables hook here). */
  onSessionsWritten?: (db: Database, sessionIds: readonly string[]) => Promise<readonly SessionFailure[] | void>;
}

/** A source read and stored (or, in a group, waiting for the group's commit), with what it found. */
interface Pending {
  index: number;
  source: Source;
  name: StoredName;
  nameCounts: RedactionCounts;
  plan: Plan;
  local: IngestSummary;
  sessionIds: string[];
}

/**
 * Streams every source through redaction into the store. A source is stored whole or not at all:
 * alone in its transaction (a large one: in batches, see DEFAULT_BATCH_BYTES), or, when small,
 * in a group of small ones sharing one commit; a source that fails in a group rolls the group
 * back, and its other sources are stored again one by one (so one bad file costs its neighbours
 * a second read, never their place in the store).
 */
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
  const batchBytes = options.batchBytes ?? DEFAULT_BATCH_BYTES;
  const group = new CommitGroup<Pending>(db);
  let bytesDone = 0;
  let messagesSeen = 0;
  const report = (index: number, path: string, extraBytes = 0): void =>
    options.onProgress?.({ sourceIndex: index, sourceCount: sources.length, path, bytesDone: bytesDone + extraBytes, bytesTotal, messages: messagesSeen });
  const runFor = (index: number, source: Source, group: SourceWriter | null): SourceRun => ({
    db, identity, redact: options.redact, machine: options.machine, hash, batchBytes, group,
    onMessage: () => {
      messagesSeen += 1;
    },
    onProgress: (into) => report(index, source.path, into),
  });

  /** What a committed source leaves: its findings in the summary, its callbacks, its derivation. */
  const afterCommit = async (done: Pending): Promise<void> => {
    mergeSummary(summary, done.local);
    options.onSourceStored?.(done.source, done.index, sources.length);
    if (options.onSessionsWritten && done.sessionIds.length > 0) {
      summary.derive_failures.push(...((await options.onSessionsWritten(db, done.sessionIds)) ?? []));
    }
  };

  const failed = (pending: Pick<Pending, 'name' | 'local'>, error: unknown): void => {
    mergeSummary(summary, pending.local);
    summary.failed_sources += 1;
    if (error instanceof StoreError) summary.store_failures += 1;
    const message = error instanceof Error ? error.message : String(error);
    summary.errors.push({ file: pending.name.path, line: null, path: null, message: `not ingested: ${options.redact ? redactProblemMessage(message, {}) : message}` });
  };

  /** Stores a source in its own transaction (never grouped): committed, or reported failed. */
  const storeAlone = async (pending: Pending): Promise<void> => {
    try {
      const stored = await storeSource(runFor(pending.index, pending.source, null), pending.source, pending.name, pending.nameCounts, pending.plan, pending.local);
      await afterCommit({ ...pending, sessionIds: stored.sessionIds });
    } catch (error) {
      failed(pending, error);
    }
  };

  /** The group's sources again, each alone, after the group was rolled back (their findings start over). */
  const storeAgainAlone = async (members: readonly Pending[]): Promise<void> => {
    for (const member of members) await storeAlone({ ...member, local: emptySummary(), sessionIds: [] });
  };

  const commitGroup = async (): Promise<void> => {
    const outcome = await group.commit();
    if ('committed' in outcome) {
      // The group's rows were merged and counted together: their counts go to the run's summary.
      if (outcome.written) addWritten(summary, outcome.written, {});
      for (const done of outcome.committed) await afterCommit(done);
    }
    else await storeAgainAlone(outcome.failed);
  };

  for (const [index, source] of sources.entries()) {
    report(index, source.path);
    const nameCounts: RedactionCounts = {};
    const name = storedName(source, options.redact, nameCounts);
    const local = emptySummary();
    let plan: Plan;
    try {
      const state = states.get(name.key);
      plan = await planSource(state, source, hash);
      if (plan.mode === 'skip') {
        // Proven unchanged by its bytes though its stamp moved (touched, copied back): record the new one.
        if (!plan.unopened && source.stamp && state && state.fileStamp !== source.stamp) await refreshFileStamp(db, name.key, source.stamp);
        summary.skipped_unchanged += 1;
        bytesDone += source.size;
        continue;
      }
    } catch (error) {
      failed({ name, local }, error);
      bytesDone += source.size;
      continue;
    }
    const pending: Pending = { index, source, name, nameCounts, plan, local, sessionIds: [] };
    const small = source.size < Math.min(GROUP_SOURCE_BYTES, batchBytes);
    if (!small) {
      await commitGroup();
      await storeAlone(pending);
    } else {
      try {
        const writer = await group.begin();
        const stored = await storeSource(runFor(index, source, writer), source, name, nameCounts, plan, local);
        group.add({ ...pending, sessionIds: stored.sessionIds }, source.size, stored.textLength);
        if (group.full()) await commitGroup();
      } catch (error) {
        // This source failed inside the group: the group is rolled back, this one reported, the rest stored again alone.
        const members = await group.abandon();
        failed(pending, error);
        await storeAgainAlone(members);
      }
    }
    bytesDone += source.size;
  }
  await commitGroup();
  summary.renamed_sessions.push(...identity.renamed);
  options.onProgress?.({ sourceIndex: sources.length, sourceCount: sources.length, path: '', bytesDone: bytesTotal, bytesTotal, messages: messagesSeen });
  return summary;
}
