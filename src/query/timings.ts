import type { Database } from '../store/database.js';
import { OUTCOMES, type Outcome } from './classify/kinds.js';

/**
 * `retrace timings`: one row per attempt at a pull, a download or a probe, retries of the same
 * subject on the same host numbered 1, 2, … and kept together. The outcome is the action's own:
 * a probe that rejected its candidate is `negative`, one that confirmed it `positive`, one that
 * broke `failed` — never all `ok`, which would hide the answer the probe was run for.
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
  outcome: Outcome;
  bytes?: number;
  mb_per_s?: number;
  message_ordinal: number;
  call_id: string;
}

/** What each outcome means, for `timings --help` and the README. */
export const OUTCOME_MEANINGS: Record<Outcome, string> = {
  ok: 'the step did its work',
  failed: 'the step broke (a non-zero exit, an error)',
  timeout: 'the agent\'s tool gave up waiting',
  negative: 'a probe that rejected its candidate',
  positive: 'a probe that confirmed its candidate',
  unknown: 'the record does not say',
};

function actionOutcome(outcome: string): Outcome {
  return OUTCOMES.find((o) => o === outcome) ?? 'unknown';
}

/**
 * Attempts are numbered and grouped in SQL (a group sits where its first attempt appeared), so a
 * caller that shows the first `limit` rows of a store with a million calls reads only those. Rows
 * come ordered by session first, so with a limit only the sessions up to the one where the count
 * of attempts reaches it are numbered: the same rows at a tenth of the cost on a big store.
 */
export async function attemptTimings(db: Database, options: { kind: TimingKindChoice; sessionId?: string; limit?: number }): Promise<TimingRow[]> {
  const kinds = options.kind === 'all' ? [...TIMING_KINDS] : [options.kind];
  const limit = options.limit !== undefined && options.limit > 0 ? Math.floor(options.limit) : null;
  const chosen = `kind IN (${kinds.map(() => '?').join(', ')}) AND NOT coalesce(superseded, false)`;
  const params: (string | number)[] = [...kinds];
  let narrowed = '';
  if (options.sessionId) {
    narrowed = 'AND session_id = ?';
    params.push(options.sessionId);
  } else if (limit !== null) {
    narrowed = `AND session_id <= (
      SELECT coalesce(max(session_id) FILTER (WHERE before < ?), chr(1114111))
      FROM (SELECT session_id, sum(n) OVER (ORDER BY session_id ROWS UNBOUNDED PRECEDING) - n AS before
            FROM (SELECT session_id, count(*) AS n FROM actions WHERE ${chosen} GROUP BY session_id)))`;
    params.push(limit, ...kinds);
  }
  const rows = await db.all(
    `WITH attempts AS (
       SELECT session_id, kind, coalesce(subject, image, model, '?') AS subject, host, seq, started_at, duration_ms, outcome,
              bytes, message_ordinal, call_id
       FROM actions
       WHERE ${chosen} ${narrowed}
     )
     SELECT *, row_number() OVER w AS attempt, min(seq) OVER (PARTITION BY session_id, kind, subject, host) AS group_seq
     FROM attempts
     WINDOW w AS (PARTITION BY session_id, kind, subject, host ORDER BY seq)
     ORDER BY session_id, group_seq, attempt ${limit === null ? '' : `LIMIT ${limit}`}`,
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
      outcome: actionOutcome(String(row['outcome'])),
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
