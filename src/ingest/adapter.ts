import type { Agent, SourceFormat } from '../core/model.js';
import type { Source } from '../core/source.js';

/** The first bytes of a file, for telling formats apart by content rather than by name. */
export interface FileHead {
  path: string;
  /** Up to the first 64 KiB, decoded as UTF-8 (decompressed first for .zst files). */
  text: string;
  /** The file starts with the SQLite header. */
  sqlite: boolean;
  /** Why the file cannot be read at all (a corrupt or oversized .zst), when it cannot. */
  problem?: string;
}

/** One agent's knowledge of where its transcripts live and how they look; nothing of the store. */
export interface Adapter {
  agent: Agent;
  formats: readonly SourceFormat[];
  /** The format of a file, judged from its first bytes, or null when it is not this agent's. */
  detect(head: FileHead): SourceFormat | null;
  sourcesForFile(path: string, format: SourceFormat): Promise<Source[]>;
  /** A folder whose layout this agent owns, read as a whole rather than walked; null if not one. */
  sourcesForLayout?(dir: string): Promise<Source[] | null>;
  /** Where the agent keeps transcripts when the user names no path. */
  defaultLocations(env: NodeJS.ProcessEnv, home: string): string[];
}
