import { atifStep, atifTrajectory, type AtifStep, type AtifToolCall } from '../../core/atif/schema.js';
import { machineNameProblem } from '../../core/machine.js';
import { emptyMessage, type IngestItem, type MessageRecord, type SessionOrigin, type ToolCallRecord } from '../../core/model.js';
import { assignParallelGroups } from '../parallel-groups.js';
import { contentText, epochOf, fieldsOf, foreignExtra, isFields, numberField, textField, type Fields } from './values.js';

/**
 * An ATIF trajectory as retrace's records: the trajectory a session (agent `atif`, the source
 * agent's name and version in `extra`), each step a message, each tool call a call whose output
 * is the observation result that names it, each embedded subagent trajectory a session whose
 * parent is this one. What retrace wrote in `extra.retrace` (an export of its own) is read back
 * first, so an exported session returns with the same messages and tool calls; a trajectory
 * from another tool gets what its fields say. Problems with the document are reported with their
 * JSON path; a step that does not validate is left out, every other one ingests.
 */

const ROLE_OF_SOURCE: Readonly<Record<AtifStep['source'], string>> = { user: 'user', agent: 'assistant', system: 'system' };
/** Tools whose arguments' `command` (or `cmd`) is a shell command line. */
const SHELL_TOOL = /bash|shell|terminal|exec|command|run/i;

function retraceOf(extra: unknown): Fields {
  return fieldsOf(fieldsOf(extra)['retrace']);
}

function originOf(root: Fields): SessionOrigin | undefined {
  const provenance = fieldsOf(retraceOf(root['extra'])['provenance']);
  const machine = textField(provenance, 'machine');
  const path = textField(provenance, 'source_path');
  if (machine === null && path === null) return undefined;
  return { machine: machine !== null && machineNameProblem(machine) === null ? machine : null, path };
}

function commandOf(call: AtifToolCall): string | null {
  if (!SHELL_TOOL.test(call.function_name)) return null;
  const command = call.arguments['command'] ?? call.arguments['cmd'];
  if (typeof command === 'string') return command;
  return Array.isArray(command) && command.every((part) => typeof part === 'string') ? command.join(' ') : null;
}

function tokensOf(message: MessageRecord, step: AtifStep, ours: Fields): void {
  const recorded = fieldsOf(fieldsOf(step.metrics?.extra)['retrace'] ?? fieldsOf(ours['tokens'])['retrace']);
  if (Object.keys(recorded).length > 0) {
    message.tokensInput = numberField(recorded, 'tokens_input');
    message.tokensOutput = numberField(recorded, 'tokens_output');
    message.tokensReasoning = numberField(recorded, 'tokens_reasoning');
    message.tokensCacheRead = numberField(recorded, 'tokens_cache_read');
    message.tokensCacheWrite = numberField(recorded, 'tokens_cache_write');
  } else if (step.metrics) {
    // ATIF's prompt tokens include the cached ones; retrace counts them apart.
    const cached = step.metrics.cached_tokens ?? null;
    const prompt = step.metrics.prompt_tokens ?? null;
    message.tokensInput = prompt === null ? null : prompt - (cached ?? 0);
    message.tokensCacheRead = cached;
    message.tokensOutput = step.metrics.completion_tokens ?? null;
  }
  message.cost = step.metrics?.cost_usd ?? null;
}

function toolCallsOf(sessionId: string, messageId: string, step: AtifStep): ToolCallRecord[] {
  const at = epochOf(step.timestamp);
  const calls = (step.tool_calls ?? []).map((call): ToolCallRecord => {
    const ours = retraceOf(call.extra);
    const results = (step.observation?.results ?? []).filter((result) => result.source_call_id === call.tool_call_id);
    const outputs = results.map((result) => contentText(result.content)).filter((text): text is string => text !== null);
    const output = outputs.length > 0 ? outputs.join('\n') : null;
    const known = Object.keys(ours).length > 0;
    return {
      sessionId,
      messageId,
      callId: call.tool_call_id,
      tool: call.function_name,
      status: textField(ours, 'status') ?? (results.length > 0 ? 'completed' : 'pending'),
      input: textField(ours, 'input') ?? JSON.stringify(call.arguments),
      command: known ? textField(ours, 'command') : commandOf(call),
      output,
      title: textField(ours, 'title'),
      startedAt: known ? epochOf(textField(ours, 'started_at')) : at,
      endedAt: epochOf(textField(ours, 'ended_at')),
      durationMs: numberField(ours, 'duration_ms'),
      exitCode: numberField(ours, 'exit_code'),
      timedOut: ours['timed_out'] === true,
      truncated: ours['truncated'] === true,
      parallelGroup: textField(ours, 'parallel_group'),
      extra: known ? textField(ours, 'extra') : foreignExtra(call.extra),
    };
  });
  return calls.some((call) => retraceOf((step.tool_calls ?? []).find((c) => c.tool_call_id === call.callId)?.extra)['parallel_group'] !== undefined)
    ? calls
    : assignParallelGroups(calls);
}

function messageOf(sessionId: string, step: AtifStep): { message: MessageRecord; calls: ToolCallRecord[] } {
  const ours = retraceOf(step.extra);
  const id = textField(ours, 'message_id') ?? `step-${step.step_id}`;
  const message = emptyMessage(sessionId, id, textField(ours, 'role') ?? ROLE_OF_SOURCE[step.source]);
  let text = contentText(step.message) ?? '';
  // Results that answer no tool call (system feedback) belong to the step's own text.
  for (const result of step.observation?.results ?? []) {
    const body = result.source_call_id == null ? contentText(result.content) : null;
    if (body) text = text ? `${text}\n\n${body}` : body;
  }
  message.text = text;
  message.reasoning = step.reasoning_content ?? textField(ours, 'reasoning') ?? '';
  message.model = step.model_name ?? textField(ours, 'model');
  message.parentId = textField(ours, 'parent_id');
  message.createdAt = epochOf(step.timestamp);
  message.completedAt = 'completed_at' in ours ? epochOf(textField(ours, 'completed_at')) : message.createdAt;
  message.provider = textField(ours, 'provider');
  message.error = textField(ours, 'error');
  message.extra = 'extra' in ours ? textField(ours, 'extra') : foreignExtra(step.extra);
  tokensOf(message, step, ours);
  return { message, calls: toolCallsOf(sessionId, id, step) };
}

function titleOf(ours: Fields, steps: readonly AtifStep[]): string | null {
  const recorded = textField(ours, 'title');
  if (recorded !== null || 'title' in ours) return recorded;
  const first = steps.find((s) => s.source === 'user');
  const line = (contentText(first?.message) ?? '').split('\n').find((l) => l.trim().length > 0)?.trim();
  return line ? line.slice(0, 80) : null;
}

function* convertTrajectory(doc: Fields, file: string, path: string, parentId: string | null, fallbackId: string): Generator<IngestItem> {
  const ours = retraceOf(doc['extra']);
  const agent = fieldsOf(doc['agent']);
  // An embedded subagent may share its parent's run-scoped session_id: its trajectory_id names it.
  const id = textField(ours, 'session_id')
    ?? (parentId ? (textField(doc, 'trajectory_id') ?? textField(doc, 'session_id')) : (textField(doc, 'session_id') ?? textField(doc, 'trajectory_id')))
    ?? fallbackId;
  const rawSteps = Array.isArray(doc['steps']) ? doc['steps'] : [];
  // A step that does not validate is left out (the document's validation names it).
  const steps: { step: AtifStep; index: number }[] = [];
  rawSteps.forEach((raw, index) => {
    const parsed = atifStep.safeParse(raw);
    if (parsed.success && retraceOf(parsed.data.extra)['placeholder'] !== true) steps.push({ step: parsed.data, index });
  });
  const extra = {
    source_agent: textField(agent, 'name'),
    agent_version: textField(agent, 'version'),
    schema_version: textField(doc, 'schema_version'),
    trajectory_id: textField(doc, 'trajectory_id'),
    ...(textField(doc, 'notes') ? { notes: textField(doc, 'notes') } : {}),
    ...('extra' in ours ? { session_extra: textField(ours, 'extra') } : {}),
    ...(foreignExtra(doc['extra']) ? { atif_extra: foreignExtra(doc['extra']) } : {}),
  };
  const first = steps.find((s) => s.step.timestamp)?.step.timestamp ?? null;
  const origin = parentId === null ? originOf(doc) : undefined;
  yield {
    kind: 'session',
    session: {
      id,
      agent: 'atif',
      parentId: textField(ours, 'parent_id') ?? parentId,
      title: titleOf(ours, steps.map((s) => s.step)),
      directory: textField(ours, 'directory'),
      startedAt: epochOf(textField(ours, 'started_at') ?? first),
      endedAt: epochOf(textField(ours, 'ended_at')),
      model: textField(agent, 'model_name'),
      extra: JSON.stringify(extra),
    },
    location: { file, path },
    agentVersion: textField(agent, 'version'),
    ...(origin ? { origin } : {}),
  };
  for (const { step, index } of steps) {
    const { message, calls } = messageOf(id, step);
    yield { kind: 'message', message, toolCalls: calls, location: { file, path: `${path}.steps[${index}]` } };
  }
  const subagents = Array.isArray(doc['subagent_trajectories']) ? doc['subagent_trajectories'] : [];
  for (const [index, sub] of subagents.entries()) {
    if (isFields(sub)) yield* convertTrajectory(sub, file, `${path}.subagent_trajectories[${index}]`, id, `${id}:subagent-${index + 1}`);
  }
}

/** The items of one ATIF document: its problems first (every rule it breaks, by JSON path), then what is readable. */
export function* convertAtifDocument(doc: unknown, file: string, fallbackId: string): Generator<IngestItem> {
  if (!isFields(doc) || typeof doc['schema_version'] !== 'string' || !Array.isArray(doc['steps'])) {
    yield { kind: 'problem', message: 'not an ATIF trajectory (no schema_version and steps)', location: { file, path: '$' } };
    return;
  }
  const checked = atifTrajectory.safeParse(doc);
  if (!checked.success) {
    for (const issue of checked.error.issues.slice(0, 50)) {
      const at = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
      yield { kind: 'problem', message: `not valid ATIF: ${issue.message}`, location: { file, path: `$${at}` } };
    }
  }
  yield* convertTrajectory(doc, file, '$', null, fallbackId);
}
