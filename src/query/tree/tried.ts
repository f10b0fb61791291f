import { frameworkById, frameworkOfPackage, imageDisplayName, imageKey } from '../classify/index.js';
import type { CandidateKind, TreeAction } from './types.js';

/**
 * The candidates a session actually tried, read off its actions: every image pulled, probed or
 * run; every framework installed or probed on a host; and, when one candidate was served in more
 * than one shape (`--tp 8` then `--tp 16 --nnodes 2`), each shape as an approach. Health checks
 * belong to whatever was serving on that host and port when they ran.
 */
export interface TriedCandidate {
  key: string;
  name: string;
  kind: CandidateKind;
  framework: string | null;
  parentKey: string | null;
  actions: TreeAction[];
}

/** Rules whose actions run or fetch a candidate (research about it, like a manifest listing, does not). */
const RUNNING_RULES = new Set(['image-pull', 'container-serve', 'container-cluster', 'container-probe', 'container-exec', 'source-build', 'serve-launcher', 'env-probe', 'package-install']);

interface Serving {
  host: string | null;
  port: number | null;
  candidate: TriedCandidate;
}

function shapeOf(action: TreeAction): string {
  return `${action.framework ?? ''}|${action.config ?? ''}`;
}

function frameworkSpec(action: TreeAction): string | null {
  const spec = action.packages.find((p) => frameworkOfPackage(p)?.id === action.framework);
  return spec ?? null;
}

export function collectTried(actions: readonly TreeAction[]): TriedCandidate[] {
  const byKey = new Map<string, TriedCandidate>();
  const serving: Serving[] = [];
  /** The candidate whose image runs as each named container (`docker run --name widget IMAGE`). */
  const containers = new Map<string, TriedCandidate>();
  /** The framework candidate most recently installed or probed on each host, per framework. */
  const hostFramework = new Map<string, TriedCandidate>();

  const candidate = (key: string, name: string, kind: CandidateKind, framework: string | null): TriedCandidate => {
    let found = byKey.get(key);
    if (!found) {
      found = { key, name, kind, framework, parentKey: null, actions: [] };
      byKey.set(key, found);
    }
    return found;
  };

  for (const action of actions) {
    if (action.superseded) continue;
    let owner: TriedCandidate | null = null;
    if (action.kind === 'health') {
      const host = action.targetHost ?? action.host;
      const matches = serving.filter((s) => s.host === host && (s.port === action.port || s.port === null || action.port === null));
      const exact = matches.filter((s) => s.port === action.port);
      const entry = (exact.length > 0 ? exact : matches).at(-1);
      if (entry) entry.candidate.actions.push(action);
      continue;
    }
    // Logs and inspections of a container belong to the image it runs.
    if (!action.image && action.kind === 'inspect' && action.service && containers.has(action.service) && (action.hits.length > 0 || action.facts.length > 0)) {
      (containers.get(action.service) as TriedCandidate).actions.push(action);
      continue;
    }
    if (!RUNNING_RULES.has(action.rule) || action.kind === 'stop') continue;
    if (action.image) {
      const built = action.rule === 'source-build';
      const key = `image:${imageKey(action.image)}`;
      owner = byKey.get(key) ?? candidate(key, imageDisplayName(action.image), built ? 'framework' : 'image', action.framework);
      owner.framework ??= action.framework;
      if (action.kind === 'inspect' && action.hits.length === 0 && action.facts.length === 0) continue;
    } else if (action.framework && (action.kind === 'install' || action.kind === 'probe' || action.kind === 'serve')) {
      const hostKey = `${action.framework}@${action.host ?? ''}`;
      const spec = action.kind === 'install' ? frameworkSpec(action) : null;
      if (spec) {
        owner = candidate(`pkg:${spec.toLowerCase().replace(/_/g, '-')}@${action.host ?? ''}`, spec, 'framework', action.framework);
      } else {
        const label = frameworkById(action.framework)?.label ?? action.framework;
        owner = hostFramework.get(hostKey) ?? candidate(`host:${hostKey}`, `${label} (host install)`, 'framework', action.framework);
      }
      hostFramework.set(hostKey, owner);
    }
    if (!owner) continue;
    owner.actions.push(action);
    if (action.image && action.service && (action.kind === 'serve' || action.kind === 'cluster')) containers.set(action.service, owner);
    if (action.kind === 'serve') serving.push({ host: action.host, port: action.port, candidate: owner });
  }
  // A candidate only looked up (an inspect that showed nothing) was never tried.
  return addApproaches([...byKey.values()].filter((c) => c.actions.length > 0));
}

/** A candidate served in two or more shapes gets one approach per shape, in the order they were tried. */
function addApproaches(tried: TriedCandidate[]): TriedCandidate[] {
  const result: TriedCandidate[] = [];
  for (const parent of tried) {
    result.push(parent);
    const serves = parent.actions.filter((a) => a.kind === 'serve');
    const shapes = [...new Set(serves.map(shapeOf))];
    if (shapes.length < 2) continue;
    for (const shape of shapes) {
      const own = serves.filter((a) => shapeOf(a) === shape);
      const hosts = [...new Set(own.map((a) => a.host ?? 'local'))];
      const first = own[0] as TreeAction;
      const label = frameworkById(first.framework)?.label ?? parent.name;
      const approach: TriedCandidate = {
        key: `${parent.key}#${shape}`,
        name: `${label} ${first.config ?? '(default shape)'} on ${hosts.join(' + ')}`,
        kind: 'approach',
        framework: first.framework,
        parentKey: parent.key,
        actions: [...own],
      };
      result.push(approach);
    }
  }
  // A health check belongs to the shape that was served last before it.
  for (const approach of result.filter((c) => c.kind === 'approach')) {
    const parent = tried.find((c) => c.key === approach.parentKey);
    if (!parent) continue;
    const shape = approach.key.slice(parent.key.length + 1);
    const serveSeqs = parent.actions.filter((a) => a.kind === 'serve').map((a) => ({ seq: a.seq, shape: shapeOf(a) }));
    for (const health of parent.actions.filter((a) => a.kind === 'health')) {
      const latest = serveSeqs.filter((s) => s.seq < health.seq).at(-1);
      if (latest?.shape === shape && !approach.actions.includes(health)) approach.actions.push(health);
    }
    approach.actions.sort((a, b) => a.seq - b.seq);
  }
  return result;
}
