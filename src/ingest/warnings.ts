import type { IngestWarning, SourceReadSummary } from '../core/drift.js';
import type { Agent, SourceFormat } from '../core/model.js';

/*
 * Loud on drift: a transcript format that changed under retrace shows up as a source that yields
 * nothing, or mostly records of shapes retrace does not know. Both are named, never silent. Pure:
 * the store fills a SourceReadSummary per source it read whole and hands it here (the CLI wires
 * this in as `judgeSource`); the CLI prints what it returns.
 */

/** When unknown records are drift rather than a few stray lines. */
export interface DriftThresholds {
  /** Share of a source's records (messages + unknown) above which its unknown records are named. */
  unknownShare: number;
  /** Fewer unknown records than this are never named: one new record type is not yet drift. */
  unknownMinimum: number;
  /**
   * Kinds an adapter keeps raw on purpose (bookkeeping lines it has no column for): not drift.
   * Data, so an adapter that decides a kind is harmless adds it here rather than in code.
   */
  expectedKinds: ReadonlySet<string>;
}

export const DRIFT_THRESHOLDS: DriftThresholds = { unknownShare: 0.25, unknownMinimum: 10, expectedKinds: new Set() };

const AGENT_OF_FORMAT = {
  'opencode-export': 'opencode',
  'opencode-storage': 'opencode',
  'opencode-sqlite': 'opencode',
  'claude-jsonl': 'claude',
  'codex-jsonl': 'codex',
  'retrace-runlog': 'retrace',
} as const satisfies Record<SourceFormat, Agent>;

export function agentOfFormat(format: SourceFormat): Agent {
  return AGENT_OF_FORMAT[format];
}

export function warningsFor(source: SourceReadSummary, thresholds: DriftThresholds = DRIFT_THRESHOLDS): IngestWarning[] {
  const warn = (reason: string): IngestWarning[] => [
    { file: source.file, agent: agentOfFormat(source.format), version: source.version, reason: source.session ? `session ${source.session}: ${reason}` : reason },
  ];
  const drifted = Object.entries(source.unknownByKind).filter(([kind]) => !thresholds.expectedKinds.has(kind));
  const unknown = drifted.reduce((sum, [, n]) => sum + n, 0);
  const kinds = drifted
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, 5)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  if (source.messages === 0) {
    return warn(unknown > 0 ? `no messages read: all ${unknown} records are of shapes retrace does not know (${kinds})` : 'no messages read');
  }
  const total = source.messages + source.unknownRecords;
  if (unknown >= thresholds.unknownMinimum && unknown / total > thresholds.unknownShare) {
    const percent = Math.round((100 * unknown) / total);
    return warn(`${unknown} of ${total} records (${percent}%) are of shapes retrace does not know (${kinds})`);
  }
  return [];
}
