import { z } from 'zod';

/**
 * opencode's session, message and part shapes (packages/opencode/src/session/message-v2.ts and
 * session/index.ts). Loose on purpose: opencode's schema drifts between versions, so only the
 * fields retrace reads are checked, and everything else is kept by the converter.
 */
const time = z.looseObject({
  created: z.number().optional(),
  updated: z.number().optional(),
  completed: z.number().nullish(),
  start: z.number().optional(),
  end: z.number().nullish(),
});

export const sessionInfoSchema = z.looseObject({
  id: z.string().min(1),
  projectID: z.string().optional(),
  directory: z.string().optional(),
  parentID: z.string().nullish(),
  title: z.string().optional(),
  version: z.string().optional(),
  time: time.optional(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

const tokens = z.looseObject({
  input: z.number().optional(),
  output: z.number().optional(),
  reasoning: z.number().optional(),
  cache: z.looseObject({ read: z.number().optional(), write: z.number().optional() }).optional(),
});

export const messageInfoSchema = z.looseObject({
  id: z.string().min(1),
  sessionID: z.string().optional(),
  role: z.string().min(1),
  parentID: z.string().nullish(),
  time: time.optional(),
  modelID: z.string().optional(),
  providerID: z.string().optional(),
  model: z.looseObject({ modelID: z.string().optional(), providerID: z.string().optional() }).optional(),
  tokens: tokens.optional(),
  cost: z.number().optional(),
  error: z.unknown().optional(),
});
export type MessageInfo = z.infer<typeof messageInfoSchema>;

export const toolStateSchema = z.looseObject({
  status: z.string(),
  input: z.unknown().optional(),
  output: z.string().nullish(),
  error: z.string().nullish(),
  title: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  time: time.optional(),
});
export type ToolState = z.infer<typeof toolStateSchema>;

export const partSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string().min(1),
  sessionID: z.string().optional(),
  messageID: z.string().optional(),
  text: z.string().optional(),
  callID: z.string().optional(),
  tool: z.string().optional(),
  state: toolStateSchema.optional(),
  time: time.optional(),
});
export type Part = z.infer<typeof partSchema>;

/** Part types opencode writes that retrace understands (modelled or deliberately summarised). */
export const KNOWN_PART_TYPES = new Set([
  'text',
  'reasoning',
  'tool',
  'step-start',
  'step-finish',
  'file',
  'patch',
  'snapshot',
  'agent',
  'subtask',
  'compaction',
  'retry',
]);

/** Session.Info of 1.x, plus the columns late 1.x and 2.x session tables add (read by name). */
export const KNOWN_SESSION_FIELDS = new Set([
  'id', 'slug', 'projectID', 'directory', 'parentID', 'title', 'version', 'time', 'summary', 'share', 'revert',
  'permission', 'workspaceID', 'path', 'metadata', 'cost', 'tokens', 'agent', 'model', 'forkSessionID',
  'forkMessageID', 'forkBoundary', 'resumeAttempts', 'idleOutcome',
]);

export const KNOWN_MESSAGE_FIELDS = new Set([
  'id', 'sessionID', 'role', 'parentID', 'time', 'modelID', 'providerID', 'model', 'tokens', 'cost', 'error',
  'mode', 'agent', 'path', 'summary', 'system', 'tools', 'finish', 'variant', 'format', 'structured',
]);
