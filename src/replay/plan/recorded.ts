import { imageDisplayName, type ActionKind, type Outcome } from '../../query/classify/index.js';
import type { StoredAction, StoredDerivation, StoredToolCall } from '../../query/stored-derivation.js';

/**
 * What plan extraction reads of a recorded session: its tool calls in order, each with the actions
 * the stored derivation found in it (a command a later poll finished carries that poll's result),
 * and the verdicts of the stored decision tree. Built from `loadDerivation` only: nothing is
 * classified again, so the plan follows exactly the tree `retrace tree` shows.
 */

export interface RecordedAction {
  kind: ActionKind;
  outcome: Outcome;
  rule: string;
  subject: string | null;
  image: string | null;
  model: string | null;
  service: string | null;
  container: string | null;
  port: number | null;
  packages: string[];
  reading: string | null;
  framework: string | null;
  /** Where it ran (the ssh target), null for where the agent ran. */
  host: string | null;
  user: string | null;
  /** The simple command, as the classifier read it, and its place in the call's parsed commands. */
  command: string;
  commandSeq: number | null;
  background: boolean;
  /** The tree candidate whose evidence this call is. */
  candidate: string | null;
}

export interface RecordedCall {
  callId: string;
  messageOrdinal: number;
  tool: string;
  /** The tool's input as recorded (JSON text). */
  input: string;
  /** The shell command line, or null for a tool that is not a shell. */
  command: string | null;
  parallelGroup: string | null;
  description: string | null;
  output: string;
  exitCode: number | null;
  timedOut: boolean;
  /**
   * The tool reported an error and no exit: the user rejected the call, or the tool refused or
   * failed to run it. What it would have done never happened on the recorded machine.
   */
  notRun: boolean;
  startedAt: number | null;
  durationMs: number | null;
  /** The agent's own timeout for the call (bash `timeout` input), in ms. */
  timeoutMs: number | null;
  actions: RecordedAction[];
}

export interface RecordedCandidate {
  name: string;
  kind: string;
  verdict: string;
  framework: string | null;
  parent: string | null;
  /** The calls the tree took as its evidence. */
  calls: string[];
  /** Why the tree judged it so (empty when it gave no reason). */
  reason: string;
  /**
   * The last message of the evidence that decided the verdict; null when no step decided it (a
   * judgement in prose, or "too slow" said of a service that answered: that judged the service).
   */
  judgedAt: number | null;
}

export interface RecordedSession {
  session: { id: string; title: string | null };
  agent: string;
  /** The agent's working directory when the session started. */
  directory: string | null;
  goal: string | null;
    /** The image the decision tree accepted, as written in commands; null when none was. */
  accepted: string | null;
  candidates: RecordedCandidate[];
  messages: { ordinal: number; role: string; text: string }[];
  calls: RecordedCall[];
}

export function inputField(input: string, field: string): unknown {
  try {
    const parsed: unknown = JSON.parse(input);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>)[field] : undefined;
  } catch {
    return undefined;
  }
}

function toAction(action: StoredAction): RecordedAction {
  return {
    kind: action.kind,
    outcome: action.outcome,
    rule: action.rule,
    subject: action.subject,
    image: action.image,
    model: action.model,
    service: action.service,
    container: action.container,
    port: action.port,
    packages: action.packages,
    reading: action.reading,
    framework: action.framework,
    host: action.host,
    user: action.user,
    command: action.command,
    commandSeq: action.commandSeq,
    background: action.background,
    candidate: action.candidate,
  };
}

function toCall(call: StoredToolCall): RecordedCall {
  const timeout = inputField(call.input, 'timeout');
  const description = inputField(call.input, 'description');
  return {
    callId: call.callId,
    messageOrdinal: call.messageOrdinal,
    tool: call.tool,
    input: call.input,
    command: call.command !== null && call.command.trim() !== '' ? call.command : null,
    parallelGroup: call.parallelGroup,
    description: typeof description === 'string' ? description : null,
    output: call.output,
    exitCode: call.exitCode,
    timedOut: call.timedOut,
    notRun: call.status === 'error' && call.exitCode === null && !call.timedOut,
    startedAt: call.startedAt,
    durationMs: call.durationMs,
    timeoutMs: typeof timeout === 'number' ? timeout : typeof timeout === 'string' && /^\d+$/.test(timeout) ? Number(timeout) : null,
    actions: [],
  };
}

/** When the tree's verdict was decided, for the plan's "the record contradicts it" test (see RecordedCandidate). */
function judgedAt(candidate: { reason: string | null; evidence: readonly { message_ordinal: number; decisive: boolean }[] }): number | null {
  if ((candidate.reason ?? '').startsWith('too slow')) return null;
  const decisive = candidate.evidence.filter((e) => e.decisive).map((e) => e.message_ordinal);
  return decisive.length > 0 ? Math.max(...decisive) : null;
}

export function recordedSession(derivation: StoredDerivation): RecordedSession {
  const calls = derivation.calls.map(toCall);
  const byId = new Map(calls.map((call) => [call.callId, call]));
  const finishers = new Map<string, RecordedCall>();
  for (const action of derivation.actions) {
    // A command left running belongs to its own call; the poll that finished it carries its end.
    if (action.superseded) continue;
    const owner = action.continues ? byId.get(action.continues) : byId.get(action.callId);
    if (!owner) continue;
    owner.actions.push(toAction(action));
    if (action.continues) finishers.set(owner.callId, byId.get(action.callId) ?? owner);
  }
  for (const [callId, finisher] of finishers) {
    const owner = byId.get(callId);
    if (!owner || finisher === owner) continue;
    owner.exitCode = finisher.exitCode ?? owner.exitCode;
    owner.timedOut = finisher.timedOut;
    owner.output = `${owner.output}\n${finisher.output}`;
    owner.durationMs = (owner.durationMs ?? 0) + (finisher.durationMs ?? 0);
  }
  const tree = derivation.tree;
  const candidates = (tree?.candidates ?? []).map((c) => ({ name: c.name, kind: c.kind, verdict: c.verdict, framework: c.framework, parent: c.parent, calls: c.evidence.map((e) => e.call_id), reason: c.reason ?? '', judgedAt: judgedAt(c) }));
  const accepted = candidates.find((c) => c.verdict === 'accepted' && c.kind !== 'framework');
  const acceptedImage = accepted ? (accepted.kind === 'approach' ? accepted.parent : accepted.name) : null;
  return {
    session: { id: derivation.session.id, title: derivation.session.title },
    agent: derivation.session.agent,
    directory: derivation.session.directory,
    goal: tree?.goal ?? null,
    accepted: acceptedImage && candidates.some((c) => c.name === acceptedImage && c.kind === 'image') ? imageDisplayName(acceptedImage) : null,
    candidates,
    messages: derivation.messages,
    calls,
  };
}
