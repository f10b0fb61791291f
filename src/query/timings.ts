import type { Database } from '../store/database.js';

/**
 * `retrace timings`: one row per attempt at a pull, a download or a probe, retries of the same
 * subject on the same host numbered 1, 2, … and kept together. Outcomes are those of a step:
 * a probe that answered (yes or no) is `ok`; only a probe that broke is `failed`.
 */
export const TIMING_KINDS = ['pull', 'download', 'probe'] as const;
export type TimingKind = (typeof TIMING_KINDS)[number];
export type TimingKindChoice = TimingKind | 'all';

export interface TimingRow {
  session: string;
  kind: TimingKind;
  subject: string;
  host: string | null;
  attempt: number;
  started_at: string | null;
  duration_ms: number | null;
  outcome: 'ok' | 'failed' | 'timeout' | 'unknown';
  bytes?: number;
  mb_per_s?: number;
  message_ordinal: number;
  call_id: string;
}

function stepOutcome(outcome: string): TimingRow['outcome'] {
  if (outcome === 'ok' || outcome === 'positive' || outcome === 'negative') return 'ok';
  if (outcome === 'failed' || outcome === 'timeout') return outcome;
  return 'unknown';
}

export async function attemptTimings(db: Database, options: { kind: TimingKindChoice; sessionId?: string }): Promise<TimingRow[]> {
  const kinds = options.kind === 'all' ? [...TIMING_KINDS] : [options.kind];
  const params: string[] = [...kinds];
  if (options.sessionId) params.push(options.sessionId);
  const rows = await db.all(
    `SELECT session_id, kind, coalesce(subject, image, model, '?') AS subject, host, started_at, duration_ms, outcome, bytes,
            message_ordinal, call_id
     FROM actions
     WHERE kind IN (${kinds.map(() => '?').join(', ')}) AND NOT coalesce(superseded, false)
       ${options.sessionId ? 'AND session_id = ?' : ''}
     ORDER BY session_id, seq`,
    params,
  );
  const groups = new Map<string, TimingRow[]>();
  for (const row of rows) {
    const key = [row['session_id'], row['kind'], row['subject'], row['host']].join('\u0000');
    const group = groups.get(key) ?? [];
    const duration = row['duration_ms'] === null ? null : Number(row['duration_ms']);
    const bytes = row['bytes'] === null ? null : Number(row['bytes']);
    const timing: TimingRow = {
      session: String(row['session_id']),
      kind: String(row['kind']) as TimingKind,
      subject: String(row['subject']),
      host: (row['host'] as string | null) ?? null,
      attempt: group.length + 1,
      started_at: (row['started_at'] as string | null) ?? null,
      duration_ms: duration,
      outcome: stepOutcome(String(row['outcome'])),
      message_ordinal: Number(row['message_ordinal']),
      call_id: String(row['call_id']),
    };
    if (bytes !== null) {
      timing.bytes = bytes;
      if (duration && duration > 0) timing.mb_per_s = Math.round((bytes / 1e6 / (duration / 1000)) * 10) / 10;
    }
    group.push(timing);
    groups.set(key, group);
  }
  // Groups in the order their first attempt appeared; attempts in order within each group.
  return [...groups.values()].flat();
}
