import type { Agent, SourceFormat } from './model.js';

/**
 * What one source yielded, as the drift checks see it: the store fills it for every source it
 * reads whole, src/ingest/warnings.ts judges it, the CLI prints the verdict.
 */
export interface SourceReadSummary {
  file: string;
  /** The session, when the source is one session of a database or storage tree. */
  session: string | null;
  format: SourceFormat;
  /** The agent's version as the source states it (its first session's), when it does. */
  version: string | null;
  /** Messages read from the source (changed or not), and records of shapes retrace does not know. */
  messages: number;
  unknownRecords: number;
  /** The unknown records by what they are (`line:progress`, `message:idle`, `part:hologram`). */
  unknownByKind: Readonly<Record<string, number>>;
}

/** A source whose format may have changed under retrace: named in the summary, never silent. */
export interface IngestWarning {
  file: string;
  agent: Agent;
  version: string | null;
  reason: string;
}
