import type { ToolCallRecord } from '../core/model.js';

/**
 * Marks the calls of one message that ran at the same time: calls whose [start, end] intervals
 * overlap (directly or through a chain) share a group named after the group's first call.
 * Calls with no start time, and calls that overlapped nothing, stay ungrouped.
 */
export function assignParallelGroups(calls: ToolCallRecord[]): ToolCallRecord[] {
  const timed = calls
    .filter((call) => call.startedAt !== null)
    .sort((a, b) => (a.startedAt as number) - (b.startedAt as number));
  const groupOf = new Map<ToolCallRecord, string>();
  let current: ToolCallRecord[] = [];
  let currentEnd = -Infinity;
  const close = (): void => {
    if (current.length > 1) {
      const name = (current[0] as ToolCallRecord).callId;
      for (const call of current) groupOf.set(call, name);
    }
    current = [];
    currentEnd = -Infinity;
  };
  for (const call of timed) {
    const start = call.startedAt as number;
    // A call still running (no end) is open-ended; a zero-length call covers its instant.
    const end = call.endedAt ?? Number.POSITIVE_INFINITY;
    if (current.length > 0 && start >= currentEnd) close();
    current.push(call);
    currentEnd = Math.max(currentEnd, end);
  }
  close();
  return calls.map((call) => ({ ...call, parallelGroup: groupOf.get(call) ?? call.parallelGroup ?? null }));
}
