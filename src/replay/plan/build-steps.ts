import type { PlanStep } from '../../core/plan/schema.js';
import type { KeptUnit } from './choose.js';
import { isDestructive } from './destructive.js';
import { editFileStep, writeFileStep } from './file-steps.js';
import type { FilePlacement } from './file-uses.js';
import { overwritesSecretFile, secretFiles, secretFilesGuard } from './secret-files.js';
import { secretsToReferences, type SecretReference } from './secrets.js';
import { describe, stepFacts, timeoutFor } from './step-facts.js';
import { templatize, templatizePattern } from './template.js';
import { isClusterCheck, START_KINDS, type Unit } from './units.js';
import type { FoundVariable } from './variables.js';

/**
 * Plan steps from what extraction kept: a recorded command (secrets as references, values as
 * `{{ variables }}`, the facts of its kind: id, guard, expected output), a written file, and the
 * removal of a stopped container left with the name a step is about to use. Pure.
 */

export interface StepContext {
  variables: readonly FoundVariable[];
  hostWords: readonly string[];
  roleOf(host: string | null): string;
  workdirOf(unit: Unit): string | null;
  secrets: SecretReference[];
  /** Values a written file may name that `--var` moves: each role's workdir. */
  workdirVariables: readonly { name: string; value: string }[];
  /** Units in record order, to see whether the record waited for a check. */
  units: readonly Unit[];
}

function addSecrets(into: SecretReference[], found: readonly SecretReference[]): void {
  for (const secret of found) if (!into.some((s) => s.name === secret.name)) into.push(secret);
}

/** Polling for a check the record had to wait for (it retried, or slept first), long enough for what it waited. */
function pollFor(unit: Unit, units: readonly Unit[], cluster: boolean): PlanStep['poll'] {
  if (cluster) return { interval_s: 10, max_s: 600 };
  const before = units.filter((u) => u.order < unit.order && u.segment.host === unit.segment.host);
  const starter = [...before].reverse().find((u) => u.effect === 'change' && START_KINDS.has(u.primary?.kind ?? ''));
  if (!starter) return null;
  const between = units.filter((u) => u.order > starter.order && u.order <= unit.order);
  const waited = between.some((u) => u !== unit && u.segment.actions.some((a) => a.kind === 'health' && a.outcome !== 'ok')) || between.some((u) => /\bsleep\s+\d/.test(u.segment.command)) || starter.trailingCheckFailed;
  if (!waited) return null;
  const serveEnd = (starter.call.startedAt ?? 0) + (starter.call.durationMs ?? 0);
  const waitedMs = Math.max(0, (unit.call.startedAt ?? serveEnd) - serveEnd);
  return { interval_s: 10, max_s: Math.max(300, Math.ceil((waitedMs * 1.5) / 60_000) * 60) };
}

export function stepForUnit(kept: KeptUnit, context: StepContext): PlanStep {
  const { unit } = kept;
  const referenced = secretsToReferences(kept.command);
  addSecrets(context.secrets, referenced.secrets);
  const command = templatize(referenced.command, context.variables);
  // A check is named by its health request, whatever else it reads on the way (`launchctl print`).
  const action = (unit.effect === 'check' && !isClusterCheck(unit) ? unit.segment.actions.find((a) => a.kind === 'health') : undefined) ?? unit.primary;
  const leads = action?.kind === 'serve' || (action?.kind === 'cluster' && /--head\b/.test(kept.command));
  const facts = action ? stepFacts(action, unit.call, kept.command, leads) : { idBase: 'run-command', guard: null, expectOutput: null };
  const check = unit.effect === 'check';
  const cluster = check && isClusterCheck(unit);
  // A step that makes a new secret into a file never runs again where the file holds it.
  const secretsMade = secretFiles(kept.command);
  const secretGuard = secretFilesGuard(secretsMade);
  const guard = secretGuard === null ? facts.guard : facts.guard === null ? secretGuard : `${secretGuard} && (\n${facts.guard}\n)`;
  return {
    id: facts.idBase,
    description: describe(unit.call, context.hostWords),
    roles: [context.roleOf(unit.segment.host)],
    command,
    timeout_s: timeoutFor(unit.call),
    // Expected values follow their variable too: `--var model=…` moves what a health check expects.
    expect: { exit: unit.trailingCheckFailed ? null : 0, output: facts.expectOutput === null ? null : templatizePattern(facts.expectOutput, context.variables) },
    guard: guard === null ? null : templatize(guard, context.variables),
    destructive: isDestructive(kept.command) || overwritesSecretFile(kept.command, secretsMade),
    poll: check ? pollFor(unit, context.units, cluster) : null,
    independent_of: [],
    source: { message_ordinal: unit.call.messageOrdinal, call_id: unit.call.callId },
    workdir: context.workdirOf(unit),
    file: null,
  };
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '') || 'file';
}

/** A file the deployment needs, written where a step needs it. `target` is how the command names its path. */
export function stepForFile(placement: FilePlacement, target: string, role: string, context: StepContext): PlanStep {
  const { file } = placement;
  const moved = context.workdirVariables.filter((v) => v.name === `${role.replace(/-/g, '_')}_workdir`);
  const text = file.content !== null ? writeFileStep(file, target, moved) : editFileStep(file, target);
  addSecrets(context.secrets, text.secrets);
  const name = placement.path.split('/').pop() ?? placement.path;
  const last = file.changedBy.at(-1);
  return {
    id: `${file.content !== null ? 'write' : 'edit'}-${slug(name)}`,
    description: file.content !== null ? `write ${placement.path} as the agent left it` : `apply the agent's edits to ${placement.path}`,
    roles: [role],
    command: text.command,
    timeout_s: 60,
    expect: { exit: 0, output: null },
    guard: text.guard,
    destructive: file.existedBefore,
    poll: null,
    independent_of: [],
    source: { message_ordinal: last?.messageOrdinal ?? null, call_id: last?.callId ?? null },
    workdir: null,
    file: { path: placement.path, sha256: text.sha256 },
  };
}

/** Before `docker run --name X`: a stopped X left behind (an earlier run, a crash) would refuse the name. */
export function removalStep(container: string, roles: string[], context: StepContext): PlanStep {
  const name = templatize(container, context.variables);
  return {
    id: `remove-stopped-${slug(container)}`,
    description: `remove a stopped container left with the name ${container} (a running one is left alone)`,
    roles,
    command: `docker rm ${name}`,
    timeout_s: 60,
    expect: { exit: 0, output: null },
    guard: `! docker container inspect ${name} >/dev/null 2>&1 || docker container inspect -f '{{.State.Running}}' ${name} 2>/dev/null | grep -qx true`,
    destructive: true,
    poll: null,
    independent_of: [],
    source: { message_ordinal: null, call_id: null },
    workdir: null,
    file: null,
  };
}
