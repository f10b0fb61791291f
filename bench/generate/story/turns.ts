/**
 * The format-neutral shape of a generated session: what an agent did, in order. Each writer turns
 * these into one agent's on-disk format (see docs/formats/), so every format carries the same story.
 */

export interface ShellCall {
  kind: 'shell';
  command: string;
  description: string;
  /** Everything the command printed (stdout then stderr), before any agent-side truncation. */
  output: string;
  /** null when the agent's tool killed it (timeout). */
  exit: number | null;
  timedOut: boolean;
  timeoutMs: number;
  startMs: number;
  endMs: number;
}

export interface SearchCall {
  kind: 'search';
  query: string;
  output: string;
  startMs: number;
  endMs: number;
}

export interface FetchCall {
  kind: 'fetch';
  url: string;
  output: string;
  startMs: number;
  endMs: number;
}

export type Call = ShellCall | SearchCall | FetchCall;

export interface Tokens {
  input: number;
  output: number;
  reasoning: number;
  cacheRead: number;
  cacheWrite: number;
}

/** One model response: its reasoning, its text, and the tools it called (in parallel when more than one). */
export interface AssistantStep {
  role: 'assistant';
  startMs: number;
  endMs: number;
  reasoning: string | null;
  text: string | null;
  calls: Call[];
  tokens: Tokens;
  cost: number;
  /** The response ends the turn (no tool calls): `stop` / `end_turn`. */
  final: boolean;
}

export interface UserPrompt {
  role: 'user';
  atMs: number;
  text: string;
}

export type Turn = AssistantStep | UserPrompt;

export interface SessionInfo {
  title: string;
  cwd: string;
  model: string;
  startMs: number;
  /** The operator's account on the fleet, for the `ssh user@host` of every command. */
  fleetUser: string;
}
