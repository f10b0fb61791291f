import { startsSomething, type Identity } from './identities.js';
import { isClusterCheck, START_KINDS, type Unit } from './units.js';

/**
 * Which checks a plan keeps: after the last step that (re)started a service on a host, the first
 * check of it that passed (a health check, a model list, an answer): one proof per service that
 * the deployment is up, polled on replay while the model loads. Checks of earlier attempts, checks
 * repeated, benchmarks and checks of other services on other ports are dropped, and so is a check
 * when the step that started the service already checked it. A cluster check (`ray status`) is
 * kept after the last node joined. Pure.
 */

export interface CheckChoice {
  kept: Unit[];
  /** Why each check not kept was dropped. */
  dropped: Map<Unit, string>;
}

function passed(unit: Unit): boolean {
  if (unit.failed) return false;
  const checks = unit.segment.actions.filter((a) => a.kind === 'health' || a.kind === 'cluster');
  return checks.length > 0 && checks.every((a) => a.outcome === 'ok' || a.outcome === 'positive' || (a.outcome === 'unknown' && unit.call.exitCode === 0));
}

function portsOf(unit: Unit): number[] {
  const ports = new Set<number>();
  for (const action of unit.segment.actions) if (action.port !== null && action.kind !== 'health') ports.add(action.port);
  for (const leaf of unit.changes) for (const port of leaf.command.dockerRun?.ports ?? []) ports.add(port);
  for (const match of unit.segment.command.matchAll(/--port[=\s]+(\d{2,5})\b|-p\s*(\d{2,5}):\d+/g)) ports.add(Number(match[1] ?? match[2]));
  return [...ports];
}

function checkPort(unit: Unit): number | null {
  return unit.segment.actions.find((a) => a.kind === 'health' && a.port !== null)?.port ?? null;
}

export function chooseChecks(checks: readonly Unit[], kept: readonly Unit[], identities: ReadonlyMap<Unit, Identity[]>): CheckChoice {
  const dropped = new Map<Unit, string>();
  const chosen: Unit[] = [];
  const starters = kept.filter((unit) => startsSomething(identities.get(unit) ?? []) || START_KINDS.has(unit.primary?.kind ?? ''));
  const lastStarter = (host: string | null): Unit | undefined => [...starters].reverse().find((unit) => unit.segment.host === host);
  const lastJoin = [...starters].reverse().find((unit) => unit.primary?.kind === 'cluster' || unit.changes.some((leaf) => /\bray\b.*\bstart\b/.test(leaf.command.argv.join(' '))));
  const servedPorts = new Map<string | null, Set<number>>();
  for (const unit of starters) {
    const set = servedPorts.get(unit.segment.host) ?? new Set<number>();
    for (const port of portsOf(unit)) set.add(port);
    servedPorts.set(unit.segment.host, set);
  }
  const done = new Set<string>();
  for (const unit of checks) {
    const cluster = isClusterCheck(unit);
    const anchor = cluster ? lastJoin : lastStarter(unit.segment.host);
    const port = checkPort(unit);
    // Ports this host serves; where it serves none known (a worker), the ports the deployment serves anywhere.
    const own = servedPorts.get(unit.segment.host);
    const served = own && own.size > 0 ? own : new Set([...servedPorts.values()].flatMap((set) => [...set]));
    // One proof per served port; where no port is known (a compose stack), one per host.
    const key = cluster ? 'cluster' : served.size > 0 ? `${unit.segment.host ?? ''}:${port ?? ''}` : `${unit.segment.host ?? ''}`;
    if (!anchor) dropped.set(unit, 'a check, and no kept step started anything it could check');
    else if (!cluster && port !== null && served.size > 0 && !served.has(port)) dropped.set(unit, `a check of another service (port ${port})`);
    else if (unit.order < anchor.order) dropped.set(unit, `a check of an earlier attempt (the service was started again at #${anchor.call.messageOrdinal})`);
    else if (!passed(unit)) dropped.set(unit, 'a check that did not pass yet (the service was still starting)');
    else if (done.has(key)) dropped.set(unit, 'another check of the same service: the first one that passed is kept');
    else if (!cluster && anchor.segment.actions.some((a) => a.kind === 'health' && a.outcome === 'ok')) {
      dropped.set(unit, `the step that started the service (#${anchor.call.messageOrdinal}) already checks it`);
      done.add(key);
    } else {
      chosen.push(unit);
      done.add(key);
    }
  }
  return { kept: chosen, dropped };
}
