// Pure scoring of one session: what retrace derived (tree, timings, plan) against the labels.
// Every metric is a share in [0, 1], or null when the labels give it nothing to measure.
import type { Labels } from '../schema.js';
import type { RetracePlan, RetraceTree, TimingRow } from './retrace.js';

/** Case, a docker.io/ or library/ prefix, a :latest tag and extra spaces do not matter. */
export function normalizeName(name: string): string {
  let n = name.trim().replace(/^[`'"]+|[`'"]+$/g, '').toLowerCase().replace(/\s+/g, ' ');
  n = n.replace(/^(index\.)?docker\.io\//, '').replace(/^library\//, '');
  if (n.endsWith(':latest')) n = n.slice(0, -':latest'.length);
  return n;
}

/** Index of the labeled candidate a name denotes (by name or alias), or -1. */
export function labeledIndex(labels: Labels, name: string): number {
  const wanted = normalizeName(name);
  return labels.candidates.findIndex((candidate) => [candidate.name, ...candidate.aliases].some((spelling) => normalizeName(spelling) === wanted));
}

export function share(hit: number, total: number): number | null {
  return total === 0 ? null : hit / total;
}

/** Length of the longest common subsequence under an equality predicate. */
export function lcs<A, B>(left: A[], right: B[], same: (a: A, b: B) => boolean): number {
  const row = new Array<number>(right.length + 1).fill(0);
  for (const a of left) {
    let diagonal = 0;
    for (let j = 1; j <= right.length; j += 1) {
      const above = row[j]!;
      row[j] = same(a, right[j - 1]!) ? diagonal + 1 : Math.max(row[j]!, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[right.length]!;
}

function containsAll(text: string | null | undefined, words: string[]): boolean {
  const haystack = (text ?? '').toLowerCase();
  return words.every((word) => haystack.includes(word.toLowerCase()));
}

/**
 * Timings group retries by subject (README: "retries grouped and numbered"), so attempts are
 * compared subject by subject: within one subject (and host), the outcomes in order.
 */
export function matchAttempts(labeled: Labels['attempts'], rows: TimingRow[]): number {
  const rowFits = (label: Labels['attempts'][number], row: TimingRow): boolean => {
    const subject = normalizeName(row.subject ?? '');
    const wanted = normalizeName(label.subject);
    return row.kind === label.kind && (subject === wanted || subject.includes(wanted)) && (label.host === undefined || row.host === label.host);
  };
  const groups = new Map<string, Labels['attempts']>();
  for (const label of labeled) {
    const key = `${label.kind} ${normalizeName(label.subject)} ${label.host ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), label]);
  }
  let matched = 0;
  const taken = new Set<TimingRow>();
  for (const group of groups.values()) {
    const candidates = rows.filter((row) => !taken.has(row) && rowFits(group[0]!, row));
    const count = lcs(group, candidates, (label, row) => label.outcome === row.outcome);
    matched += count;
    candidates.slice(0, Math.max(count, group.length)).forEach((row) => taken.add(row));
  }
  return matched;
}

export interface CandidateOutcome {
  name: string;
  verdict: string;
  /** The labeled candidate it denotes, or null. */
  label: string | null;
  expected: string | null;
  correct: boolean;
  reasonOk: boolean | null;
}

export interface SessionScore {
  /** Candidates retrace reported, labeled candidates, and retrace's that matched with the right verdict. */
  candidates: { reported: number; labeled: number; correct: number; found: number };
  candidatePrecision: number | null;
  candidateRecall: number | null;
  reasons: { checked: number; ok: number; share: number | null };
  goal: { keywords: number; present: number; share: number | null; text: string | null };
  pivots: { labeled: number; inOrder: number; reported: number; share: number | null };
  attempts: { labeled: number; reported: number; matched: number; precision: number | null; recall: number | null };
  plan: { labeled: number; produced: number; matched: number; precision: number | null; recall: number | null; dryRun: boolean | null };
  /** Sessions that deploy nothing: true when retrace found no candidate and made no plan. */
  clean: boolean | null;
  outcomes: CandidateOutcome[];
  missing: string[];
  /** What retrace reported, in short, so a reader of eval.json can see why a number is what it is. */
  observed: { pivots: string[]; attempts: string[]; plan: string[] };
}

export function scoreSession(labels: Labels, tree: RetraceTree, timings: TimingRow[], plan: RetracePlan | null): SessionScore {
  const used = new Set<number>();
  const outcomes: CandidateOutcome[] = tree.candidates.map((candidate) => {
    const index = labeledIndex(labels, candidate.name);
    const label = index >= 0 ? labels.candidates[index]! : undefined;
    const fresh = index >= 0 && !used.has(index);
    const correct = label !== undefined && fresh && label.verdict === candidate.verdict;
    if (correct) used.add(index);
    const judged = label !== undefined && label.verdict !== 'untested' && label.reason_keywords.length > 0;
    return {
      name: candidate.name, verdict: candidate.verdict, label: label?.name ?? null, expected: label?.verdict ?? null, correct,
      reasonOk: judged ? containsAll(candidate.reason, label.reason_keywords) : null,
    };
  });
  const correct = outcomes.filter((outcome) => outcome.correct).length;
  const judged = outcomes.filter((outcome) => outcome.reasonOk !== null);
  const missing = labels.candidates.filter((_, index) => !used.has(index)).map((candidate) => `${candidate.name} (${candidate.verdict})`);

  const keywords = labels.goal_keywords;
  const present = keywords.filter((word) => containsAll(tree.goal, [word])).length;

  const pivotKey = (from: string, to: string): string => `${labeledIndex(labels, from)}→${labeledIndex(labels, to)}`;
  const labeledPivots = labels.pivots.map(([from, to]) => pivotKey(from, to));
  const reportedPivots = tree.pivots.map((pivot) => pivotKey(pivot.from, pivot.to));
  const inOrder = lcs(labeledPivots, reportedPivots, (a, b) => a === b && !a.includes('-1'));

  const fetched = timings.filter((row) => row.kind === 'pull' || row.kind === 'download');
  const attemptsMatched = matchAttempts(labels.attempts, fetched);

  const steps = plan?.steps ?? [];
  const roleHosts = (roles: string[]): string[] => roles.flatMap((role) => {
    const info = plan?.roles?.[role];
    return [role, info?.recorded_address, info?.recorded_hostname].filter((value): value is string => typeof value === 'string');
  });
  const samePlanStep = (label: Labels['plan'][number], step: RetracePlan['steps'][number]): boolean =>
    containsAll(step.command, label.must) && (label.host === undefined || roleHosts(step.roles ?? []).includes(label.host));
  const planMatched = lcs(labels.plan, steps, samePlanStep);

  return {
    candidates: { reported: outcomes.length, labeled: labels.candidates.length, correct, found: used.size },
    candidatePrecision: labels.deploys ? share(correct, outcomes.length) : null,
    candidateRecall: labels.deploys ? share(used.size, labels.candidates.length) : null,
    reasons: { checked: judged.length, ok: judged.filter((outcome) => outcome.reasonOk).length, share: share(judged.filter((outcome) => outcome.reasonOk).length, judged.length) },
    goal: { keywords: keywords.length, present, share: share(present, keywords.length), text: tree.goal ?? null },
    pivots: { labeled: labeledPivots.length, inOrder, reported: reportedPivots.length, share: share(inOrder, labeledPivots.length) },
    attempts: { labeled: labels.attempts.length, reported: fetched.length, matched: attemptsMatched, precision: share(attemptsMatched, fetched.length), recall: share(attemptsMatched, labels.attempts.length) },
    plan: {
      labeled: labels.plan.length, produced: steps.length, matched: planMatched,
      precision: labels.deploys ? share(planMatched, steps.length) : null, recall: share(planMatched, labels.plan.length),
      dryRun: plan?.dryRun ?? null,
    },
    clean: labels.deploys ? null : outcomes.length === 0 && steps.length === 0,
    outcomes,
    missing,
    observed: {
      pivots: tree.pivots.map((pivot) => `${pivot.from} → ${pivot.to}`),
      attempts: fetched.map((row) => `${row.kind} ${row.subject ?? '?'} @${row.host ?? 'local'}: ${row.outcome}`),
      plan: steps.map((step) => `[${roleHosts(step.roles ?? []).join(' ')}] ${step.command.length > 160 ? `${step.command.slice(0, 160)}…` : step.command}`),
    },
  };
}
