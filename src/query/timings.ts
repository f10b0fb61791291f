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

/**
 * Attempts are numbered and grouped in SQL (a group sits where its first attempt appeared), so a
 * caller that shows the first `limit` rows of a store with a million calls reads only those.
 */
export async function attemptTimings(db: Database, options: { kind: TimingKindChoice; sessionId?: string; limit?: number }): Promise<TimingRow[]> {
  const kinds = options.kind === 'all' ? [...TIMING_KINDS] : [options.kind];
  const params: (string | number)[] = [...kinds];
  if (options.sessionId) params.push(options.sessionId);
  const limit = options.limit !== undefined && options.limit > 0 ? `LIMIT ${Math.floor(options.limit)}` : '';
  const rows = await db.all(
    `WITH attempts AS (
       SELECT session_id, kind, coalesce(subject, image, model, '?') AS subject, host, seq, started_at, duration_ms, outcome,
              bytes, message_ordinal, call_id
       FROM actions
       WHERE kind IN (${kinds.map(() => '?').join(', ')}) AND NOT coalesce(superseded, false)
         ${options.sessionId ? 'AND session_id = ?' : ''}
     )
     SELECT *, row_number() OVER w AS attempt, min(seq) OVER (PARTITION BY session_id, kind, subject, host) AS group_seq
     FROM attempts
     WINDOW w AS (PARTITION BY session_id, kind, subject, host ORDER BY seq)
     ORDER BY session_id, group_seq, attempt ${limit}`,
    params,
  );
  return rows.map((row) => {
    const duration = row['duration_ms'] === null ? null : Number(row['duration_ms']);
    const bytes = row['bytes'] === null ? null : Number(row['bytes']);
    const timing: TimingRow = {
      session: String(row['session_id']),
      kind: String(row['kind']) as TimingKind,
      subject: String(row['subject']),
      host: (row['host'] as string | null) ?? null,
      attempt: Number(row['attempt']),
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
    return timing;
  });
}
