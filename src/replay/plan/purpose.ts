import type { KeptUnit } from './choose.js';
import { startsSomething, type Identity } from './identities.js';
import type { RecordedSession } from './recorded.js';
import { onlyRemoves, START_KINDS, type Unit } from './units.js';

/**
 * What a plan is for: replaying a deployment (a candidate the tree accepted, or, where the tree
 * found none to judge, steps that start a service), replaying a clean-up (the user asked to remove
 * or stop things, and that is all the kept steps do), or nothing, with the reason: no candidate was
 * accepted, or nothing kept starts anything. Pure.
 */

export type Purpose = { kind: 'deploy' } | { kind: 'cleanup' } | { kind: 'none'; reason: string };

export const CLEANUP_GOAL = /\b(?:clean(?:\s|-)?up|tear(?:\s|-)?down|remove|delete|uninstall|wipe|purge|prune|decommission|free (?:up )?(?:the )?(?:disk|space|gpus?|memory)|stop (?:and remove|all|the old|every))\b/i;
/** Steps that deploy without leaving a process of their own: manifests, charts, stacks, playbooks. */
const DEPLOY_VERB = /^(?:kubectl (?:apply|create|rollout)|helm (?:install|upgrade)|docker stack deploy|terraform apply|ansible-playbook|nginx -s|launchctl (?:load|bootstrap))/;

function deploys(unit: Unit): boolean {
  return unit.changes.some((leaf) => DEPLOY_VERB.test(leaf.command.argv.join(' ')) || (leaf.command.program === 'ansible-playbook'));
}

/** The user asked for a clean-up and the tree accepted nothing to deploy: removals are the point. */
export function isCleanupSession(recorded: RecordedSession): boolean {
  return CLEANUP_GOAL.test(recorded.goal ?? '') && !recorded.candidates.some((c) => c.verdict === 'accepted');
}

/** What moves a session on to another attempt: another start, or another image pulled (a benchmark built in /tmp does not). */
const ATTEMPTS = new Set([...START_KINDS, 'pull']);

export interface ServedStart {
  start: RecordedSession['calls'][number];
  check: RecordedSession['calls'][number];
  /** The candidate the tree rejected though it answered, or null when no candidate owns it. */
  rejected: RecordedSession['candidates'][number] | null;
  /** Nothing was tried after it: the session ended on this service. */
  last: boolean;
}

/** The session's last start that answered its health check, and the tree's verdict on it. */
export function lastServedStart(recorded: RecordedSession): ServedStart | null {
  const calls = recorded.calls;
  const startAt = calls.findLastIndex((call) => call.actions.some((a) => START_KINDS.has(a.kind) && a.outcome !== 'failed' && a.outcome !== 'timeout'));
  if (startAt < 0) return null;
  const checkAt = calls.findIndex((call, index) => index >= startAt && call.actions.some((a) => a.kind === 'health' && a.outcome === 'ok'));
  if (checkAt < 0) return null;
  const start = calls[startAt]!;
  const check = calls[checkAt]!;
  const named = start.actions.map((a) => a.candidate).find((name): name is string => Boolean(name));
  const rejected = recorded.candidates.find((c) => (c.verdict === 'rejected' || c.verdict === 'abandoned') && (c.name === named || c.calls.includes(start.callId) || c.calls.includes(check.callId))) ?? null;
  const last = calls.slice(checkAt + 1).every((call) => !call.actions.some((a) => ATTEMPTS.has(a.kind)));
  return { start, check, rejected, last };
}

/** The last start answered its check, yet the tree accepted nothing: which start, and what the tree held against it. */
function servedButRejected(recorded: RecordedSession): string {
  const served = lastServedStart(recorded);
  if (!served) return '';
  const { start, check, rejected, last } = served;
  const verdict = rejected ? `, but the tree ${rejected.verdict} ${rejected.name}${rejected.reason ? ` (${rejected.reason.length > 100 ? `${rejected.reason.slice(0, 97)}…` : rejected.reason})` : ''}` : ', but the tree accepted no candidate of it';
  return `; the last start (#${start.messageOrdinal}) answered at #${check.messageOrdinal}${verdict}${last ? '' : ', and the session went on to try more'}`;
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
    return { kind: 'none', reason: `no candidate was accepted, so the session deployed nothing: ${tried.slice(0, 4).map((c) => `${c.name} ${c.verdict}`).join('; ')}${tried.length > 4 ? '; …' : ''} (see retrace tree)${servedButRejected(recorded)}` };
  }
  if (changes.some((k) => startsSomething(identities.get(k.unit) ?? []) || START_KINDS.has(k.unit.primary?.kind ?? '') || deploys(k.unit))) return { kind: 'deploy' };
  if (cleanupGoal && changes.some((k) => onlyRemoves(k.unit))) return { kind: 'cleanup' };
  return { kind: 'none', reason: `the session deployed nothing: no candidate was accepted and none of the ${changes.length} commands kept starts a service (installs, builds or edits alone are not a deployment)` };
}
