import { z } from 'zod';

/**
 * Claude Code's transcript lines (see docs/formats/claude-code.md). Claude Code publishes no
 * schema and its records drift between versions, so only the fields retrace reads are checked;
 * every `type` is an open set.
 */

/** The fields every record may carry; threaded records (user, assistant, …) carry most of them. */
export const recordSchema = z.looseObject({
  type: z.string(),
  uuid: z.string().optional(),
  parentUuid: z.string().nullish(),
  sessionId: z.string().optional(),
  agentId: z.string().optional(),
  isSidechain: z.boolean().optional(),
  timestamp: z.string().optional(),
  cwd: z.string().optional(),
  version: z.string().optional(),
  gitBranch: z.string().optional(),
  slug: z.string().optional(),
  isMeta: z.boolean().optional(),
  isCompactSummary: z.boolean().optional(),
  isApiErrorMessage: z.boolean().optional(),
  promptId: z.string().optional(),
  requestId: z.string().optional(),
});
export type ClaudeRecord = z.infer<typeof recordSchema>;

export const contentBlockSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  thinking: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  input: z.unknown().optional(),
  tool_use_id: z.string().optional(),
  content: z.unknown().optional(),
  is_error: z.boolean().nullish(),
});
export type ContentBlock = z.infer<typeof contentBlockSchema>;

const count = z.number().nullish();

export const usageSchema = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  cache_creation_input_tokens: count,
  cache_read_input_tokens: count,
  output_tokens_details: z.looseObject({ thinking_tokens: count }).nullish(),
});
export type Usage = z.infer<typeof usageSchema>;

export const assistantMessageSchema = z.looseObject({
  id: z.string().min(1).optional(),
  model: z.string().optional(),
  content: z.union([z.string(), z.array(contentBlockSchema)]),
  stop_reason: z.string().nullish(),
  usage: usageSchema.nullish(),
});
export type AssistantMessage = z.infer<typeof assistantMessageSchema>;

export const userMessageSchema = z.looseObject({
  role: z.string().optional(),
  content: z.union([z.string(), z.array(contentBlockSchema)]),
});

export const summarySchema = z.looseObject({ summary: z.string(), leafUuid: z.string().optional() });
export const aiTitleSchema = z.looseObject({ aiTitle: z.string() });
export const customTitleSchema = z.looseObject({ customTitle: z.string() });
export const attachmentSchema = z.looseObject({
  attachment: z.looseObject({ type: z.string(), prompt: z.unknown().optional() }),
});

/** `agent-<id>.meta.json` beside a subagent transcript (late 2.1). */
export const subagentMetaSchema = z.looseObject({
  agentType: z.string().optional(),
  description: z.string().optional(),
  toolUseId: z.string().optional(),
});
export type SubagentMeta = z.infer<typeof subagentMetaSchema>;

/** Record fields retrace knows (read or deliberately ignored); others are counted as drift. */
export const KNOWN_RECORD_FIELDS = new Set([
  'type', 'uuid', 'parentUuid', 'logicalParentUuid', 'sessionId', 'session_id', 'agentId', 'isSidechain', 'timestamp',
  'cwd', 'version', 'gitBranch', 'slug', 'userType', 'entrypoint', 'message', 'requestId', 'promptId', 'toolUseResult',
  'sourceToolAssistantUUID', 'isMeta', 'isCompactSummary', 'isVisibleInTranscriptOnly', 'toolDenialKind', 'origin',
  'permissionMode', 'thinkingMetadata', 'todos', 'isApiErrorMessage', 'error', 'apiErrorStatus', 'effort',
  'attributionAgent', 'imagePasteIds', 'planContent',
]);

/** Shell tools: their `input.command` is the command line and their results carry exit codes. */
export const SHELL_TOOLS = new Set(['Bash', 'PowerShell']);
