import { z } from 'zod';
import { isJsonObject } from '../jsonl/parse-line.js';

/**
 * Codex CLI rollout lines (codex-rs `protocol.rs` / `models.rs`; see docs/formats/codex.md).
 * Only the fields retrace reads are checked; payload `type`s are open sets.
 */

/** Wrapped format: every line is `{timestamp, type, payload}`. */
export const rolloutLineSchema = z.looseObject({
  timestamp: z.string().optional(),
  type: z.string(),
  payload: z.unknown(),
});

/** Legacy unwrapped format: the first line is a bare header. */
export const legacyHeaderSchema = z.looseObject({
  id: z.string().min(1),
  timestamp: z.string().optional(),
  instructions: z.string().nullish(),
  git: z.unknown().optional(),
});

const threadSpawnSchema = z.looseObject({
  parent_thread_id: z.string().optional(),
  depth: z.number().optional(),
  agent_nickname: z.string().nullish(),
  agent_role: z.string().nullish(),
});

const sessionMetaFields = z.looseObject({
  id: z.string().min(1),
  timestamp: z.string().optional(),
  cwd: z.string().optional(),
  originator: z.string().optional(),
  cli_version: z.string().optional(),
  model_provider: z.string().nullish(),
  source: z.unknown().optional(),
  agent_nickname: z.string().nullish(),
  agent_role: z.string().nullish(),
  forked_from_id: z.string().nullish(),
  git: z.unknown().optional(),
});

/** `session_meta.payload`; later builds may name the thread `session_id` (codex-rs reads both), taken as `id`. */
export const sessionMetaSchema = z.preprocess(
  (value) => (isJsonObject(value) && value['id'] === undefined && typeof value['session_id'] === 'string' ? { ...value, id: value['session_id'] } : value),
  sessionMetaFields,
);
export type SessionMeta = z.infer<typeof sessionMetaSchema>;

/** `session_meta.source` of a spawned child thread: `{subagent: {thread_spawn: {parent_thread_id…}}}`. */
export const subagentSourceSchema = z.looseObject({
  subagent: z.union([z.string(), z.looseObject({ thread_spawn: threadSpawnSchema.optional() })]),
});

export const turnContextSchema = z.looseObject({ model: z.string().optional(), cwd: z.string().optional(), turn_id: z.string().optional() });

const contentItemSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

export const messageItemSchema = z.looseObject({
  type: z.literal('message'),
  role: z.string(),
  content: z.union([z.string(), z.array(contentItemSchema)]),
  phase: z.string().nullish(),
});

export const reasoningItemSchema = z.looseObject({
  type: z.literal('reasoning'),
  summary: z.array(contentItemSchema).nullish(),
  content: z.array(contentItemSchema).nullish(),
});

export const functionCallSchema = z.looseObject({
  type: z.literal('function_call'),
  name: z.string(),
  arguments: z.string().optional(),
  call_id: z.string().min(1),
});

export const localShellCallSchema = z.looseObject({
  type: z.literal('local_shell_call'),
  call_id: z.string().nullish(),
  id: z.string().nullish(),
  status: z.string().optional(),
  action: z.looseObject({ type: z.string().optional(), command: z.array(z.string()).optional(), timeout_ms: z.number().nullish() }),
});

export const customToolCallSchema = z.looseObject({
  type: z.literal('custom_tool_call'),
  call_id: z.string().min(1),
  name: z.string(),
  input: z.string().optional(),
  status: z.string().optional(),
});

export const callOutputSchema = z.looseObject({
  type: z.string(),
  call_id: z.string().min(1),
  output: z.unknown(),
});

export const webSearchCallSchema = z.looseObject({
  type: z.literal('web_search_call'),
  id: z.string().nullish(),
  status: z.string().optional(),
  action: z.looseObject({ type: z.string().optional(), query: z.string().nullish(), url: z.string().nullish() }).nullish(),
});

const usageSchema = z.looseObject({
  input_tokens: z.number().nullish(),
  cached_input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  reasoning_output_tokens: z.number().nullish(),
  total_tokens: z.number().nullish(),
});
export type TokenUsage = z.infer<typeof usageSchema>;

export const tokenCountSchema = z.looseObject({
  info: z.looseObject({ total_token_usage: usageSchema.nullish(), last_token_usage: usageSchema.nullish() }).nullish(),
});

export const compactedSchema = z.looseObject({ message: z.string().optional(), replacement_history: z.array(z.unknown()).nullish() });

/** `std::time::Duration` as serde writes it (`{secs, nanos}`); a number of seconds or `"1.5s"` in other writers. */
const durationSchema = z.union([z.looseObject({ secs: z.number(), nanos: z.number().optional() }), z.number(), z.string()]);

/**
 * `event_msg` `exec_command_end` (`ExecCommandEndEvent`, protocol.rs), persisted in extended mode:
 * the command's exit code, run time and output, whether or not the tool's output item says them.
 */
export const execCommandEndSchema = z.looseObject({
  call_id: z.string().min(1),
  process_id: z.string().nullish(),
  command: z.array(z.string()).nullish(),
  source: z.string().nullish(),
  stdout: z.string().nullish(),
  stderr: z.string().nullish(),
  aggregated_output: z.string().nullish(),
  formatted_output: z.string().nullish(),
  exit_code: z.number().nullish(),
  duration: durationSchema.nullish(),
  status: z.string().nullish(),
});
export type ExecCommandEnd = z.infer<typeof execCommandEndSchema>;

/** Milliseconds of a duration in any of its written forms, or null. */
export function durationMs(value: ExecCommandEnd['duration']): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? Math.round(value * 1000) : null;
  if (typeof value === 'string') {
    const match = /^([\d.]+)\s*(ms|s)?$/.exec(value.trim());
    if (!match) return null;
    const amount = Number(match[1]);
    return Number.isFinite(amount) ? Math.round(match[2] === 'ms' ? amount : amount * 1000) : null;
  }
  return Math.round(value.secs * 1000 + (value.nanos ?? 0) / 1e6);
}

/** User-role messages Codex injects (instructions, environment): context, not prompts. */
export const INJECTED_USER_TEXT = /^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions|<INSTRUCTIONS>)/;
