/** Where a writer stops: the first of a message count or a byte count. */
export interface SessionLimits {
  messages: number;
  bytes: number;
}

/** What one writer put on disk for one session. */
export interface WrittenSession {
  id: string;
  files: string[];
  bytes: number;
  /** Messages as retrace counts them: typed prompts and model responses. */
  messages: number;
  toolCalls: number;
  /** Files written, when a session is more than one file (storage trees). */
  fileCount?: number;
}
