import type { KeptUnit } from './choose.js';
import { startsSomething, type Identity } from './identities.js';
import type { RecordedSession } from './recorded.js';
import { onlyRemoves, type Unit } from './units.js';

/**
 * What a plan is for: replaying a deployment (a candidate the tree accepted, or, where the tree
 * found none to judge, steps that start a service), replaying a clean-up (the user asked to remove
 * or stop things, and that is all the kept steps do), or nothing, with the reason: no candidate was
 * accepted, or nothing kept starts anything. Pure.
 */

export type Purpose = { kind: 'deploy' } | { kind: 'cleanup' } | { kind: 'none'; reason: string };

const CLEANUP_GOAL = /\b(?:clean(?:\s|-)?up|tear(?:\s|-)?down|remove|delete|uninstall|wipe|purge|prune|decommission|free (?:up )?(?:the )?(?:disk|space|gpus?|memory)|stop (?:and remove|all|the old|every))\b/i;
/** Steps that deploy without leaving a process of their own: manifests, charts, stacks, playbooks. */
const DEPLOY_VERB = /^(?:kubectl (?:apply|create|rollout)|helm (?:install|upgrade)|docker stack deploy|terraform apply|ansible-playbook|nginx -s|launchctl (?:load|bootstrap))/;

function deploys(unit: Unit): boolean {
  return unit.changes.some((leaf) => DEPLOY_VERB.test(leaf.command.argv.join(' ')) || (leaf.command.program === 'ansible-playbook'));
}

export function deploymentKind(recorded: RecordedSession, kept: readonly KeptUnit[], identities: ReadonlyMap<Unit, Identity[]>, files: number): Purpose {
  const accepted = recorded.candidates.filter((c) => c.verdict === 'accepted');
  const tried = recorded.candidates.filter((c) => c.verdict === 'rejected' || c.verdict === 'abandoned');
  const changes = kept.filter((k) => k.unit.effect === 'change');
  const cleanupGoal = CLEANUP_GOAL.test(recorded.goal ?? '');
  const allRemovals = changes.length > 0 && changes.every((k) => onlyRemoves(k.unit));
  if (changes.length === 0 && files === 0) {
    return { kind: 'none', reason: accepted.length > 0
      ? `the accepted ${accepted.map((c) => c.name).join(', ')} left no step to replay: every command the session ran was a look-up, failed or was superseded (see --explain)`
      : 'every command the session ran only looked, failed or was undone; nothing changed a machine (see --explain)' };
  }
  if (accepted.length > 0) return { kind: 'deploy' };
  if (cleanupGoal && allRemovals) return { kind: 'cleanup' };
  if (tried.length > 0) {
    return { kind: 'none', reason: `no candidate was accepted, so the session deployed nothing: ${tried.slice(0, 4).map((c) => `${c.name} ${c.verdict}`).join('; ')}${tried.length > 4 ? '; …' : ''} (see retrace tree)` };
  }
  if (changes.some((k) => startsSomething(identities.get(k.unit) ?? []) || ['serve', 'start', 'cluster'].includes(k.unit.primary?.kind ?? '') || deploys(k.unit))) return { kind: 'deploy' };
  if (cleanupGoal && changes.some((k) => onlyRemoves(k.unit))) return { kind: 'cleanup' };
  return { kind: 'none', reason: `the session deployed nothing: no candidate was accepted and none of the ${changes.length} commands kept starts a service (installs, builds or edits alone are not a deployment)` };
}
