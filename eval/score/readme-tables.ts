// The README's tables of "The decision tree, measured", made from bench/results/eval.json:
//   npx tsx eval/score/readme-tables.ts [eval.json]   → Markdown on stdout, to paste over the old tables.
// Set names and their marks are data here; a new set needs a line in SETS.
import { readFileSync } from 'node:fs';
import { METRICS, type EntryResult } from './report.js';

type MetricName = keyof typeof METRICS;
type Means = { n: number } & Partial<Record<MetricName, number | null>>;

interface EvalJson {
  by_set: Record<string, Means>;
  by_framework: Record<string, Means>;
  by_shape: Record<string, Means>;
  overall: Means;
  entries: EntryResult[];
}

/** Each set's row name and the mark its stories carry in the per-transcript table, in row order. */
const SETS: { set: string; name: string; note?: string; mark: string }[] = [
  { set: 'development', name: 'development set', mark: '' },
  { set: 'held-out', name: 'held out', mark: '*' },
  { set: 'fresh-1', name: 'fresh blind 1', mark: '†' },
  { set: 'fresh-2', name: 'fresh 2', note: 'read since', mark: '‡' },
  { set: 'fresh-3', name: 'fresh 3', note: 'read since', mark: '§' },
  { set: 'fresh-4', name: 'fresh 4', note: 'read since', mark: '¶' },
  { set: 'fresh-5', name: 'fresh 5', note: 'read since', mark: '⁵' },
  { set: 'fresh-6', name: 'fresh 6', note: 'read since', mark: '⁶' },
  { set: 'fresh-7', name: 'fresh blind 7', note: 'never read by a rule writer', mark: '⁷' },
  { set: 'fresh-8', name: 'fresh 8', note: 'read since', mark: '⁸' },
  { set: 'fresh-9', name: 'fresh 9', note: 'read since', mark: '⁹' },
  { set: 'fresh-10', name: 'fresh 10', note: 'read since', mark: '¹⁰' },
  { set: 'fresh-11', name: 'fresh 11', note: 'read since', mark: '¹¹' },
  { set: 'fresh-12', name: 'fresh 12', note: 'read since', mark: '¹²' },
  { set: 'fresh-13', name: 'fresh 13', note: 'read since', mark: '¹³' },
  { set: 'fresh-14', name: 'fresh 14', note: 'read since', mark: '¹⁴' },
  { set: 'fresh-16', name: 'fresh 16', note: 'read since', mark: '¹⁶' },
  { set: 'fresh-17', name: 'fresh 17', note: 'read since', mark: '¹⁷' },
  { set: 'fresh-18', name: 'fresh blind 18', note: 'never read by a rule writer', mark: '¹⁸' },
  { set: 'fresh-19', name: 'fresh 19', note: 'read since', mark: '¹⁹' },
  { set: 'fresh-20', name: 'fresh 20', note: 'read since', mark: '²⁰' },
  { set: 'fresh-21', name: 'fresh blind 21', note: 'never read by a rule writer', mark: '²¹' },
  { set: 'real-deploy', name: 'real, asked to deploy', note: 'labelled blind', mark: '' },
  { set: 'real', name: 'real, deploy nothing', mark: '' },
];

const COLUMNS = ['cand_p', 'cand_r', 'reason', 'goal', 'pivots', 'att_p', 'att_r', 'plan_p', 'plan_r', 'clean'] as const satisfies readonly MetricName[];

function cell(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : value.toFixed(2);
}

function table(rows: { name: string; values: Partial<Record<MetricName, number | null>> }[]): string {
  const head = `| | ${COLUMNS.join(' | ')} |\n|---|${COLUMNS.map(() => '---:').join('|')}|`;
  return [head, ...rows.map(({ name, values }) => `| ${name} | ${COLUMNS.map((c) => cell(values[c])).join(' | ')} |`)].join('\n');
}

function entryValues(entry: EntryResult): Partial<Record<MetricName, number | null>> {
  const score = entry.score;
  if (!score) return {};
  return Object.fromEntries(COLUMNS.map((c) => [c, METRICS[c](score)]));
}

export function readmeTables(result: EvalJson): string {
  const known = new Set(SETS.map((s) => s.set));
  const unknown = Object.keys(result.by_set).filter((set) => !known.has(set));
  if (unknown.length) throw new Error(`eval/score/readme-tables.ts: no name for set ${unknown.join(', ')}: add it to SETS`);
  const setRows = SETS.filter((s) => result.by_set[s.set]).map((s) => ({ name: `**${s.name}**${s.note ? ` (${s.note})` : ''} (${result.by_set[s.set]?.n})`, values: result.by_set[s.set] ?? {} }));
  setRows.push({ name: `**all** (${result.overall.n})`, values: result.overall });
  const mark = new Map(SETS.map((s) => [s.set, s.mark]));
  const stories = result.entries.filter((e) => e.source === 'story').sort((a, b) => a.id.localeCompare(b.id));
  const storyRows = stories.map((e) => ({ name: `\`${e.id}\`${mark.get(e.set) ? ` ${mark.get(e.set)}` : ''}`, values: entryValues(e) }));
  const marks = SETS.filter((s) => s.mark && result.by_set[s.set]).map((s) => `\`${s.mark}\` = ${s.name}`).join(', ');
  const grouped = (groups: Record<string, Means>) => Object.keys(groups).sort().map((name) => ({ name, values: groups[name] ?? {} }));
  return [
    table(setRows),
    `Per transcript (${marks}; the real sessions are in the set rows above):`,
    table(storyRows),
    'Per framework:',
    table(grouped(result.by_framework)),
    'Per failure shape:',
    table(grouped(result.by_shape)),
  ].join('\n\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = process.argv[2] ?? 'bench/results/eval.json';
  process.stdout.write(`${readmeTables(JSON.parse(readFileSync(path, 'utf8')) as EvalJson)}\n`);
}
