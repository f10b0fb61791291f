import { z } from 'zod';

/**
 * opencode 2.x `session_message.data`, per message type (packages/core/src/session-message.ts and
 * session/message.ts; docs/formats/opencode.md has the commits). The row's `id` and `type` are
 * columns, not in `data`. Loose on purpose, as for 1.x: only what retrace reads is checked, the
 * rest is kept in `extra` and its unknown fields counted.
 */
const time = z.looseObject({
  created: z.number().nullish(),
  completed: z.number().nullish(),
  ran: z.number().nullish(),
  pruned: z.number().nullish(),
});

const tokens = z.looseObject({
  input: z.number().optional(),
  output: z.number().optional(),
  reasoning: z.number().optional(),
  cache: z.looseObject({ read: z.number().optional(), write: z.number().optional() }).optional(),
});

export const v2MessageDataSchema = z.looseObject({
  time: time.optional(),
  text: z.string().optional(),
  summary: z.string().optional(),
  content: z.array(z.unknown()).optional(),
  model: z.looseObject({ id: z.string().optional(), providerID: z.string().optional() }).optional(),
  tokens: tokens.optional(),
  cost: z.number().optional(),
  error: z.unknown().optional(),
  callID: z.string().optional(),
  command: z.string().optional(),
  output: z.string().optional(),
});
export type V2MessageData = z.infer<typeof v2MessageDataSchema>;

const record = z.record(z.string(), z.unknown());

/** Pending: `input` is the raw text streamed so far; later states hold it parsed. */
export const v2ToolStateSchema = z.looseObject({
  status: z.string().min(1),
  input: z.unknown().optional(),
  content: z.array(z.unknown()).nullish(),
  structured: record.nullish(),
  metadata: record.nullish(),
  result: z.unknown().optional(),
  error: z.unknown().optional(),
  output: z.unknown().optional(),
  title: z.string().nullish(),
});

export const v2ToolSchema = z.looseObject({
  type: z.literal('tool'),
  id: z.string().min(1),
  name: z.string().min(1),
  state: v2ToolStateSchema,
  time: time.optional(),
});
export type V2Tool = z.infer<typeof v2ToolSchema>;

export const v2ContentSchema = z.looseObject({ type: z.string().min(1), text: z.string().optional() });

/** Tool content items: `text`, or a `file` reference (Tool.Content). */
export const v2ToolContentSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

/**
 * Every message type opencode 2.x writes, with the `data` fields it defines beyond the common
 * `id`, `type`, `metadata` and `time`. A type not listed is kept raw as an unknown record.
 * `location-switched` and `system` were seen in real databases and in later revisions.
 */
export const V2_MESSAGE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  user: ['text', 'files', 'agents', 'references'],
  assistant: ['agent', 'model', 'content', 'snapshot', 'finish', 'cost', 'tokens', 'error', 'retry'],
  synthetic: ['sessionID', 'text', 'description'],
  system: ['text'],
  shell: ['callID', 'command', 'output'],
  compaction: ['reason', 'summary', 'recent', 'include', 'status', 'model'],
  'agent-switched': ['agent'],
  'model-switched': ['model'],
  'location-switched': ['location', 'directory', 'workspaceID'],
  idle: ['outcome'],
};

export const V2_COMMON_FIELDS: ReadonlySet<string> = new Set(['id', 'type', 'metadata', 'time']);
