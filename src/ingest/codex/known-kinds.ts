/**
 * Every kind of Codex rollout record retrace knows, read or deliberately passed over, so that only
 * a kind nobody has seen yet counts as unknown (and, past a threshold, warns of format drift).
 * Knowledge as data: a new Codex release that adds a kind is one more entry here.
 *
 * Sources (openai/codex): `codex-rs/history/src/rollout_payload.rs` (`RolloutItemWire`: the line
 * types), `codex-rs/rollout/src/policy.rs` (`event_msg_persistence_mode`: which events reach a
 * rollout in limited and extended mode; `should_persist_response_item`), `protocol.rs` (`EventMsg`
 * serde names: `task_started`/`task_complete`, aliases `turn_started`/`turn_complete`).
 */

/**
 * Line `type`s (`RolloutItem` variants) that hold nothing retrace models: world-state baselines
 * (AGENTS.md snapshots), token-usage checkpoints (the same totals `token_count` events carry),
 * messages between agent threads, retained-context and security-risk bookkeeping, realtime
 * presentation facts, references to other rollouts. Read lines are `session_meta`, `turn_context`,
 * `response_item`, `event_msg`, `compacted`.
 */
export const IGNORED_LINE_TYPES: ReadonlySet<string> = new Set([
  'world_state', 'token_usage_record', 'inter_agent_communication', 'inter_agent_communication_metadata',
  'retained_context', 'security_risk_score', 'realtime_item', 'rollout_reference', 'agent_response_observation',
]);

/** Every line type of a wrapped rollout, read or ignored (what tells a file is Codex's). */
export const WRAPPED_LINE_TYPES: ReadonlySet<string> = new Set([
  'session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', ...IGNORED_LINE_TYPES,
]);

/**
 * `event_msg` types that repeat a response item (`user_message`, `agent_message`, reasoning),
 * mark turns, or report what a response item already holds (`*_end` events of extended mode,
 * other than `exec_command_end`, which is read): passed over on purpose.
 */
export const IGNORED_EVENTS: ReadonlySet<string> = new Set([
  'user_message', 'injected_message', 'agent_message', 'agent_reasoning', 'agent_reasoning_raw_content',
  'agent_reasoning_section_break', 'context_compacted', 'entered_review_mode', 'exited_review_mode', 'undo_completed',
  'thread_rolled_back', 'item_completed', 'image_generation_end', 'error', 'warning', 'guardian_assessment',
  'web_search_end', 'patch_apply_end', 'mcp_tool_call_end', 'view_image_tool_call', 'collab_agent_spawn_end',
  'collab_agent_interaction_end', 'collab_waiting_end', 'collab_close_end', 'collab_resume_end',
  'dynamic_tool_call_request', 'dynamic_tool_call_response', 'stream_error', 'background_event', 'plan_update',
  'turn_diff', 'model_reroute', 'deprecation_notice', 'exec_command_begin', 'patch_apply_begin', 'mcp_tool_call_begin',
  'web_search_begin', 'terminal_interaction', 'session_configured', 'shutdown_complete',
]);

/** The event that starts a turn, under its v1 name and its v2 alias. */
export const TURN_STARTED_EVENTS: ReadonlySet<string> = new Set(['task_started', 'turn_started']);
/** The event that ends a turn. */
export const TURN_COMPLETE_EVENTS: ReadonlySet<string> = new Set(['task_complete', 'turn_complete']);

/**
 * `response_item` payload types that are neither messages nor tool calls retrace models: undo
 * snapshots, server-side compaction (opaque `encrypted_content`), tool discovery, configuration
 * updates and compaction triggers of newer releases.
 */
export const IGNORED_RESPONSE_ITEMS: ReadonlySet<string> = new Set([
  'ghost_snapshot', 'compaction', 'compaction_summary', 'context_compaction', 'compaction_trigger',
  'tool_search_call', 'tool_search_output', 'configuration_update', 'additional_tools', 'other',
]);
