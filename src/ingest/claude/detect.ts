import type { HeadLineRules, HeadVerdict } from '../jsonl/head-lines.js';
import type { JsonObject } from '../jsonl/parse-line.js';

/**
 * Line types Claude Code writes (an open set: these are the ones seen so far, docs/formats/claude-code.md).
 * Those retrace does not model are kept raw as expected records, not counted as drift.
 */
export const CLAUDE_LINE_TYPES: ReadonlySet<string> = new Set([
  'user', 'assistant', 'system', 'attachment', 'progress', 'summary', 'file-history-snapshot', 'file-history-delta',
  'queue-operation', 'last-prompt', 'ai-title', 'custom-title', 'mode', 'permission-mode', 'agent-name', 'tag',
  'pr-link', 'bridge-session', 'cost-state', 'frame-link', 'atis-latch',
]);

/** `system` subtypes that mark a compaction boundary (`compact_boundary`; `microcompact_boundary` in later 2.1). */
export const COMPACTION_SUBTYPES: ReadonlySet<string> = new Set(['compact_boundary', 'microcompact_boundary']);

function classify(value: JsonObject): HeadVerdict {
  const type = value['type'];
  if (typeof type !== 'string' || 'payload' in value) return 'no';
  const threaded = 'uuid' in value || 'parentUuid' in value;
  if (typeof value['sessionId'] === 'string' && (threaded || CLAUDE_LINE_TYPES.has(type))) return 'yes';
  if (type === 'summary' && typeof value['summary'] === 'string' && 'leafUuid' in value) return 'yes';
  if (type === 'file-history-snapshot' && 'snapshot' in value) return 'yes';
  return CLAUDE_LINE_TYPES.has(type) ? 'unsure' : 'no';
}

/** Claude Code JSONL: threaded records carrying `sessionId`, or its leading summary/snapshot lines. */
export const CLAUDE_HEAD: HeadLineRules = {
  classify,
  prefix: /^\{"(parentUuid|isSidechain|logicalParentUuid|type|uuid|leafUuid)":[\s\S]*"sessionId":"[^"]+"/,
};
