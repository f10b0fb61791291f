import type { RunController } from '../../src/core/run/events.js';
import type { OutputPage, TimelineRow, TuiServices } from '../../src/tui/services.js';
import { OUTPUTS, PLAN, RUN_STEPS, RUNS, SESSIONS, TIMELINE, TIMINGS, TREE, WHY_SCITRERA } from './fake-session.js';

/**
 * In-memory TuiServices for screen tests: the sample's facts (fake-session.ts), or a generated
 * timeline of any length. Every call is logged, so a test can prove what was (not) fetched.
 */
export interface FakeServices extends TuiServices {
  calls: { name: string; args: unknown[] }[];
}

export interface FakeOptions {
  /** A generated timeline of this many rows instead of the sample's stretch. */
  timelineRows?: number;
  liveRun?: RunController;
  /** Services that answer with this error (e.g. a tree not derived yet). */
  failing?: Partial<Record<keyof TuiServices, string>>;
}

export function generatedRow(index: number): TimelineRow {
  const ordinal = Math.floor(index / 2) + 1;
  if (index % 2 === 0) {
    return { kind: 'message', index, ordinal, role: 'assistant', created_at: '2026-02-26T13:41:08.000Z', preview: `step ${ordinal}: checking the node`, reasoning_preview: '', calls: 1, error: null };
  }
  return {
    kind: 'call', index, ordinal, call_id: `call-${ordinal}`, tool: 'bash', summary: `echo ${ordinal}`, started_at: null, duration_ms: 10, exit_code: 0,
    timed_out: false, failed: false, truncated: false, parallel_group: null, parallel_position: null, output_lines: 100_000,
  };
}

function linesOf(callId: string, total: number | null): string[] {
  return OUTPUTS[callId] ?? Array.from({ length: Math.min(total ?? 3, 100_000) }, (_, i) => `${callId} line ${i + 1}`);
}

export function fakeServices(options: FakeOptions = {}): FakeServices {
  const calls: FakeServices['calls'] = [];
  const rowCount = options.timelineRows ?? TIMELINE.length;
  const rowAt = (index: number) => (options.timelineRows ? generatedRow(index) : TIMELINE[index]);
  const outputLength = (callId: string) => {
    const row = TIMELINE.find((r) => r.kind === 'call' && r.call_id === callId);
    return OUTPUTS[callId]?.length ?? (row?.kind === 'call' ? row.output_lines : options.timelineRows ? 100_000 : 3);
  };
  const answer = async <T>(name: keyof TuiServices, args: unknown[], value: () => T): Promise<T> => {
    calls.push({ name, args });
    const failure = options.failing?.[name];
    if (failure) throw new Error(failure);
    return value();
  };
  const page = (callId: string, title: string, offset: number, limit: number): OutputPage => {
    const total = outputLength(callId);
    const lines = OUTPUTS[callId] ?? [];
    const slice = lines.length > 0 ? lines.slice(offset, offset + limit) : Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => `${callId} line ${offset + i + 1}`);
    return { call_id: callId, title, lines: slice, total_lines: total, offset };
  };
  return {
    calls,
    listSessions: () => answer('listSessions', [], () => SESSIONS),
    timeline: (sessionId, offset, limit) =>
      answer('timeline', [sessionId, offset, limit], () => {
        const rows: TimelineRow[] = [];
        for (let index = offset; index < Math.min(rowCount, offset + limit); index += 1) rows.push(rowAt(index) as TimelineRow);
        return { rows, total: rowCount, offset };
      }),
    searchTimeline: (sessionId, query) =>
      answer('searchTimeline', [sessionId, query], () =>
        options.timelineRows ? [] : TIMELINE.flatMap((row) => (JSON.stringify(row).toLowerCase().includes(query.toLowerCase()) ? [row.index] : []))),
    timelineIndexOf: (sessionId, ordinal) =>
      answer('timelineIndexOf', [sessionId, ordinal], () =>
        options.timelineRows ? (ordinal - 1) * 2 : (TIMELINE.find((row) => row.kind === 'message' && row.ordinal === ordinal)?.index ?? null)),
    toolOutput: (sessionId, callId, offset, limit) => answer('toolOutput', [sessionId, callId, offset, limit], () => page(callId, callId, offset, limit)),
    messageText: (sessionId, ordinal, offset, limit) =>
      answer('messageText', [sessionId, ordinal, offset, limit], () => {
        const row = TIMELINE.find((r) => r.kind === 'message' && r.ordinal === ordinal);
        const lines = row?.kind === 'message' ? [row.reasoning_preview, row.preview].filter(Boolean) : [];
        return { call_id: `#${ordinal}`, title: `#${ordinal}`, lines: lines.slice(offset, offset + limit), total_lines: lines.length, offset };
      }),
    commandText: (sessionId, callId, offset, limit) =>
      answer('commandText', [sessionId, callId, offset, limit], () => {
        const lines = [`ssh aurora@10.1.230.180 'recorded command of ${callId}'`];
        return { call_id: callId, title: `Command · bash`, lines: lines.slice(offset, offset + limit), total_lines: lines.length, offset };
      }),
    copy: (text) => answer('copy', [text], () => `copied (OSC 52), also in /tmp/retrace-copy.txt`),
    searchText: (sessionId, target, query) =>
      answer('searchText', [sessionId, target, query], () =>
        target.kind === 'plan' ? PLAN.yaml.flatMap((line, i) => (line.toLowerCase().includes(query.toLowerCase()) ? [i] : [])) : target.kind === 'call' ? linesOf(target.callId, outputLength(target.callId)).flatMap((line, i) => (line.toLowerCase().includes(query.toLowerCase()) ? [i] : [])) : []),
    tree: (sessionId) => answer('tree', [sessionId], () => TREE),
    why: (sessionId, candidate) => answer('why', [sessionId, candidate], () => ({ ...WHY_SCITRERA, candidate })),
    plan: (sessionId) => answer('plan', [sessionId], () => PLAN),
    timings: (sessionId) => answer('timings', [sessionId], () => TIMINGS),
    listRuns: () => answer('listRuns', [], () => RUNS),
    runSteps: (runId) => answer('runSteps', [runId], () => RUN_STEPS),
    ...(options.liveRun ? { liveRun: options.liveRun } : {}),
  };
}
