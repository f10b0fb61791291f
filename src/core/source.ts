import type { IngestItem, SourceFormat } from './model.js';

/** Where an appendable source's last read stopped: a line boundary. */
export interface ResumePoint {
  offset: number;
  line: number;
}

/**
 * One unit of ingest: written to the store in one transaction, skipped when its fingerprint is
 * unchanged. A file, or one session inside a storage tree or a database file.
 */
export interface Source {
  /** Unique in the store: the absolute path, or `path#session` for one session of a database. */
  key: string;
  /** The file a user should open to see it. */
  path: string;
  format: SourceFormat;
  size: number;
  /** Set when the source is exactly one session (a storage-tree or database session). */
  sessionId?: string;
  /** JSONL transcripts only grow: a grown file is read from where the last ingest stopped. */
  appendable: boolean;
  /** Changes whenever the content does. */
  fingerprint(): Promise<string>;
  read(resume?: ResumePoint): AsyncIterable<IngestItem>;
}
