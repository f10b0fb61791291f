import { imageKey, type ActionKind } from '../../query/classify/index.js';
import { isDestructive } from './destructive.js';
import type { RecordedAction, RecordedCall, RecordedSession } from './recorded.js';
import { assignRoles } from './roles.js';
import { PLAN_VERSION, planSchema, type Plan, type PlanStep } from '../../core/plan/schema.js';
import { secretsToReferences, type SecretReference } from './secrets.js';
import { describe, stepFacts, timeoutFor } from './step-facts.js';
import { templatize, templatizePattern } from './template.js';
import { findVariables } from './variables.js';

/**
 * The winning path of a session as a plan. Keeps the accepted candidate's pull, download, cluster,
 * serve and health steps and the setup they need (stopping what held the GPU, installing the
 * download tool); drops probes, searches, read-only look-ups, rejected candidates, failed
 * attempts a retry superseded, and checks of other services. Identical commands run on several
 * hosts become one step on several roles. Pure: a recorded session in, a plan out.
 */

const KEPT: ReadonlySet<ActionKind> = new Set(['stop', 'start', 'install', 'pull', 'download', 'cluster', 'serve', 'health']);
/** When a call holds several actions, the one that names the step. */
const PRIORITY: readonly ActionKind[] = ['serve', 'cluster', 'download', 'pull', 'install', 'stop', 'start', 'health', 'build', 'probe', 'inspect', 'fetch', 'search', 'other'];
const IMAGE_KINDS: ReadonlySet<ActionKind> = new Set(['pull', 'cluster', 'serve']);

export interface Decision {
  callId: string;
  messageOrdinal: number;
  kept: boolean;
  why: string;
}

export interface Extraction {
  plan: Plan;
  /** Why each call was kept or dropped, for `retrace plan --explain` and tests. */
  decisions: Decision[];
}

function primaryAction(call: RecordedCall): RecordedAction | null {
  for (const kind of PRIORITY) {
    const action = call.actions.find((a) => a.kind === kind);
    if (action) return action;
  }
  return null;
}

function sameImage(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && imageKey(a) === imageKey(b);
}

interface Kept {
  call: RecordedCall;
  action: RecordedAction;
  command: string;
}

function choose(recorded: RecordedSession): { kept: Kept[]; decisions: Decision[] } {
  const decisions: Decision[] = [];
  const kept: Kept[] = [];
  const primaries = recorded.calls.map((call) => ({ call, action: primaryAction(call) }));
  const serve = [...primaries].reverse().find(({ action }) => action?.kind === 'serve' && action.outcome === 'ok' && (recorded.accepted === null || sameImage(action.image, recorded.accepted)));
  const servePort = serve?.action?.port ?? null;
  const lastBuild = [...primaries].reverse().find(({ action }) => action && (action.kind === 'serve' || action.kind === 'cluster') && action.outcome === 'ok');
  // Checks after the user's next request belong to another task (a benchmark, a question).
  const turnEnd = recorded.messages.find((m) => m.role === 'user' && lastBuild && m.ordinal > lastBuild.call.messageOrdinal)?.ordinal ?? Infinity;
  const seen = new Set<string>();
  for (const { call, action } of primaries) {
    const decide = (why: string, keep = false): void => {
      decisions.push({ callId: call.callId, messageOrdinal: call.messageOrdinal, kept: keep, why });
    };
    if (!action || call.remoteCommand === null) decide('not a shell command');
    else if (!KEPT.has(action.kind)) decide(`${action.kind}: a look-up, not a step of the deployment`);
    else if (action.outcome !== 'ok' && action.outcome !== 'positive') decide(`${action.kind} ${action.outcome}: an attempt, superseded`);
    else if (IMAGE_KINDS.has(action.kind) && action.image && recorded.accepted && !sameImage(action.image, recorded.accepted)) {
      decide(`${action.kind} of ${action.image}, not the accepted image`);
    } else if (action.kind === 'health' && servePort !== null && action.port !== servePort) decide(`health check of another service (port ${action.port})`);
    else if (action.kind === 'health' && call.messageOrdinal > turnEnd) decide('a check made after the deployment was reported done');
    else {
      const key = `${call.host}\u0000${call.remoteCommand}`;
      if (seen.has(key)) decide('the same command again on the same host');
      else {
        seen.add(key);
        kept.push({ call, action, command: call.remoteCommand });
        decide(`${action.kind} (${action.subject ?? action.rule})`, true);
      }
    }
  }
  return { kept, decisions };
}

/** Polling for the first health check after the serve when the record had to wait for it. */
function pollFor(kept: Kept, all: readonly RecordedCall[], serveCall: RecordedCall | undefined): PlanStep['poll'] {
  if (!serveCall) return null;
  const between = all.filter((c) => c.messageOrdinal > serveCall.messageOrdinal && c.messageOrdinal < kept.call.messageOrdinal);
  const waited = between.some((c) => c.actions.some((a) => a.kind === 'health' && a.outcome !== 'ok') || /\bsleep\s+\d/.test(c.remoteCommand ?? ''));
  if (!waited) return null;
  const serveEnd = (serveCall.startedAt ?? 0) + (serveCall.durationMs ?? 0);
  const waitedMs = Math.max(0, (kept.call.startedAt ?? serveEnd) - serveEnd);
  return { interval_s: 10, max_s: Math.max(300, Math.ceil((waitedMs * 1.5) / 60_000) * 60) };
}

export class NothingToReplayError extends Error {
  constructor(readonly decisions: Decision[]) {
    super('no deployment step to replay: the session has no successful pull, download, cluster, serve or health step of its accepted candidate');
    this.name = 'NothingToReplayError';
  }
}

export function extractPlan(recorded: RecordedSession): Extraction {
  const { kept, decisions } = choose(recorded);
  // A session that tried nothing able to serve a model (a benchmark fix, a font install) deployed nothing: its installs are no deployment.
  if (kept.length === 0 || !recorded.deployed) throw new NothingToReplayError(decisions);
  const leads = (k: Kept): boolean => k.action.kind === 'serve' || (k.action.kind === 'cluster' && /--head\b/.test(k.command));
  const texts = recorded.messages.map((m) => m.text);
  const { roles, roleOf } = assignRoles(
    kept.map((k) => ({ host: k.call.host, user: k.call.user, leads: leads(k) })),
    texts,
    new Map(),
  );
  const model = kept.find((k) => k.action.model)?.action.model ?? null;
  const commandsByRole = new Map<string, string[]>();
  for (const k of kept) {
    const role = roleOf.get(k.call.host) ?? 'head';
    commandsByRole.set(role, [...(commandsByRole.get(role) ?? []), k.command]);
  }
  const variables = findVariables({ image: recorded.accepted, model, commandsByRole });
  const secrets: SecretReference[] = [];
  const serveCall = kept.find((k) => k.action.kind === 'serve')?.call;
  const hostWords = Object.entries(roles).flatMap(([role, spec]) => [role, spec.recorded_hostname, spec.recorded_address].filter((w): w is string => Boolean(w)));

  const steps: PlanStep[] = [];
  const groupOf = new Map<PlanStep, string | null>();
  let firstHealth = true;
  for (const k of kept) {
    const role = roleOf.get(k.call.host) ?? 'head';
    const referenced = secretsToReferences(k.command);
    for (const secret of referenced.secrets) if (!secrets.some((s) => s.name === secret.name)) secrets.push(secret);
    const command = templatize(referenced.command, variables);
    // The same command on another host right after (in parallel, or one after the other): one step.
    const previous = steps.at(-1);
    if (previous && previous.command === command && !previous.roles.includes(role)) {
      // Each host's own recorded call, so a run is compared with what that host did.
      const first = previous.roles[0] ?? 'head';
      previous.source.roles = { [first]: { message_ordinal: previous.source.message_ordinal, call_id: previous.source.call_id }, ...previous.source.roles, [role]: { message_ordinal: k.call.messageOrdinal, call_id: k.call.callId } };
      previous.roles.push(role);
      previous.timeout_s = Math.max(previous.timeout_s, timeoutFor(k.call));
      continue;
    }
    const facts = stepFacts(k.action, k.call, k.command, leads(k));
    const isHealth = k.action.kind === 'health';
    const step: PlanStep = {
      id: facts.idBase,
      description: describe(k.call, hostWords),
      roles: [role],
      command,
      timeout_s: timeoutFor(k.call),
      // Expected values follow their variable too: `--var model=…` moves what a health check expects.
      expect: { exit: k.call.exitCode ?? 0, output: facts.expectOutput === null ? null : templatizePattern(facts.expectOutput, variables) },
      guard: facts.guard === null ? null : templatize(facts.guard, variables),
      destructive: isDestructive(k.command),
      poll: isHealth && firstHealth ? pollFor(k, recorded.calls, serveCall) : null,
      independent_of: [],
      source: { message_ordinal: k.call.messageOrdinal, call_id: k.call.callId },
    };
    if (isHealth) firstHealth = false;
    groupOf.set(step, k.call.parallelGroup);
    steps.push(step);
  }
  uniqueIds(steps);
  markIndependent(steps, groupOf);

  const plan = planSchema.parse({
    version: PLAN_VERSION,
    session: recorded.session,
    goal: recorded.goal,
    candidate: recorded.accepted,
    roles,
    variables: Object.fromEntries([
      ...variables.map((v) => [v.name, { value: v.value, description: v.description }] as const),
      ...secrets.map((s) => [s.name, { env: s.name, description: s.description, secret: true }] as const),
    ]),
    steps,
  });
  return { plan, decisions };
}

function uniqueIds(steps: PlanStep[]): void {
  const used = new Map<string, number>();
  for (const step of steps) {
    const count = (used.get(step.id) ?? 0) + 1;
    used.set(step.id, count);
    if (count > 1) step.id = `${step.id}-${count}`;
  }
}

/** Different steps the record ran in one parallel group may run together again. */
function markIndependent(steps: PlanStep[], groupOf: ReadonlyMap<PlanStep, string | null>): void {
  for (const step of steps) {
    const group = groupOf.get(step);
    if (!group) continue;
    step.independent_of = steps.filter((other) => other !== step && groupOf.get(other) === group).map((other) => other.id);
  }
}
