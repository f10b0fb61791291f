import { imageDisplayName } from '../../query/classify/index.js';
import { PLAN_VERSION, planSchema, type Plan, type PlanStep } from '../../core/plan/schema.js';
import { removalStep, stepForFile, stepForUnit, type StepContext } from './build-steps.js';
import { splitByPurpose } from './chain-parts.js';
import { chooseUnits, type KeptUnit } from './choose.js';
import { fileEvents } from './file-events.js';
import { fileStates, type FileRecord } from './file-state.js';
import { placeFiles } from './file-uses.js';
import { deploymentKind, lastServedStart } from './purpose.js';
import type { RecordedSession } from './recorded.js';
import { assignRoles } from './roles.js';
import { segmentsOf, type Segment } from './segments.js';
import type { SecretReference } from './secrets.js';
import { stripUnusedBearer } from './secrets.js';
import { splitTrailingCheck } from './trailing-check.js';
import { placeholdersOf } from './template.js';
import { unitOf, type Unit } from './units.js';
import { findVariables, type FoundVariable } from './variables.js';
import { roleWorkdirs } from './workdir-variables.js';
import { startDirectories } from './workdir.js';

/**
 * The steps that made a session's deployment, as a plan: where each ran (its host's role, its
 * working directory), the files the agent wrote that later steps need, and nothing that only
 * looked, failed, was superseded or cleaned up an attempt (see choose.ts for every rule, and
 * `decisions` for the reason of each call). Identical commands run on several hosts become one
 * step on several roles. Pure: a recorded session in, a plan out.
 */

export interface Decision {
  callId: string;
  messageOrdinal: number;
  kept: boolean;
  why: string;
}

export interface Extraction {
  plan: Plan;
  /** Why each call (each host's part of it) was kept or dropped, for `retrace plan --explain` and tests. */
  decisions: Decision[];
}

export class NothingToReplayError extends Error {
  constructor(readonly decisions: Decision[], reason: string) {
    super(`no plan: ${reason}`);
    this.name = 'NothingToReplayError';
  }
}

const NOT_SHELL_WHY: Readonly<Record<string, string>> = { search: 'a look-up (web search)', fetch: 'a look-up (web page or API)' };

function fileKeyOf(file: FileRecord): string {
  return `${file.host ?? ''}\u0000${file.path}`;
}

/**
 * The plan of a session. When the tree accepted nothing but the session ended on a service that
 * answered its health check (nothing tried after it), that service is what the session deployed:
 * the plan replays it as if its candidate were accepted, and says so. A service that answered and
 * was then left for other attempts stays no deployment.
 */
export function extractPlan(recorded: RecordedSession): Extraction {
  try {
    return extractFrom(recorded);
  } catch (error) {
    const served = error instanceof NothingToReplayError && !recorded.candidates.some((c) => c.verdict === 'accepted') ? lastServedStart(recorded) : null;
    // Only a verdict the record contradicts afterwards: a rejection decided before the service
    // answered (an earlier failure of the same candidate). One decided after it (too slow, the
    // user said no) judged the service that answered, and the session deployed nothing.
    const judgedAt = served?.rejected?.judgedAt ?? null;
    const contradicted = judgedAt !== null && served !== null && judgedAt < served.check.messageOrdinal;
    if (!served?.rejected || !served.last || !contradicted) throw error;
    const judged = served.rejected;
    const image = judged.kind === 'approach' ? judged.parent : judged.name;
    const candidates = recorded.candidates.map((c) => (c.name === judged.name || (judged.kind === 'approach' && c.name === image) ? { ...c, verdict: 'accepted' } : c));
    const accepted = image && recorded.candidates.some((c) => c.name === image && c.kind === 'image') ? imageDisplayName(image) : null;
    let extraction: Extraction;
    try {
      extraction = extractFrom({ ...recorded, candidates, accepted });
    } catch {
      throw error;
    }
    extraction.decisions.push({
      callId: served.check.callId, messageOrdinal: served.check.messageOrdinal, kept: true,
      why: `the session ended on the service started at #${served.start.messageOrdinal}, which answered here: the plan replays it, though the tree ${judged.verdict} ${judged.name}`,
    });
    return extraction;
  }
}

function extractFrom(recorded: RecordedSession): Extraction {
  const segments = new Map<string, Segment[]>(recorded.calls.map((call) => [call.callId, segmentsOf(call)]));
  const dirs = startDirectories(recorded, (call) => segments.get(call.callId) ?? []);
  const units: Unit[] = [];
  const orderOfCall = new Map<string, number>();
  const touches = recorded.calls.flatMap((call) => {
    orderOfCall.set(call.callId, units.length);
    for (const segment of segments.get(call.callId) ?? []) {
      const cwd = dirs.of(segment, call);
      for (const part of splitTrailingCheck(segment, cwd)) {
        for (const piece of splitByPurpose(part, cwd)) units.push(unitOf(piece.segment, piece.cwd, units.length));
      }
    }
    return fileEvents(call, segments.get(call.callId) ?? [], (segment) => dirs.of(segment, call));
  });
  const files = fileStates(touches);
  const writers = new Map<Segment, FileRecord>();
  for (const file of files) for (const segment of file.writerSegments) writers.set(segment, file);
  const unitFiles = new Set(files.flatMap((file) => {
    const name = /\/systemd\/(?:system|user)\/([^/]+?)\.[a-z]+(?:\.d\/[^/]+)?$/.exec(file.path)?.[1];
    return name ? [`${file.host ?? ''}\u0000${name}`] : [];
  }));
  const choice = chooseUnits(recorded, units.filter((unit) => !writers.has(unit.segment)), unitFiles);
  const { placements, unused } = placeFiles(files, choice.kept, orderOfCall, dirs.home);
  // A copy of a written file to a host becomes the file's own step there.
  const copies = new Set(placements.map((p) => p.copiedBy).filter((k): k is KeptUnit => k !== null));
  const kept = choice.kept.filter((k) => !copies.has(k));

  const decisions = explain(recorded, units, choice, writers, copies, placements, unused);
  const purpose = deploymentKind(recorded, kept, choice.identities, placements.length);
  if (purpose.kind === 'none') throw new NothingToReplayError(decisions, purpose.reason);

  const leads = (k: KeptUnit): boolean => k.unit.primary?.kind === 'serve' || (k.unit.primary?.kind === 'cluster' && /--head\b/.test(k.command));
  const { roles, roleOf } = assignRoles(
    [...kept.map((k) => ({ host: k.unit.segment.host, user: k.unit.segment.user, leads: leads(k) })), ...placements.map((p) => ({ host: p.host, user: null, leads: false }))],
    recorded.messages.map((m) => m.text),
    new Map(),
  );
  const role = (host: string | null): string => roleOf.get(host) ?? 'head';
  const workdirs = roleWorkdirs(kept, role, dirs.home, recorded.directory);
  const model = kept.flatMap((k) => k.unit.segment.actions).find((a) => a.model)?.model ?? null;
  const commandsByRole = new Map<string, string[]>();
  for (const k of kept) commandsByRole.set(role(k.unit.segment.host), [...(commandsByRole.get(role(k.unit.segment.host)) ?? []), k.command]);
  const digest = imageDigest(kept, recorded.accepted);
  const found: FoundVariable[] = [...findVariables({ image: recorded.accepted, imageDigest: digest, model, commandsByRole }), ...workdirs.variables];
  const literal = found.map((v) => ({ name: v.name, value: v.literal ?? v.value, description: v.description }));
  const secrets: SecretReference[] = [];
  const context: StepContext = {
    variables: literal.filter((v) => !v.name.endsWith('_workdir')),
    hostWords: Object.entries(roles).flatMap(([name, spec]) => [name, spec.recorded_hostname, spec.recorded_address].filter((w): w is string => Boolean(w))),
    roleOf: role,
    workdirOf: (unit) => workdirs.stepWorkdir(unit),
    secrets,
    workdirVariables: workdirs.variables.map((v) => ({ name: v.name, value: v.value })),
    units,
  };

  // A server started with a key (a flag, an environment variable, a config file) needs it in its checks too.
  const KEYED = /api[-_]?key|api[-_]?token|auth[-_]?token|--token\b/i;
  const hasKey = kept.some((k) => k.unit.effect !== 'check' && KEYED.test(k.command)) || placements.some((p) => KEYED.test(p.file.content ?? '') || p.file.edits.some((e) => KEYED.test(e.new)));
  const steps: PlanStep[] = [];
  const groupOf = new Map<PlanStep, string | null>();
  const removed = new Set<string>();
  for (const k of choice.kept) {
    for (const placement of placements.filter((p) => p.before === k)) {
      steps.push(stepForFile(placement, workdirs.filePath(placement.path, role(placement.host)), role(placement.host), context));
    }
    if (copies.has(k)) continue;
    const name = k.unit.changes.map((leaf) => leaf.command.dockerRun).find((run) => run?.name && (run.detached || run.name))?.name;
    const removes = (text: string): boolean => /\bdocker\s+(?:container\s+)?rm\b/.test(text);
    if (name && !removed.has(`${role(k.unit.segment.host)}:${name}`) && !removes(k.command)) {
      const runners = kept.filter((other) => !removes(other.command) && other.unit.changes.some((leaf) => leaf.command.dockerRun?.name === name)).map((other) => role(other.unit.segment.host));
      const roleList = [...new Set(runners)].filter((r) => !removed.has(`${r}:${name}`));
      for (const r of roleList) removed.add(`${r}:${name}`);
      steps.push(removalStep(name, roleList, context));
    }
    const command = k.unit.effect === 'check' && !hasKey ? stripUnusedBearer(k.command) : k.command;
    const step = stepForUnit({ ...k, command }, context);
    // The same command on another host right after (in parallel, or one after the other): one step.
    const previous = steps.at(-1);
    const stepRole = step.roles[0] as string;
    if (previous && previous.command === step.command && previous.workdir === step.workdir && !previous.roles.includes(stepRole)) {
      // Each host's own recorded call, so a run is compared with what that host did.
      const first = previous.roles[0] ?? 'head';
      previous.source.roles = {
        [first]: { message_ordinal: previous.source.message_ordinal, call_id: previous.source.call_id },
        ...previous.source.roles,
        [stepRole]: { message_ordinal: step.source.message_ordinal, call_id: step.source.call_id },
      };
      previous.roles.push(stepRole);
      previous.timeout_s = Math.max(previous.timeout_s, step.timeout_s);
      continue;
    }
    groupOf.set(step, k.unit.call.parallelGroup);
    steps.push(step);
  }
  uniqueIds(steps);
  markIndependent(steps, groupOf);
  const used = new Set(steps.flatMap((step) => placeholdersOf([step.command, step.guard ?? '', step.workdir ?? ''].join('\n'))));
  const plan = planSchema.parse({
    version: PLAN_VERSION,
    session: recorded.session,
    goal: recorded.goal,
    purpose: purpose.kind,
    candidate: recorded.accepted ?? recorded.candidates.find((c) => c.verdict === 'accepted')?.name ?? null,
    roles,
    variables: Object.fromEntries([
      ...found.filter((v) => used.has(v.name)).map((v) => [v.name, { value: v.value, description: v.description }] as const),
      ...secrets.map((s) => [s.name, { env: s.name, description: s.description, secret: true }] as const),
    ]),
    steps,
  });
  return { plan, decisions };
}

/** The digest the record showed when the accepted image was pulled (`Digest: sha256:…`). */
function imageDigest(kept: readonly KeptUnit[], image: string | null): string | null {
  if (!image) return null;
  for (const k of kept) {
    if (!k.unit.segment.actions.some((a) => a.kind === 'pull')) continue;
    const digest = /^Digest: (sha256:[0-9a-f]{64})$/m.exec(k.unit.call.output)?.[1];
    if (digest && k.command.includes(image.replace(/:latest$/, ''))) return digest;
  }
  return null;
}

function explain(
  recorded: RecordedSession,
  units: readonly Unit[],
  choice: ReturnType<typeof chooseUnits>,
  writers: ReadonlyMap<Segment, FileRecord>,
  copies: ReadonlySet<KeptUnit>,
  placements: ReturnType<typeof placeFiles>['placements'],
  unused: readonly FileRecord[],
): Decision[] {
  const decisions: Decision[] = [];
  const placed = new Map(placements.map((p) => [fileKeyOf(p.file), p]));
  const keptWhy = new Map(choice.kept.map((k) => [k.unit, k.why]));
  for (const call of recorded.calls) {
    const add = (kept: boolean, why: string): void => {
      decisions.push({ callId: call.callId, messageOrdinal: call.messageOrdinal, kept, why });
    };
    const mine = units.filter((unit) => unit.call === call);
    const files = [...placed.values()].filter((p) => p.file.changedBy.some((c) => c.callId === call.callId));
    const notUsed = unused.filter((file) => file.changedBy.some((c) => c.callId === call.callId));
    for (const p of files) add(true, `writes ${p.path}${p.host !== p.file.host ? ` (on ${p.host ?? 'the local machine'})` : ''}: a later step needs it`);
    for (const file of notUsed) add(false, `writes ${file.path}${file.deleted ? ', deleted later' : ''}: no kept step needs it (notes, or an attempt)`);
    if (mine.length === 0 && files.length === 0 && notUsed.length === 0) {
      const kind = call.actions[0]?.kind ?? '';
      add(false, NOT_SHELL_WHY[kind] ?? (call.command === null ? `not a shell command (${call.tool})` : 'nothing to run'));
    }
    for (const unit of mine) {
      const where = mine.length > 1 ? `on ${unit.segment.host ?? 'the local machine'}: ` : '';
      const writer = writers.get(unit.segment);
      const copy = [...copies].find((k) => k.unit === unit);
      if (writer) continue;
      if (copy) add(false, `${where}copies a written file to a host: the plan writes it there itself`);
      else if (keptWhy.has(unit) && !choice.dropped.has(unit)) add(true, `${where}${keptWhy.get(unit) ?? ''}`);
      else add(false, `${where}${choice.dropped.get(unit) ?? 'dropped'}`);
    }
  }
  return decisions;
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
    // Parts of one call (a start and the check split off it) run in their recorded order.
    step.independent_of = steps.filter((other) => other !== step && groupOf.get(other) === group && other.source.call_id !== step.source.call_id).map((other) => other.id);
  }
}
