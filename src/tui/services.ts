import type { TimelineEntry } from '../core/views/timeline-entry.js';
import type { RunController } from '../core/run/events.js';
import type { RunSummary } from '../core/run/summary.js';

/**
 * Everything the TUI may ask for. The TUI never touches DuckDB or ssh2: the CLI builds these
 * services over the query and replay layers (src/cli/tui-services.ts) and hands them in. Every
 * list that can be long is paged, so a 10,000-message session never loads whole.
 */
export interface SessionRow {
  id: string;
  agent: string;
  title: string | null;
  started_at: string | null;
  ended_at: string | null;
  messages: number;
  tool_calls: number;
  /** Candidates of its decision tree; null when the tree has not been derived for it. */
  candidates: number | null;
  parent_id: string | null;
  /** Provenance: the machine it came from and the agent's working directory, when known. */
  machine?: string | null;
  directory?: string | null;
  /** The newest replay of the session (dry or live), so the list says what became of it. */
  last_run?: { id: string; mode: string; status: string; started_at: string | null } | null;
  /** How many replays the store holds for it. */
  runs?: number;
}

/** One line of the timeline: a message, or one of its tool calls (as the query layer pages them). */
export type TimelineRow = TimelineEntry;

/** A long text the pager shows a window of: a tool call's output, its command as recorded, or a message's full text. */
export type TextTarget =
  | { kind: 'call'; callId: string }
  | { kind: 'message'; ordinal: number }
  | { kind: 'command'; callId: string }
  /** The session's replay plan as `retrace plan SESSION` prints it (YAML). */
  | { kind: 'plan' };

export interface Page<T> {
  rows: T[];
  /** Total rows in the whole list (for the scroll position). */
  total: number;
  offset: number;
}

export interface OutputPage {
  call_id: string;
  title: string;
  lines: string[];
  total_lines: number;
  offset: number;
}

export interface TreeView {
  session: string;
  goal: string | null;
  candidates: { name: string; kind: string; verdict: string; reason: string | null; evidence: { message_ordinal: number; call_id: string }[] }[];
  pivots: { from: string; to: string; message_ordinal: number; reason: string | null }[];
}

export interface WhyView {
  candidate: string;
  verdict: string;
  reason: string | null;
  evidence: WhyEvidenceRow[];
  reasoning: { message_ordinal: number; text: string }[];
}

/** One evidence step of a why: what the call was, how it came out, and the output lines that decided it. */
export interface WhyEvidenceRow {
  message_ordinal: number;
  call_id: string;
  command: string;
  decisive_lines: string[];
  /** The classified action (`pull`, `probe`, `health` …) and its outcome (`ok`, `negative` …). */
  kind: string;
  outcome: string;
  /** This step's result decided the verdict (the CLI's `(decisive)`). */
  decisive: boolean;
  host: string | null;
  duration_ms: number | null;
}

/** The replay plan built from the session's stored derivation: its YAML, and its steps to list. */
export interface PlanView {
  session: string;
  candidate: string | null;
  purpose: string;
  /** The plan exactly as `retrace plan SESSION` prints it, line by line. */
  yaml: string[];
  steps: PlanStepRow[];
}

export interface PlanStepRow {
  id: string;
  roles: string[];
  command: string;
  destructive: boolean;
  /** The recorded call the step came from, to jump to it. */
  message_ordinal: number | null;
  call_id: string | null;
}

export interface TimingRow {
  kind: string;
  subject: string;
  host: string | null;
  attempt: number;
  started_at: string | null;
  duration_ms: number | null;
  outcome: string;
  bytes?: number | null;
  mb_per_s?: number | null;
  /** Where the attempt was made, to jump to it. */
  message_ordinal?: number | null;
  call_id?: string | null;
}

/** A past dry or live run, as the store lists it. */
export type RunRow = RunSummary;

export interface RunStepRow {
  step_id: string;
  ordinal: number;
  role: string;
  host: string | null;
  /** Set when the role ran on several hosts: the host's address, to tell its rows apart. */
  fleet_host?: string;
  command: string;
  status: string;
  exit_code: number | null;
  duration_ms: number | null;
  verdict: string | null;
  detail: string | null;
  /** This run's output of the step (its end, when long), secrets scrubbed; null when it did not run. */
  output?: string | null;
  /** What the transcript recorded for this step on this host's role, for the side-by-side view. */
  recorded: { call_id?: string; exit_code: number | null; duration_ms: number | null; output_excerpt: string | null; output?: string | null } | null;
}

export interface TuiServices {
  listSessions(): Promise<SessionRow[]>;
  timeline(sessionId: string, offset: number, limit: number): Promise<Page<TimelineRow>>;
  /** Indexes of timeline rows whose text, command or output contains `query` (case-insensitive). */
  searchTimeline(sessionId: string, query: string): Promise<number[]>;
  /** Index of the timeline row of a message ordinal (to jump there from evidence). */
  timelineIndexOf(sessionId: string, messageOrdinal: number): Promise<number | null>;
  toolOutput(sessionId: string, callId: string, offset: number, limit: number): Promise<OutputPage>;
  /** A message's text (reasoning first), paged by line like a tool output; `call_id` is `#ordinal`. */
  messageText(sessionId: string, ordinal: number, offset: number, limit: number): Promise<OutputPage>;
  /** A tool call's command exactly as recorded (\`ssh host '…'\`, not the summary), paged by line. */
  commandText(sessionId: string, callId: string, offset: number, limit: number): Promise<OutputPage>;
  /**
   * Puts text on the user's clipboard (OSC 52 through the terminal) and saves it to a file, for a
   * terminal that ignores OSC 52; answers what was done, in words for the status line.
   */
  copy(text: string): Promise<string>;
  /** Line numbers (0-based) of a call output or message text that contain `query` (case-insensitive). */
  searchText(sessionId: string, target: TextTarget, query: string): Promise<number[]>;
  tree(sessionId: string): Promise<TreeView>;
  why(sessionId: string, candidate: string): Promise<WhyView>;
  /**
   * The plan a replay of the session would run (its winning path), built from the stored
   * derivation; rejects with the reason when the session gives no plan (it deploys nothing).
   */
  plan(sessionId: string): Promise<PlanView>;
  timings(sessionId: string | null): Promise<TimingRow[]>;
  listRuns(): Promise<RunRow[]>;
  runSteps(runId: string): Promise<RunStepRow[]>;
  /** Set when the TUI was opened on a live run (`retrace replay … --live --tui`, or `retrace tui --run ID` of a running one). */
  liveRun?: RunController;
  /**
   * Set when `liveRun` is followed from the store (`retrace tui --run ID` in another terminal):
   * the run is steered from the terminal that started it, process `pid`; this TUI only watches.
   */
  liveRunWatch?: { pid: number | null };
}
