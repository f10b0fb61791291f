import { classifySession, imageDisplayName, type ActionKind, type ActionRecord, type CallRecord, type Outcome } from '../../query/classify/index.js';
import { parseCommandLine } from '../../query/shell/index.js';
import { parseSsh } from '../../query/shell/remote.js';
import { buildTree } from '../../query/tree/build.js';

/**
 * What plan extraction reads of a recorded session: its tool calls with the remote command
 * unwrapped from `ssh host '…'`, each with the actions the classifier found in it, and the
 * verdicts of the decision tree. Built from the query layer's public functions (shell parsing,
 * `classifySession`, `buildTree`); extraction itself never parses a shell line.
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
}

export interface RecordedCall {
  callId: string;
  messageOrdinal: number;
  parallelGroup: string | null;
  /** The recorded target (`10.1.230.180`), or null for a command run where the agent ran. */
  host: string | null;
  user: string | null;
  /** What the host's shell ran: the ssh payload, or the whole command when it ran locally. */
  remoteCommand: string | null;
  description: string | null;
  output: string;
  exitCode: number | null;
  timedOut: boolean;
  startedAt: number | null;
  durationMs: number | null;
  /** The agent's own timeout for the call (bash `timeout` input), in ms. */
  timeoutMs: number | null;
  actions: RecordedAction[];
}

export interface RecordedSession {
  session: { id: string; title: string | null };
  goal: string | null;
  /** The image the decision tree accepted, as written in commands; null when none was. */
  accepted: string | null;
  rejected: string[];
  /** False when the session tried nothing that can serve a model (only leads, or nothing): it deployed nothing. */
  deployed: boolean;
  messages: { ordinal: number; role: string; text: string }[];
  calls: RecordedCall[];
}

/** A tool call as the store holds it (see `sessionMessages`). */
export interface StoredCall {
  call_id: string;
  tool: string;
  status: string;
  command: string | null;
  input: string;
  output: string | null;
  started_at: string | null;
  duration_ms: number | null;
  exit_code: number | null;
  timed_out: boolean;
  parallel_group: string | null;
}

export interface StoredMessage {
  ordinal: number;
  role: string;
  text: string;
  reasoning: string;
  tool_calls: StoredCall[];
}

function inputField(input: string, field: string): unknown {
  try {
    const parsed: unknown = JSON.parse(input);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>)[field] : undefined;
  } catch {
    return undefined;
  }
}

/** The one ssh a command line is (`ssh u@h '…' 2>&1`): its target and payload; else a local command. */
function unwrapRemote(command: string): { host: string | null; user: string | null; remoteCommand: string } {
  const top = parseCommandLine(command);
  const only = top.length === 1 ? top[0] : undefined;
  if (only?.carrier === 'ssh') {
    const target = parseSsh(only.argv);
    if (target && target.command.length > 0) return { host: target.host, user: target.user, remoteCommand: target.command.join(' ') };
  }
  return { host: null, user: null, remoteCommand: command };
}

function toAction(action: ActionRecord): RecordedAction {
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
  };
}

export function recordedSession(session: { id: string; title: string | null }, messages: readonly StoredMessage[]): RecordedSession {
  const callRecords: CallRecord[] = [];
  const recorded: RecordedCall[] = [];
  for (const message of messages) {
    for (const call of message.tool_calls) {
      const startedAt = call.started_at ? Date.parse(call.started_at) : null;
      callRecords.push({
        callId: call.call_id,
        messageOrdinal: message.ordinal,
        tool: call.tool,
        status: call.status,
        input: call.input,
        command: call.command,
        output: call.output,
        startedAt,
        durationMs: call.duration_ms,
        exitCode: call.exit_code,
        timedOut: call.timed_out,
      });
      const remote = call.command ? unwrapRemote(call.command) : { host: null, user: null, remoteCommand: null };
      const timeout = inputField(call.input, 'timeout');
      const description = inputField(call.input, 'description');
      recorded.push({
        callId: call.call_id,
        messageOrdinal: message.ordinal,
        parallelGroup: call.parallel_group,
        ...remote,
        description: typeof description === 'string' ? description : null,
        output: call.output ?? '',
        exitCode: call.exit_code,
        timedOut: call.timed_out,
        startedAt,
        durationMs: call.duration_ms,
        timeoutMs: typeof timeout === 'number' ? timeout : typeof timeout === 'string' && /^\d+$/.test(timeout) ? Number(timeout) : null,
        actions: [],
      });
    }
  }
  const { actions } = classifySession(callRecords);
  const byCall = new Map(recorded.map((call) => [call.callId, call]));
  for (const action of actions) if (!action.superseded) byCall.get(action.callId)?.actions.push(toAction(action));

  const tree = buildTree({
    sessionId: session.id,
    isSubagent: false,
    messages: messages.map((m) => ({ ordinal: m.ordinal, role: m.role, text: m.text, reasoning: m.reasoning })),
    actions,
    delegated: [],
  });
  const accepted = tree.candidates.find((c) => c.verdict === 'accepted' && c.kind !== 'framework');
  const acceptedImage = accepted ? (accepted.kind === 'approach' ? accepted.parent : accepted.name) : null;
  return {
    session,
    goal: tree.goal,
    accepted: acceptedImage ? imageDisplayName(acceptedImage) : null,
    rejected: tree.candidates.filter((c) => c.verdict === 'rejected' && c.kind === 'image').map((c) => imageDisplayName(c.name)),
    deployed: tree.candidates.some((c) => c.verdict !== 'untested'),
    messages: messages.map((m) => ({ ordinal: m.ordinal, role: m.role, text: m.text })),
    calls: recorded,
  };
}
