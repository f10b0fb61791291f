import { cpus, freemem, totalmem, release, loadavg } from 'node:os';
import { round } from './stats.js';

/**
 * One measured figure with the baseline measured in the same run, the ratio between them and the
 * goal it is held to. Every phase reports figures; run.ts prints them and writes latest.json.
 */
export interface Measure {
  label: string;
  value: number | null;
  unit: string;
  /** The individual runs behind a median, when there were several. */
  runs?: number[];
}

export interface Figure {
  id: string;
  group: 'ingest' | 'memory' | 'queries' | 'replay' | 'tui';
  title: string;
  status: 'measured' | 'pending' | 'failed';
  measured: Measure;
  baseline: Measure | null;
  /** How the ratio reads, e.g. "retrace ÷ DuckDB (higher is better)". */
  ratioMeaning: string | null;
  ratio: number | null;
  goal: string | null;
  met: boolean | null;
  notes: string[];
}

export function figure(partial: Omit<Figure, 'status' | 'notes' | 'ratio' | 'met'> & { status?: Figure['status']; notes?: string[]; ratio?: number | null; met?: boolean | null }): Figure {
  return { status: 'measured', notes: [], ratio: null, met: null, ...partial };
}

export function pendingFigure(id: string, group: Figure['group'], title: string, goal: string | null, reason: string): Figure {
  return { id, group, title, status: 'pending', measured: { label: 'retrace', value: null, unit: '' }, baseline: null, ratioMeaning: null, ratio: null, goal, met: null, notes: [reason] };
}

export function failedFigure(id: string, group: Figure['group'], title: string, goal: string | null, error: unknown): Figure {
  const reason = error instanceof Error ? error.message : String(error);
  return { id, group, title, status: 'failed', measured: { label: 'retrace', value: null, unit: '' }, baseline: null, ratioMeaning: null, ratio: null, goal, met: null, notes: [reason.split('\n').slice(0, 6).join(' | ')] };
}

export interface MachineInfo {
  date: string;
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  freeMemoryGb: number;
  loadAverage: number[];
  node: string;
  platform: string;
  duckdb: string | null;
}

export function machineInfo(duckdb: string | null): MachineInfo {
  const list = cpus();
  return {
    date: new Date().toISOString(),
    cpus: list.length,
    cpuModel: list[0]?.model ?? 'unknown',
    memoryGb: round(totalmem() / 1024 ** 3, 1),
    freeMemoryGb: round(freemem() / 1024 ** 3, 1),
    loadAverage: loadavg().map((v) => round(v, 2)),
    node: process.version,
    platform: `${process.platform} ${release()}`,
    duckdb,
  };
}

function show(value: number | null, unit: string): string {
  if (value === null || !Number.isFinite(value)) return '—';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`.trim();
}

/** The results as a fixed-width table (stdout). */
export function renderTable(figures: readonly Figure[]): string {
  const header = ['figure', 'retrace', 'baseline', 'ratio', 'goal', 'met'];
  const rows = figures.map((f) => [
    f.title,
    f.status === 'measured' ? show(f.measured.value, f.measured.unit) : f.status,
    f.baseline ? `${show(f.baseline.value, f.baseline.unit)} (${f.baseline.label})` : '—',
    f.ratio === null ? '—' : `${f.ratio.toFixed(2)}×`,
    f.goal ?? '—',
    f.met === null ? (f.status === 'measured' ? '' : f.status) : f.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  ')];
  let group = '';
  figures.forEach((f, index) => {
    if (f.group !== group && index > 0) out.push('');
    group = f.group;
    out.push(line(rows[index] ?? []));
  });
  const notes = figures.flatMap((f) => f.notes.map((n) => `  ${f.title}: ${n}`));
  if (notes.length > 0) out.push('', 'notes:', ...notes);
  return out.join('\n');
}
