import { ATIF_VERSION, type AtifObservationResult, type AtifStep, type AtifToolCall, type AtifTrajectory } from '../../core/atif/schema.js';
import type { JsonValue, Row } from '../../store/values.js';
import { spawningCall } from '../subagent-link.js';

/**
 * A stored session as an ATIF trajectory (pure: rows in, document out). What ATIF has a field
 * for goes there (steps, tool calls, observations, token metrics, subagents as embedded
 * trajectories); everything else retrace knows rides in `extra.retrace`, so an export read back
 * by `retrace ingest` gives the same messages and tool calls: per step the message's own
 * columns, per tool call its status, command, times, exit code and flags, at the root the
 * session's provenance and its decision tree (candidates with verdicts and reasons, pivots).
 */

export interface SessionRows {
  session: Row;
  /** The session's source: machine, original path, working directory. */
  provenance: { machine: string | null; source_path: string | null };
  messages: Row[];
  calls: Row[];
  /** The decision tree in the CLI's JSON shape, when one is stored. */
  tree: { goal: string | null; candidates: unknown[]; pivots: { message_ordinal: number }[] } | null;
  /** The candidate each call was evidence for. */
  candidateOfCall: ReadonlyMap<string, string>;
  children: SessionRows[];
}

const str = (value: JsonValue | undefined): string | null => (value === null || value === undefined ? null : String(value));
const num = (value: JsonValue | undefined): number | null => (value === null || value === undefined ? null : Number(value));

function parsedJson(text: string | null): JsonValue {
  if (text === null) return null;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** ATIF arguments are an object; a call whose input is not one keeps it under `input`. */
function argumentsOf(input: string): { args: Record<string, unknown>; exact: boolean } {
  const parsed = parsedJson(input);
  if (isObject(parsed)) return { args: parsed, exact: JSON.stringify(parsed) === input };
  return { args: { input: parsed }, exact: false };
}

function agentOf(session: Row): { name: string; version: string } {
  const extra = parsedJson(str(session['extra']));
  const fields = isObject(extra) ? extra : {};
  const agent = String(session['agent']);
  const name = agent === 'atif' && typeof fields['source_agent'] === 'string' ? fields['source_agent'] : agent;
  const version = ['agent_version', 'version', 'cli_version'].map((key) => fields[key]).find((v): v is string => typeof v === 'string');
  return { name, version: version ?? 'unknown' };
}

function toolCall(call: Row, candidate: string | undefined): AtifToolCall {
  const input = String(call['input'] ?? '{}');
  const { args, exact } = argumentsOf(input);
  return {
    tool_call_id: String(call['call_id']),
    function_name: String(call['tool'] ?? ''),
    arguments: args,
    extra: {
      retrace: {
        ...(exact ? {} : { input }),
        status: str(call['status']),
        command: str(call['command']),
        title: str(call['title']),
        started_at: str(call['started_at']),
        ended_at: str(call['ended_at']),
        duration_ms: num(call['duration_ms']),
        exit_code: num(call['exit_code']),
        timed_out: call['timed_out'] === true,
        truncated: call['truncated'] === true,
        parallel_group: str(call['parallel_group']),
        extra: str(call['extra']),
        ...(candidate ? { candidate } : {}),
      },
    },
  };
}

function metricsOf(message: Row): AtifStep['metrics'] {
  const tokens = ['tokens_input', 'tokens_output', 'tokens_reasoning', 'tokens_cache_read', 'tokens_cache_write'] as const;
  const values = Object.fromEntries(tokens.map((t) => [t, num(message[t])]));
  const cost = num(message['cost']);
  if (tokens.every((t) => values[t] === null) && cost === null) return undefined;
  const input = values['tokens_input'] ?? null;
  const cacheRead = values['tokens_cache_read'] ?? null;
  const cacheWrite = values['tokens_cache_write'] ?? null;
  const prompt = input === null && cacheRead === null && cacheWrite === null ? null : (input ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0);
  return {
    ...(prompt === null ? {} : { prompt_tokens: prompt }),
    ...(values['tokens_output'] == null ? {} : { completion_tokens: values['tokens_output'] }),
    ...(cacheRead === null ? {} : { cached_tokens: cacheRead }),
    ...(cost === null ? {} : { cost_usd: cost }),
    extra: { retrace: values },
  };
}

function stepOf(rows: SessionRows, message: Row, stepId: number, refsByCall: Map<string, string[]>, loose: string[]): AtifStep {
  const calls = rows.calls.filter((call) => call['message_id'] === message['id']);
  const role = String(message['role'] ?? '');
  const source: AtifStep['source'] = calls.length > 0 || role === 'assistant' ? 'agent' : role === 'user' ? 'user' : 'system';
  const agent = source === 'agent';
  const reasoning = String(message['reasoning'] ?? '');
  const model = str(message['model']);
  const results: AtifObservationResult[] = [];
  for (const call of calls) {
    const callId = String(call['call_id']);
    const refs = refsByCall.get(callId) ?? [];
    const output = str(call['output']);
    if (output === null && refs.length === 0) continue;
    results.push({
      source_call_id: callId,
      ...(output === null ? {} : { content: output }),
      ...(refs.length > 0 ? { subagent_trajectory_ref: refs.map((id) => ({ trajectory_id: id, session_id: id })) } : {}),
    });
  }
  if (loose.length > 0) results.push({ subagent_trajectory_ref: loose.map((id) => ({ trajectory_id: id, session_id: id })) });
  const ordinal = Number(message['ordinal']);
  const pivots = (rows.tree?.pivots ?? []).filter((p) => p.message_ordinal === ordinal);
  const metrics = agent ? metricsOf(message) : undefined;
  return {
    step_id: stepId,
    ...(str(message['created_at']) ? { timestamp: String(message['created_at']) } : {}),
    source,
    ...(agent && model ? { model_name: model } : {}),
    message: String(message['text'] ?? ''),
    ...(agent && reasoning ? { reasoning_content: reasoning } : {}),
    ...(calls.length > 0 ? { tool_calls: calls.map((call) => toolCall(call, rows.candidateOfCall.get(String(call['call_id'])))) } : {}),
    ...(results.length > 0 ? { observation: { results } } : {}),
    ...(metrics ? { metrics } : {}),
    extra: {
      retrace: {
        message_id: String(message['id']),
        ordinal,
        role,
        parent_id: str(message['parent_id']),
        completed_at: str(message['completed_at']),
        provider: str(message['provider']),
        error: str(message['error']),
        extra: str(message['extra']),
        ...(agent ? {} : { model, reasoning, ...(metricsOf(message) ? { tokens: metricsOf(message)?.extra } : {}) }),
        ...(pivots.length > 0 ? { pivots } : {}),
      },
    },
  };
}

export function buildTrajectory(rows: SessionRows): AtifTrajectory {
  const id = String(rows.session['id']);
  const refsByCall = new Map<string, string[]>();
  const loose = new Map<number, string[]>();
  const messages = rows.messages;
  for (const child of rows.children) {
    const childId = String(child.session['id']);
    const callId = spawningCall(rows.calls, child.session);
    if (callId) {
      refsByCall.set(callId, [...(refsByCall.get(callId) ?? []), childId]);
      continue;
    }
    // No call names it: the reference goes on the last step before the subagent started.
    const started = str(child.session['started_at']);
    let at = 0;
    messages.forEach((message, index) => {
      const created = str(message['created_at']);
      if (started && created && created <= started) at = index;
    });
    loose.set(at, [...(loose.get(at) ?? []), childId]);
  }
  const steps = messages.map((message, index) => stepOf(rows, message, index + 1, refsByCall, loose.get(index) ?? []));
  // ATIF needs one step at least: a session with no messages gets a placeholder that ingest skips.
  if (steps.length === 0) steps.push({ step_id: 1, source: 'system', message: '', extra: { retrace: { placeholder: true } } });
  const looseOfEmpty = messages.length === 0 ? [...loose.values()].flat() : [];
  if (looseOfEmpty.length > 0) steps[0] = { ...(steps[0] as AtifStep), observation: { results: [{ subagent_trajectory_ref: looseOfEmpty.map((sid) => ({ trajectory_id: sid, session_id: sid })) }] } };
  const metrics = steps.map((s) => s.metrics).filter((m) => m != null);
  const sum = (key: 'prompt_tokens' | 'completion_tokens' | 'cached_tokens' | 'cost_usd'): number | undefined =>
    metrics.some((m) => m[key] != null) ? metrics.reduce((total, m) => total + (m[key] ?? 0), 0) : undefined;
  const agent = agentOf(rows.session);
  const cost = sum('cost_usd');
  return {
    schema_version: ATIF_VERSION,
    session_id: id,
    trajectory_id: id,
    agent: { name: agent.name, version: agent.version, ...(str(rows.session['model']) ? { model_name: String(rows.session['model']) } : {}) },
    steps,
    final_metrics: {
      ...(sum('prompt_tokens') === undefined ? {} : { total_prompt_tokens: sum('prompt_tokens') }),
      ...(sum('completion_tokens') === undefined ? {} : { total_completion_tokens: sum('completion_tokens') }),
      ...(sum('cached_tokens') === undefined ? {} : { total_cached_tokens: sum('cached_tokens') }),
      ...(cost === undefined ? {} : { total_cost_usd: cost }),
      total_steps: steps.length,
    },
    extra: {
      retrace: {
        session_id: id,
        agent: String(rows.session['agent']),
        title: str(rows.session['title']),
        directory: str(rows.session['directory']),
        started_at: str(rows.session['started_at']),
        ended_at: str(rows.session['ended_at']),
        parent_id: str(rows.session['parent_id']),
        extra: str(rows.session['extra']),
        provenance: rows.provenance,
        ...(rows.tree ? { goal: rows.tree.goal, candidates: rows.tree.candidates, pivots: rows.tree.pivots } : {}),
      },
    },
    ...(rows.children.length > 0 ? { subagent_trajectories: rows.children.map(buildTrajectory) } : {}),
  };
}
