import { z } from 'zod';

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

export const sessionMetaSchema = z.looseObject({
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

/** `event_msg` types that repeat a response item, mark turns, or are read elsewhere: not unknown. */
export const KNOWN_EVENTS = new Set([
  'user_message', 'agent_message', 'agent_reasoning', 'agent_reasoning_raw_content', 'agent_reasoning_section_break',
  'task_started', 'task_complete', 'context_compacted', 'entered_review_mode', 'exited_review_mode', 'undo_completed',
  'item_completed', 'token_count', 'turn_aborted', 'thread_name_updated',
]);

/** User-role messages Codex injects (instructions, environment): context, not prompts. */
export const INJECTED_USER_TEXT = /^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions|<INSTRUCTIONS>)/;
