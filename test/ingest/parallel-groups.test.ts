import { describe, expect, it } from 'vitest';
import type { ToolCallRecord } from '../../src/core/model.js';
import { assignParallelGroups } from '../../src/ingest/parallel-groups.js';

function call(callId: string, startedAt: number | null, endedAt: number | null): ToolCallRecord {
  return {
    sessionId: 's', messageId: 'm', callId, tool: 'bash', status: 'completed', input: '{}', command: null, output: null,
    title: null, startedAt, endedAt, durationMs: null, exitCode: 0, timedOut: false, truncated: false, parallelGroup: null, extra: null,
  };
}

describe('assignParallelGroups', () => {
  it('groups calls whose run times overlap, named after the first', () => {
    const groups = assignParallelGroups([call('a', 0, 120_000), call('b', 10, 5_000), call('c', 20, 1_500), call('d', 130_000, 131_000)]);
    expect(groups.map((c) => c.parallelGroup)).toEqual(['a', 'a', 'a', null]);
  });

  it('chains overlaps and leaves back-to-back calls apart', () => {
    const groups = assignParallelGroups([call('a', 0, 10), call('b', 5, 20), call('c', 15, 30), call('d', 30, 40)]);
    expect(groups.map((c) => c.parallelGroup)).toEqual(['a', 'a', 'a', null]);
  });

  it('treats a call with no end as still running, and one with no start as ungrouped', () => {
    const groups = assignParallelGroups([call('a', 0, null), call('b', 1_000_000, 1_000_001), call('c', null, null)]);
    expect(groups.map((c) => c.parallelGroup)).toEqual(['a', 'a', null]);
  });
});
