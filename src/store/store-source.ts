import type { SessionIdentity } from './session-identity.js';
import { NO_ROWS_WRITTEN, SourceWriter, type WriteMode } from './source-writer.js';
import type { Database } from './database.js';
import { addWritten, toError, type IngestSummary } from './ingest-summary.js';
import { finalState, partialState, provenanceOf, redactOrigin, type Hasher, type MachineLabel, type Plan } from './source-plan.js';
import { storedLocation, type StoredName } from './stored-name.js';
import { boundMessageItem, boundUnknownItem } from '../core/bounded-text.js';
import type { IngestItem, ProblemItem, SessionOrigin } from '../core/model.js';
import { redactMessageItem, redactProblemMessage, redactSessionItem, redactUnknownItem } from '../core/redact/redact-item.js';
import { totalRedactions, type RedactionCounts } from '../core/redact/redact.js';
import { redactRunItem } from '../core/redact/redact-run.js';
import type { ResumePoint, Source } from '../core/source.js';
import { agentOfFormat, emptySourceReport, noteForReport, warningsFor, type SourceReport } from '../core/warnings.js';

/** What storing one source needs from the run it is part of. */
export interface SourceRun {
  db: Database;
  identity: SessionIdentity;
  redact: boolean;
  machine?: MachineLabel;
  hash: Hasher;
  /** Bytes of an appendable transcript per transaction. */
  batchBytes: number;
  /** The writer of the group's transaction this source is part of (commit-group.ts): no transaction of its own, and no batches. */
  group: SourceWriter | null;
  /** Every message read (progress), and now and then how far into the source reading is. */
  onMessage: () => void;
  onProgress: (bytesIntoSource: number) => void;
}

export interface StoredSource {
  sessionIds: string[];
  /** Characters of text written (what the commit of a group holding it must hold in memory). */
  textLength: number;
}

/**
 * Reads one source through redaction into its writer and commits it (in a group: leaves it for
 * the group's commit, and its rows to the group's merge). What it finds goes to `local`; on failure the writer is rolled back and
 * the error thrown, `local` holding what was found up to there.
 */
export async function storeSource(run: SourceRun, source: Source, name: StoredName, nameCounts: RedactionCounts, plan: Plan, local: IngestSummary): Promise<StoredSource> {
  const { db, identity } = run;
  const counts: RedactionCounts = { ...nameCounts };
  const sessionIds = new Set<string>();
  const drift: SourceReport = emptySourceReport(source.path, source.format, plan.mode === 'replace', source.sessionId ?? null);
  const mode: WriteMode = plan.mode === 'append' && plan.resume ? { append: { fromLine: plan.resume.line } } : 'replace';
  let writer = run.group ?? (await SourceWriter.begin(db, name.key, mode, undefined, plan.fresh === true));
  run.group?.startSource(name.key, mode, plan.fresh === true);
  try {
    const agent = agentOfFormat(source.format);
    // One session of a database, read whole: what it no longer holds leaves the store too.
    if (mode === 'replace' && source.sessionId) writer.ownsWholeSession(await identity.storedId(source.sessionId, agent, name.path));
    let checkpoint: ResumePoint | null = plan.resume ?? null;
    let committedAt = plan.resume?.offset ?? 0;
    let lastReport = Date.now();
    let origin: SessionOrigin | null = null;
    let textLength = 0;
    const commit = async (final: boolean): Promise<void> => {
      const provenance = provenanceOf(run.machine, origin);
      const state = final ? await finalState(source, name, plan, checkpoint, provenance, run.hash) : partialState(source, name, checkpoint as ResumePoint, provenance);
      textLength += writer.appendedText;
      if (run.group) {
        // Its rows are merged, and counted, with the group's.
        run.group.endSource(state, totalRedactions(counts));
        addWritten(local, NO_ROWS_WRITTEN, counts);
      } else {
        addWritten(local, await writer.commit(state, totalRedactions(counts)), counts);
      }
      for (const kind of Object.keys(counts)) delete counts[kind];
    };
    for await (const raw of source.read(plan.resume)) {
      const item: IngestItem = await identity.apply(raw, agent, name.path);
      noteForReport(drift, item);
      switch (item.kind) {
        case 'session': {
          const session = run.redact ? redactSessionItem(item, counts) : item;
          writer.addSession(session.session);
          if (item.origin && !origin) origin = run.redact ? redactOrigin(item.origin, counts) : item.origin;
          sessionIds.add(session.session.id);
          for (const [field, n] of Object.entries(item.unknownFields ?? {})) {
            local.unknown_fields[field] = (local.unknown_fields[field] ?? 0) + n;
          }
          break;
        }
        case 'message': {
          const bounded = boundMessageItem(run.redact ? redactMessageItem(item, counts) : item);
          local.texts_cut += bounded.cut;
          const message = bounded.item;
          await writer.addMessage(message.message, message.toolCalls);
          sessionIds.add(message.message.sessionId);
          run.onMessage();
          break;
        }
        case 'unknown': {
          const redacted = run.redact ? { ...redactUnknownItem(item, counts), location: storedLocation(item.location, true, counts) } : item;
          const bounded = boundUnknownItem(redacted);
          local.texts_cut += bounded.cut;
          writer.addUnknown(bounded.item);
          local.unknown_records += 1;
          break;
        }
        case 'problem': {
          const problem: ProblemItem = run.redact
            ? { ...item, message: redactProblemMessage(item.message, counts), location: storedLocation(item.location, true, counts) }
            : item;
          writer.addProblem(problem);
          local.errors.push(toError(problem.location, problem.message));
          break;
        }
        case 'checkpoint':
          checkpoint = { offset: item.offset, line: item.line };
          // A long transcript is committed in batches, each a consistent prefix of the file
          // (as if it had grown to here): DuckDB holds a transaction's rows in memory until commit.
          if (!run.group && source.appendable && checkpoint.offset - committedAt >= run.batchBytes) {
            await commit(false);
            committedAt = checkpoint.offset;
            writer = await SourceWriter.begin(db, name.key, { append: { fromLine: checkpoint.line } }, writer);
          }
          break;
        case 'run':
          writer.addRun(run.redact ? redactRunItem(item, counts) : item);
          break;
      }
      if (Date.now() - lastReport > 100) {
        lastReport = Date.now();
        run.onProgress(checkpoint ? checkpoint.offset - (plan.resume?.offset ?? 0) : 0);
      }
    }
    await commit(true);
    local.sources += 1;
    local.warnings.push(...warningsFor(drift));
    if (plan.mode === 'append') local.resumed += 1;
    return { sessionIds: [...sessionIds], textLength };
  } catch (error) {
    await writer.rollback();
    throw error;
  }
}
