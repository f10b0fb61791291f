import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { REPO_ROOT } from './paths.js';

/**
 * `node dist/bench/lib/profile-summary.js FILE.cpuprofile [TOP]`: where a `node --cpu-prof` run
 * spent its time: self time and total (inclusive) time per function, as percentages of the run.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface FunctionTime {
  name: string;
  where: string;
  selfPct: number;
  totalPct: number;
}

function label(node: ProfileNode): { name: string; where: string } {
  const url = node.callFrame.url.replace(/^file:\/\//, '');
  const where = url ? `${url.startsWith(REPO_ROOT) ? relative(REPO_ROOT, url) : url.replace(/^.*node_modules\//, 'node_modules/')}:${node.callFrame.lineNumber + 1}` : '(native)';
  return { name: node.callFrame.functionName || '(anonymous)', where };
}

export function summarise(profile: CpuProfile): FunctionTime[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, index) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const total = [...selfUs.values()].reduce((sum, v) => sum + v, 0);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const labels = new Map<string, { name: string; where: string }>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const own = label(node);
    const key = `${own.name}@${own.where}`;
    labels.set(key, own);
    self.set(key, (self.get(key) ?? 0) + us);
    // Count each function once per sample stack, however deep it recurses.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (!frame) break;
      const l = label(frame);
      const k = `${l.name}@${l.where}`;
      if (seen.has(k)) continue;
      seen.add(k);
      labels.set(k, l);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  }
  return [...labels.entries()].map(([key, l]) => ({
    ...l,
    selfPct: (100 * (self.get(key) ?? 0)) / total,
    totalPct: (100 * (inclusive.get(key) ?? 0)) / total,
  }));
}

if (process.argv[1]?.endsWith('profile-summary.js')) {
  const [file, top = '25'] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary.js FILE.cpuprofile [TOP]');
  const rows = summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  const show = (title: string, key: 'selfPct' | 'totalPct'): void => {
    console.log(`\n${title}`);
    for (const row of [...rows].sort((a, b) => b[key] - a[key]).slice(0, Number(top))) {
      console.log(`${row[key].toFixed(1).padStart(6)}%  ${row.name.slice(0, 40).padEnd(40)} ${row.where}`);
    }
  };
  show('self time', 'selfPct');
  show('total time (inclusive)', 'totalPct');
}
