import { planFromStore } from '../replay/plan/load.js';
import { planToYaml } from '../replay/plan/yaml.js';
import type { Database } from '../store/database.js';
import type { PlanView } from '../tui/services.js';

/**
 * The plan the TUI shows on `p` (and the winning path under an accepted candidate's why): the one
 * `retrace plan SESSION` prints, built from the same stored derivation. A session that deploys
 * nothing rejects with the extractor's own reason, which the screen shows as it is.
 */
export async function planView(db: Database, sessionId: string): Promise<PlanView> {
  const { plan } = await planFromStore(db, sessionId);
  return {
    session: plan.session.id,
    candidate: plan.candidate,
    purpose: plan.purpose,
    yaml: planToYaml(plan).trimEnd().split('\n'),
    steps: plan.steps.map((step) => ({
      id: step.id,
      roles: step.roles,
      command: step.command,
      destructive: step.destructive,
      message_ordinal: step.source.message_ordinal,
      call_id: step.source.call_id,
    })),
  };
}

/** Line numbers (0-based) of the plan's YAML that contain `query`, case-insensitive, as the pager searches. */
export function searchPlanLines(plan: PlanView, query: string): number[] {
  const needle = query.toLowerCase();
  return plan.yaml.flatMap((line, index) => (line.toLowerCase().includes(needle) ? [index] : []));
}
