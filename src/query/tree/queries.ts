import type { Database } from '../../store/database.js';
import type { Row } from '../../store/values.js';
import type { CandidateKind, CandidateNode, DecisionTree, EvidenceRef, PivotScope, Verdict } from './types.js';

/** Reading a stored tree back: only the asked session's rows of `trees`, `candidates`, `pivots`. */

function parseJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string' || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

export function toCandidate(row: Row): CandidateNode {
  return {
    name: String(row['name']),
    kind: String(row['kind']) as CandidateKind,
    framework: (row['framework'] as string | null) ?? null,
    parent: (row['parent'] as string | null) ?? null,
    verdict: String(row['verdict']) as Verdict,
    reason: String(row['reason'] ?? ''),
    evidence: parseJson<EvidenceRef[]>(row['evidence'], []),
    mentions: parseJson<number[]>(row['mentions'], []),
    first_ordinal: numOrNull(row['first_ordinal']),
    last_ordinal: numOrNull(row['last_ordinal']),
    followup: row['followup_ordinal'] === null || row['followup_ordinal'] === undefined
      ? null
      : { message_ordinal: Number(row['followup_ordinal']), text: String(row['followup'] ?? '') },
  };
}

export const CANDIDATE_COLUMNS = 'session_id, seq, name, kind, framework, parent, verdict, reason, first_ordinal, last_ordinal, evidence, mentions, followup_ordinal, followup';

export async function loadTree(db: Database, sessionId: string): Promise<DecisionTree | null> {
  const tree = await db.one(`SELECT goal, goal_ordinal FROM trees WHERE session_id = ?`, [sessionId]);
  if (!tree) return null;
  const candidates = await db.all(`SELECT ${CANDIDATE_COLUMNS} FROM candidates WHERE session_id = ? ORDER BY seq`, [sessionId]);
  const pivots = await db.all(`SELECT from_candidate, to_candidate, message_ordinal, reason, scope FROM pivots WHERE session_id = ? ORDER BY seq`, [sessionId]);
  return {
    session: sessionId,
    goal: (tree['goal'] as string | null) ?? null,
    goal_ordinal: numOrNull(tree['goal_ordinal']),
    candidates: candidates.map(toCandidate),
    pivots: pivots.map((row) => ({
      from: String(row['from_candidate']),
      to: String(row['to_candidate']),
      message_ordinal: Number(row['message_ordinal']),
      reason: String(row['reason'] ?? ''),
      scope: String(row['scope']) as PivotScope,
    })),
  };
}

/** The JSON shape of the CLI contract: `{session, goal, candidates:[{name, kind, verdict, reason, evidence:[{message_ordinal, call_id}]}], pivots:[{from, to, message_ordinal, reason}]}`. */
export function treeJson(tree: DecisionTree): {
  session: string;
  goal: string | null;
  candidates: { name: string; kind: CandidateKind; framework: string | null; verdict: Verdict; reason: string; evidence: { message_ordinal: number; call_id: string }[] }[];
  pivots: { from: string; to: string; message_ordinal: number; reason: string }[];
} {
  return {
    session: tree.session,
    goal: tree.goal,
    candidates: tree.candidates.map((c) => ({
      name: c.name,
      kind: c.kind,
      framework: c.framework,
      verdict: c.verdict,
      reason: c.reason,
      evidence: c.evidence.map((e) => ({ message_ordinal: e.message_ordinal, call_id: e.call_id })),
    })),
    pivots: tree.pivots.map((p) => ({ from: p.from, to: p.to, message_ordinal: p.message_ordinal, reason: p.reason })),
  };
}
