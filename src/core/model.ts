/**
 * The normalised event model every adapter produces and the store consumes.
 * Adapters know nothing of DuckDB; the store knows nothing of agents: this file is the contract
 * between them. Times are epoch milliseconds (UTC); free-form leftovers travel as JSON text.
 */

/** `atif`: a trajectory in the Agent Trajectory Interchange Format, whoever wrote it (its agent's name is kept in `extra`). */
export const AGENTS = ['opencode', 'claude', 'codex', 'retrace', 'atif'] as const;
export type Agent = (typeof AGENTS)[number];

export const FORMATS = [
  'opencode-export',
  'opencode-storage',
  'opencode-sqlite',
  'claude-jsonl',
  'codex-jsonl',
  'retrace-runlog',
  'atif-json',
] as const;
export type SourceFormat = (typeof FORMATS)[number];

/** Where a record came from, precise enough for a user to open the file at that place. */
export interface Location {
  file: string;
  /** 1-based line, when the format has lines. */
  line?: number;
  /** JSON path inside the document (`$.messages[12].parts[3]`), when it has no useful line. */
  path?: string;
}

export interface SessionRecord {
  id: string;
  agent: Agent;
  /** The session this one was spawned from (a subagent transcript), if any. */
  parentId: string | null;
  title: string | null;
  directory: string | null;
  startedAt: number | null;
  endedAt: number | null;
  model: string | null;
  /** Agent-specific fields retrace does not model, as a JSON object text. */
  extra: string | null;
}

export interface MessageRecord {
  sessionId: string;
  id: string;
  role: string;
  parentId: string | null;
  createdAt: number | null;
  completedAt: number | null;
  model: string | null;
  provider: string | null;
  tokensInput: number | null;
  tokensOutput: number | null;
  tokensReasoning: number | null;
  tokensCacheRead: number | null;
  tokensCacheWrite: number | null;
  cost: number | null;
  /** Visible text parts joined with blank lines. */
  text: string;
  /** Reasoning (thinking) parts joined with blank lines. */
  reasoning: string;
  error: string | null;
  extra: string | null;
}

export interface ToolCallRecord {
  sessionId: string;
  messageId: string;
  callId: string;
  tool: string;
  /** pending | running | completed | error */
  status: string;
  /** The tool's input as JSON text. */
  input: string;
  /** The shell command line when the tool ran one (bash, shell, exec_command…), else null. */
  command: string | null;
  output: string | null;
  title: string | null;
  startedAt: number | null;
  endedAt: number | null;
  durationMs: number | null;
  exitCode: number | null;
  timedOut: boolean;
  truncated: boolean;
  /** Calls of one message whose run times overlap share a group: the call id of its first call. */
  parallelGroup: string | null;
  extra: string | null;
}

/** A message and the tool calls it made, delivered together so groups can be computed. */
export interface MessageItem {
  kind: 'message';
  message: MessageRecord;
  toolCalls: ToolCallRecord[];
  location: Location;
}

export interface SessionItem {
  kind: 'session';
  session: SessionRecord;
  location: Location;
  /** Fields of a shape retrace does not model, by `record.field` name: kept in `extra`, counted here. */
  unknownFields?: Record<string, number>;
  /** The agent's version as the source states it (Claude Code `version`, Codex `cli_version`, opencode's session `version`), for drift reports. */
  agentVersion?: string | null;
  /**
   * Where the session was first recorded, when the source itself says so (an ATIF export names its
   * machine and transcript): kept as the source's provenance unless the user names a machine.
   */
  origin?: SessionOrigin;
}

export interface SessionOrigin {
  machine: string | null;
  path: string | null;
}

/** A record of a shape retrace does not know: kept raw and counted, never fatal. */
export interface UnknownItem {
  kind: 'unknown';
  sessionId: string | null;
  /** What it is, e.g. `part:snapshot`, `line:queue-operation`. */
  what: string;
  raw: string;
  location: Location;
  /**
   * A kind the adapter knows and keeps raw on purpose (Claude Code's `progress` lines, a command
   * the user ran with no call to attach to): stored like any other, but no sign of format drift.
   */
  expected?: boolean;
}

/** Bad input: reported with its place, everything around it still ingests. */
export interface ProblemItem {
  kind: 'problem';
  message: string;
  location: Location;
}

/** A safe place to resume an appendable source: nothing before it is still waiting for more lines. */
export interface CheckpointItem {
  kind: 'checkpoint';
  /** Byte offset of the next line to read. */
  offset: number;
  /** Its 1-based line number. */
  line: number;
}

/** A replay run read back from the run log of an exported script: its `runs` and `run_steps` rows. */
export interface RunRecord {
  id: string;
  /** The recorded session the run replayed. */
  sessionId: string | null;
  sessionTitle: string | null;
  planLabel: string;
  /** The plan as JSON (secret references only, never values). */
  planJson: string;
  mode: 'dry' | 'live';
  status: string;
  /** role → the hosts it ran on (`user@host`). */
  hosts: Record<string, string[]>;
  startedAt: number;
  endedAt: number | null;
  /** Where the run came from, e.g. `runlog:<file>`. */
  origin: string;
}

export interface RunStepRecord {
  stepId: string;
  stepIndex: number;
  role: string;
  host: string;
  attempt: number;
  description: string;
  command: string;
  guard: string | null;
  destructive: boolean;
  guardSatisfied: boolean | null;
  status: string;
  exitCode: number | null;
  timedOut: boolean;
  startedAt: number;
  endedAt: number | null;
  output: string;
  verdict: string | null;
  detail: string | null;
  /** The tool call that stands for this execution in the run's session. */
  callId: string;
}

export interface RunItem {
  kind: 'run';
  run: RunRecord;
  steps: RunStepRecord[];
  location: Location;
}

export type IngestItem = SessionItem | MessageItem | UnknownItem | ProblemItem | CheckpointItem | RunItem;

export function emptyMessage(sessionId: string, id: string, role: string): MessageRecord {
  return {
    sessionId,
    id,
    role,
    parentId: null,
    createdAt: null,
    completedAt: null,
    model: null,
    provider: null,
    tokensInput: null,
    tokensOutput: null,
    tokensReasoning: null,
    tokensCacheRead: null,
    tokensCacheWrite: null,
    cost: null,
    text: '',
    reasoning: '',
    error: null,
    extra: null,
  };
}
