import { nearestNames } from '../core/nearest-names.js';
import type { Database } from '../store/database.js';
import { CANDIDATE_COLUMNS, toCandidate } from './tree/queries.js';
import type { CandidateKind, Verdict } from './tree/types.js';

/**
 * `retrace why CANDIDATE`: a candidate's verdict and reason, each evidence command with the output
 * lines that decided it, and what the assistant reasoned next. CANDIDATE is a case-insensitive
 * substring of the name (`scitrera`); every match is answered, in session order.
 */
export interface WhyEvidence {
  message_ordinal: number;
  call_id: string;
  kind: string;
  outcome: string;
  decisive: boolean;
  host: string | null;
  duration_ms: number | null;
  command: string;
  /** The output lines that carry the verdict: signatures, version facts, health readings. */
  lines: string[];
}

export interface WhyAnswer {
  session: { id: string; title: string | null };
  name: string;
  kind: CandidateKind;
  verdict: Verdict;
  reason: string;
  /** Where the assistant named it (for leads never tried). */
  mentions: number[];
  evidence: WhyEvidence[];
  followup: { message_ordinal: number; text: string } | null;
}

/** A name that matches across many sessions answers for the first few; --session narrows it. */
export const MAX_MATCHES = 10;

/** How many candidates the query matches in all (the answer shows at most MAX_MATCHES of them). */
export async function countCandidateMatches(db: Database, query: string, sessionId?: string): Promise<number> {
  const rows = await db.all(
    `SELECT count(*) AS n FROM candidates WHERE contains(lower(name), lower(?)) ${sessionId ? 'AND session_id = ?' : ''}`,
    sessionId ? [query, sessionId] : [query],
  );
  return Number(rows[0]?.['n'] ?? 0);
}

/** Names to suggest when nothing matches: the nearest of the store's candidate names. */
export async function suggestCandidateNames(db: Database, query: string, sessionId?: string): Promise<string[]> {
  const rows = await db.all(
    `SELECT DISTINCT name FROM candidates ${sessionId ? 'WHERE session_id = ?' : ''} ORDER BY name LIMIT 20000`,
    sessionId ? [sessionId] : [],
  );
  return nearestNames(query, rows.map((row) => String(row['name'])));
}

export async function whyCandidate(db: Database, query: string, sessionId?: string): Promise<WhyAnswer[]> {
  const rows = await db.all(
    `SELECT ${CANDIDATE_COLUMNS} FROM candidates
     WHERE contains(lower(name), lower(?)) ${sessionId ? 'AND session_id = ?' : ''}
     ORDER BY session_id, seq LIMIT ${MAX_MATCHES}`,
    sessionId ? [query, sessionId] : [query],
  );
  const candidates = rows.map((row) => ({ session: String(row['session_id']), candidate: toCandidate(row) }));
  // Two queries for every match together (titles, then the evidence actions), not two per match.
  const sessions = [...new Set(candidates.map((c) => c.session))];
  const titles = new Map<string, string | null>();
  if (sessions.length > 0) {
    const found = await db.all(`SELECT id, title FROM sessions WHERE id IN (${sessions.map(() => '?').join(', ')})`, sessions);
    for (const row of found) titles.set(String(row['id']), (row['title'] as string | null) ?? null);
  }
  const pairs = candidates.flatMap(({ session, candidate }) => [...new Set(candidate.evidence.map((e) => e.call_id))].map((callId) => [session, callId]));
  const actions = pairs.length === 0
    ? []
    : await db.all(
      `SELECT a.session_id, a.call_id, a.kind, a.outcome, a.host, a."user", a.duration_ms, a.command, a.evidence, a.seq
       FROM actions a JOIN (VALUES ${pairs.map(() => '(?, ?)').join(', ')}) AS wanted(session_id, call_id)
         ON a.session_id = wanted.session_id AND a.call_id = wanted.call_id
       -- the session filter lets the scan skip every row group of other sessions
       WHERE a.session_id IN (${sessions.map(() => '?').join(', ')})
       ORDER BY a.seq`,
      [...pairs.flat(), ...sessions],
    );
  const answers: WhyAnswer[] = [];
  for (const { session, candidate } of candidates) {
    const evidence: WhyEvidence[] = candidate.evidence.map((ref) => {
      const own = actions.filter((a) => a['session_id'] === session && a['call_id'] === ref.call_id);
      const action = own.find((a) => a['kind'] === ref.kind) ?? own[0];
      const user = action?.['user'] ? `${String(action['user'])}@` : '';
      return {
        message_ordinal: ref.message_ordinal,
        call_id: ref.call_id,
        kind: ref.kind,
        outcome: ref.outcome,
        decisive: ref.decisive,
        host: action?.['host'] ? `${user}${String(action['host'])}` : null,
        duration_ms: action?.['duration_ms'] === null || action?.['duration_ms'] === undefined ? null : Number(action['duration_ms']),
        command: String(action?.['command'] ?? ''),
        lines: String(action?.['evidence'] ?? '').split('\n').filter(Boolean),
      };
    });
    answers.push({
      session: { id: session, title: titles.get(session) ?? null },
      name: candidate.name,
      kind: candidate.kind,
      verdict: candidate.verdict,
      reason: candidate.reason,
      mentions: candidate.mentions,
      evidence,
      followup: candidate.followup,
    });
  }
  return answers;
}
