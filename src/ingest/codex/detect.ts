import type { HeadLineRules, HeadVerdict } from '../jsonl/head-lines.js';
import type { JsonObject } from '../jsonl/parse-line.js';
import { WRAPPED_LINE_TYPES } from './known-kinds.js';

function classify(value: JsonObject): HeadVerdict {
  const type = value['type'];
  if (typeof type === 'string' && 'payload' in value && typeof value['timestamp'] === 'string') {
    return WRAPPED_LINE_TYPES.has(type) ? 'yes' : 'unsure';
  }
  // Legacy unwrapped rollouts open with a bare header `{id, timestamp, instructions, git}`.
  if (type === undefined && typeof value['id'] === 'string' && typeof value['timestamp'] === 'string' && ('instructions' in value || 'git' in value)) {
    return 'yes';
  }
  return 'no';
}

/** Codex rollouts: wrapped `{timestamp, type, payload}` lines, or the legacy bare header. */
export const CODEX_HEAD: HeadLineRules = {
  classify,
  prefix: new RegExp(
    `^\\{"timestamp":"[^"]*",("ordinal":\\d+,)?"type":"(${[...WRAPPED_LINE_TYPES].join('|')})","payload":|^\\{"id":"[^"]+","timestamp":"[^"]+","instructions":`,
  ),
};
