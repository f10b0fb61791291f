import type { SourceState } from './source-writer.js';
import type { FileHashes } from '../core/io/hash.js';
import type { SessionOrigin } from '../core/model.js';
import { redactPath } from '../core/redact/redact-item.js';
import type { RedactionCounts } from '../core/redact/redact.js';
import type { ResumePoint, Source } from '../core/source.js';
import type { StoredName } from './stored-name.js';

/** The user's machine label (see IngestOptions.machine). */
export interface MachineLabel {
  name: string;
  explicit: boolean;
}

export interface Plan {
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
 * modification time and inode as when it was read whole (a half-stored source, `partial`, is never trusted).
 */
function unchangedByStamp(state: SourceState | undefined, source: Source): boolean {
  return !!state && !!source.stamp && state.fileStamp === source.stamp && state.size === source.size && state.contentHash !== 'partial';
}

export type Hasher = (path: string, prefixBytes?: number | null) => Promise<FileHashes>;

/**
 * Skip a source whose stamp is unchanged (nothing opened) or, when its stamp moved, whose content
 * hash is; resume a grown JSONL whose old bytes are untouched; else read it whole.
 */
export async function planSource(state: SourceState | undefined, source: Source, hash: Hasher): Promise<Plan> {
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
export const DEFAULT_BATCH_BYTES = 64 * 1024 * 1024;

interface Provenance {
  machine: string | null;
  originalPath: string | null;
}

/** The user's --machine, else what the source says of itself, else this machine's name. */
export function provenanceOf(label: MachineLabel | undefined, origin: SessionOrigin | null): Provenance {
  const machine = label?.explicit ? label.name : (origin?.machine ?? label?.name ?? null);
  return { machine, originalPath: origin?.path ?? null };
}

export function partialState(source: Source, name: StoredName, checkpoint: ResumePoint, provenance: Provenance): SourceState {
  // No prefix hash: should the process die before the last batch, the next ingest reads the file
  // again from the start (rows already stored are matched, not duplicated).
  return {
    key: name.key, path: name.path, format: source.format, size: source.size, contentHash: 'partial',
    bytesConsumed: checkpoint.offset, linesConsumed: checkpoint.line - 1, prefixHash: null, fileStamp: null, ...provenance,
  };
}

export async function finalState(source: Source, name: StoredName, plan: Plan, checkpoint: ResumePoint | null, provenance: Provenance, hash: Hasher): Promise<SourceState> {
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

export function redactOrigin(origin: SessionOrigin, counts: RedactionCounts): SessionOrigin {
  return {
    machine: origin.machine === null ? null : redactPath(origin.machine, counts),
    path: origin.path === null ? null : redactPath(origin.path, counts),
  };
}

