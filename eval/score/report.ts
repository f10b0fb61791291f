// Aggregation and presentation: per transcript, per framework, per failure shape, overall means,
// and the goal lines (reported as met or missed, not asserted).
import type { SessionScore } from './metrics.js';

export interface EntryResult {
  id: string;
  source: 'story' | 'real';
  /** eval/sets.yaml's set of a story (development, held-out, fresh-N); `real` for the real sessions. */
  set: string;
  agent: string;
  version: string | null;
  frameworks: string[];
  shapes: string[];
  deploys: boolean;
  score: SessionScore | null;
  error: string | null;
  notes: string[];
}

/** The per-entry numbers every aggregate is a mean of. */
export const METRICS = {
  cand_p: (s: SessionScore) => s.candidatePrecision,
  cand_r: (s: SessionScore) => s.candidateRecall,
  reason: (s: SessionScore) => s.reasons.share,
  goal: (s: SessionScore) => s.goal.share,
  pivots: (s: SessionScore) => s.pivots.share,
  att_p: (s: SessionScore) => s.attempts.precision,
  att_r: (s: SessionScore) => s.attempts.recall,
  plan_p: (s: SessionScore) => s.plan.precision,
  plan_r: (s: SessionScore) => s.plan.recall,
  dry: (s: SessionScore) => (s.plan.dryRun === null ? null : s.plan.dryRun ? 1 : 0),
  clean: (s: SessionScore) => (s.clean === null ? null : s.clean ? 1 : 0),
} as const;

export type MetricName = keyof typeof METRICS;
export type Means = Record<MetricName, number | null> & { n: number };

export function means(entries: EntryResult[]): Means {
  const scored = entries.map((entry) => entry.score).filter((score): score is SessionScore => score !== null);
  const result = { n: entries.length } as Means;
  for (const [name, pick] of Object.entries(METRICS) as [MetricName, (s: SessionScore) => number | null][]) {
    const values = scored.map(pick).filter((value): value is number => value !== null);
    result[name] = values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
  }
  return result;
}

export function groupBy(entries: EntryResult[], keys: (entry: EntryResult) => string[]): Record<string, Means> {
  const groups = new Map<string, EntryResult[]>();
  for (const entry of entries) for (const key of keys(entry)) groups.set(key, [...(groups.get(key) ?? []), entry]);
  return Object.fromEntries([...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, group]) => [key, means(group)]));
}

/** Pooled candidate counts over every deploying session (a micro average next to the macro means). */
export function pooled(entries: EntryResult[]): { precision: number | null; recall: number | null; reported: number; labeled: number; correct: number } {
  let reported = 0, labeled = 0, correct = 0, found = 0;
  for (const entry of entries) {
    if (!entry.deploys || entry.score === null) continue;
    reported += entry.score.candidates.reported;
    labeled += entry.score.candidates.labeled;
    correct += entry.score.candidates.correct;
    found += entry.score.candidates.found;
  }
  return { precision: reported === 0 ? null : correct / reported, recall: labeled === 0 ? null : found / labeled, reported, labeled, correct };
}

export interface Goal { metric: MetricName; label: string; target: number }

/** The candidate and reason targets are issue 13's; the plan targets issue 21's. */
export const GOALS: Goal[] = [
  { metric: 'cand_p', label: 'candidate precision (right verdict)', target: 0.95 },
  { metric: 'cand_r', label: 'candidate recall (right verdict)', target: 0.95 },
  { metric: 'reason', label: 'reasons holding the decisive words', target: 0.9 },
  { metric: 'goal', label: 'goal keywords in the extracted goal', target: 0.9 },
  { metric: 'pivots', label: 'labeled pivots found in order', target: 0.7 },
  { metric: 'att_r', label: 'pulls/downloads found with their outcome', target: 0.8 },
  { metric: 'plan_p', label: 'plan precision', target: 0.9 },
  { metric: 'plan_r', label: 'plan recall', target: 0.9 },
  { metric: 'dry', label: 'plans whose dry run validates', target: 1 },
  { metric: 'clean', label: 'non-deploying sessions with no candidates and no plan', target: 1 },
];

function cell(value: number | null | undefined, width = 6): string {
  return (value === null || value === undefined ? '–' : value.toFixed(2)).padStart(width);
}

const COLUMNS = Object.keys(METRICS) as MetricName[];

function header(first: string, width: number): string {
  return `${first.padEnd(width)} ${'n'.padStart(3)} ${COLUMNS.map((name) => name.padStart(6)).join(' ')}`;
}

function row(name: string, width: number, n: number | string, values: Record<MetricName, number | null>): string {
  return `${name.padEnd(width)} ${String(n).padStart(3)} ${COLUMNS.map((metric) => cell(values[metric])).join(' ')}`;
}

export function renderReport(entries: EntryResult[]): string {
  const lines: string[] = [];
  const width = Math.max(28, ...entries.map((entry) => entry.id.length + 2));
  lines.push('Per transcript (cand = candidates with the right verdict, att = pulls/downloads, clean = non-deploying session left alone)');
  lines.push(header('transcript', width));
  for (const entry of entries) {
    if (entry.score === null) {
      lines.push(`${entry.id.padEnd(width)}   ! ${entry.error ?? 'not scored'}`);
      continue;
    }
    const values = Object.fromEntries(COLUMNS.map((metric) => [metric, METRICS[metric](entry.score!)])) as Record<MetricName, number | null>;
    lines.push(row(entry.id, width, 1, values));
  }
  const section = (title: string, groups: Record<string, Means>): void => {
    lines.push('', title, header('', width));
    for (const [key, group] of Object.entries(groups)) lines.push(row(key, width, group.n, group));
  };
  section('Per set (what the rules have seen, eval/sets.yaml)', groupBy(entries, (entry) => [entry.set]));
  section('Per framework (mean over transcripts that involve it)', groupBy(entries, (entry) => entry.frameworks));
  section('Per failure shape (mean over transcripts that cover it)', groupBy(entries, (entry) => entry.shapes));
  section('Per agent', groupBy(entries, (entry) => [entry.agent]));
  const overall = means(entries);
  lines.push('', 'Overall (mean over transcripts)', header('', width), row('all', width, overall.n, overall));
  const micro = pooled(entries);
  lines.push(`pooled candidates: ${micro.correct} right of ${micro.reported} reported, ${micro.labeled} labeled → precision ${cell(micro.precision, 0)}, recall ${cell(micro.recall, 0)}`);
  lines.push('', 'Goals (reported, not asserted):');
  for (const goal of GOALS) {
    const value = overall[goal.metric];
    const status = value === null ? 'n/a   ' : value >= goal.target ? 'met   ' : 'missed';
    lines.push(`  ${status}  ${goal.label}: ${cell(value, 0)} (goal ≥ ${goal.target.toFixed(2)})`);
  }
  const failures = entries.filter((entry) => entry.error !== null || entry.notes.length > 0);
  if (failures.length > 0) {
    lines.push('', 'Notes:');
    for (const entry of failures) for (const note of [entry.error, ...entry.notes].filter(Boolean)) lines.push(`  ${entry.id}: ${note}`);
  }
  return `${lines.join('\n')}\n`;
}
