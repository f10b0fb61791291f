import type { Row } from '../store/values.js';

/**
 * The call of a parent session that spawned a subagent session: one whose id the child records
 * in its extra (Claude Code's `spawnedBy`), else one whose extra or output names the child (a
 * Task result holding the agent id, opencode's `sessionId`). Null when none does.
 */
export function spawningCall(parentCalls: readonly Row[], child: Row): string | null {
  const childExtra = child['extra'] === null || child['extra'] === undefined ? '' : String(child['extra']);
  const childId = String(child['id']);
  const shortId = childId.includes(':') ? childId.slice(childId.lastIndexOf(':') + 1) : childId;
  for (const call of parentCalls) {
    const callId = String(call['call_id']);
    if (childExtra.includes(JSON.stringify(callId))) return callId;
  }
  for (const call of parentCalls) {
    const text = `${String(call['extra'] ?? '')}\n${String(call['output'] ?? '')}`;
    if (text.includes(childId) || (shortId.length >= 8 && text.includes(shortId))) return String(call['call_id']);
  }
  return null;
}
