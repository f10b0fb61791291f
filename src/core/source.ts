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
  /**
   * The file's size, modification time and inode when it was found (src/core/io/file-stamp.ts): equal to what
   * the store recorded, the source is skipped without being opened. Absent or null: fingerprinted.
   */
  stamp?: string | null;
  /** JSONL transcripts only grow: a grown file is read from where the last ingest stopped. */
  appendable: boolean;
  /** Changes whenever the content does. */
  fingerprint(): Promise<string>;
  read(resume?: ResumePoint): AsyncIterable<IngestItem>;
}

/**
 * What the store recorded of a file read as exactly one source (a transcript, an export), found
 * again with the same stamp: discovery takes its word and does not open the file to detect it.
 */
export interface KnownFile {
  format: SourceFormat;
  /** What the store recorded: the pipeline compares them again with the source's and skips it. */
  size: number;
  stamp: string;
  appendable: boolean;
}

/** Formats whose source is a whole file keyed by its path (a database or a storage tree holds many). */
export const ONE_FILE_FORMATS: ReadonlySet<SourceFormat> = new Set(['claude-jsonl', 'codex-jsonl', 'opencode-export', 'atif-json', 'retrace-runlog']);
