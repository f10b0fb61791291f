import type { PlanStep } from '../../core/plan/schema.js';

/**
 * Which steps a failure stops. A host whose step failed runs none of its later steps; the other
 * hosts of its role go on (a fleet member failing does not stop its siblings). A step of another
 * role waits for the failed host where the plan puts, between the failure and the step, work of
 * the failed role alone (the worker's join comes after the head's own cluster start; the head's
 * cluster check after the workers' joins): that work did not happen on the failed host, so the
 * step is not run either, unless it is `independent_of` that work. Steps both roles run (a pull on
 * every host) are each host's own business and wait for nobody. A step not run for this reason
 * stops what waits for it in turn. `--keep-going` turns all of this off. Pure bookkeeping: the
 * runner asks before each target and tells it of each failure.
 */

interface Failure {
  index: number;
  stepId: string;
  role: string;
  host: string;
}

export class FailureSpread {
  private readonly byHost = new Map<string, Failure>();
  private readonly byRole = new Map<string, Failure[]>();

  constructor(private readonly steps: readonly PlanStep[]) {}

  private static hostKey(role: string, host: string): string {
    return `${role}\u0000${host}`;
  }

  /** A target failed (failed, timed out, lost, interrupted) or was not run, at plan index `index`. */
  failed(failure: Failure): void {
    const key = FailureSpread.hostKey(failure.role, failure.host);
    const known = this.byHost.get(key);
    if (!known || failure.index < known.index) this.byHost.set(key, failure);
    this.byRole.set(failure.role, [...(this.byRole.get(failure.role) ?? []), failure]);
  }

  /** Why the step must not run on this host (one line), or null when nothing it waits for failed. */
  blocked(step: PlanStep, index: number, role: string, host: string): string | null {
    const own = this.byHost.get(FailureSpread.hostKey(role, host));
    if (own && own.index < index) return `not run: this host failed at ${own.stepId}`;
    for (const [other, failures] of this.byRole) {
      if (other === role) continue;
      for (const failure of failures) {
        if (failure.index >= index) continue;
        const awaited = this.steps
          .slice(failure.index, index)
          .find((q) => q.roles.includes(other) && !q.roles.includes(role) && !step.independent_of.includes(q.id));
        if (awaited) return `not run: it waits for ${awaited.id} on ${other}, which ${failure.host} did not get to (it failed at ${failure.stepId})`;
      }
    }
    return null;
  }
}
