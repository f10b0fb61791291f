import type { Agent, SourceFormat } from '../core/model.js';
import type { Source } from '../core/source.js';

/** The first bytes of a file, for telling formats apart by content rather than by name. */
export interface FileHead {
  path: string;
  /** Up to the first 64 KiB, decoded as UTF-8 (decompressed first for .zst files); empty for SQLite. */
  text: string;
  /** The file starts with the SQLite header. */
  sqlite: boolean;
  /** For a SQLite file, the names of its tables (as SQLite lists them); empty otherwise. */
  sqliteTables: readonly string[];
  /** Why the file cannot be read at all (a corrupt or oversized .zst), when it cannot. */
  problem?: string;
}

/** One agent's knowledge of where its transcripts live and how they look; nothing of the store. */
export interface Adapter {
  agent: Agent;
  formats: readonly SourceFormat[];
  /** The format of a file, judged from its first bytes, or null when it is not this agent's. */
  detect(head: FileHead): SourceFormat | null;
  /**
   * The format to read a file as when the user named this agent (`--format`) and detect() found
   * nothing: the user's word is honoured, and a file that is not of that format fails with the
   * reader's own error rather than a silent "not a transcript".
   */
  assume?(head: FileHead): SourceFormat;
  sourcesForFile(path: string, format: SourceFormat): Promise<Source[]>;
  /** A folder whose layout this agent owns, read as a whole rather than walked; null if not one. */
  sourcesForLayout?(dir: string): Promise<Source[] | null>;
  /** The agent version a file states in its first bytes (for reports about the file), or null. */
  versionOf?(head: FileHead): string | null;
  /** Where the agent keeps transcripts when the user names no path. */
  defaultLocations(env: NodeJS.ProcessEnv, home: string): string[];
}
