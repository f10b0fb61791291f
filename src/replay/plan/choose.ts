import { frameworkIn } from '../../query/classify/index.js';
import { chooseChecks } from './checks.js';
import { composeWords, coveredBy, identitiesOf, modeOf, startsSomething, type Identity } from './identities.js';
import { rewriteRecordedIds } from './pids.js';
import { isCleanupSession } from './purpose.js';
import type { RecordedSession } from './recorded.js';
import { Creations, targetsOf } from './removals.js';
import { redundantSteps } from './redundant.js';
import { uploadsForDroppedSteps } from './uploads.js';
import { onlyRemoves, removesSomething, type Unit } from './units.js';
import { homeOf } from './workdir.js';

/**
 * Which recorded commands made the deployment. Dropped, each with its reason: look-ups (inspections,
 * registry and web queries, `--help`), scratch tests in /tmp, notes and commits, steps of rejected
 * candidates, failed steps (superseded by a later success of the same action, or never fixed),
 * attempts a later one of the same action replaced (restarts collapse to the one that worked),
 * things started and stopped again, results deleted later, clean-up of the session's own attempts,
 * tidying after the deployment, and checks beyond the one that proves each service up. Recorded
 * PIDs and container ids are replaced by a lookup by name, or the step is dropped. Pure.
 */

export interface KeptUnit {
  unit: Unit;
  /** The command to run: the recorded one, with recorded ids replaced by names. */
  command: string;
  why: string;
}

export interface Choice {
  kept: KeptUnit[];
  /** Why each unit was dropped. */
  dropped: Map<Unit, string>;
  identities: Map<Unit, Identity[]>;
}

const REJECTED = new Set(['rejected', 'abandoned']);
/** What a stray on the recorded machine is: processes by PID or pattern, its files and images (services and containers are its setup). */
const FOREIGN_STRAYS: ReadonlySet<string> = new Set(['process', 'pid', 'path', 'image']);

function candidateVerdicts(recorded: RecordedSession): { rejectedOf: (unit: Unit) => string | null } {
  const accepted = recorded.candidates.filter((c) => c.verdict === 'accepted');
  const rejected = recorded.candidates.filter((c) => REJECTED.has(c.verdict));
  const acceptedFrameworks = new Set(accepted.map((c) => c.framework).filter(Boolean));
  const rejectedFrameworks = new Set(rejected.map((c) => c.framework).filter((f): f is string => Boolean(f) && !acceptedFrameworks.has(f)));
  const callsOf = (name: string): readonly string[] => recorded.candidates.find((c) => c.name === name)?.calls ?? [];
  return {
    rejectedOf(unit) {
      const callId = unit.call.callId;
      if (accepted.some((c) => callsOf(c.name).includes(callId))) return null;
      const named = unit.segment.actions.map((a) => a.candidate).find((name) => name && rejected.some((c) => c.name === name));
      if (named) return named;
      const byEvidence = rejected.find((c) => callsOf(c.name).includes(callId));
      if (byEvidence) return byEvidence.name;
      if (recorded.accepted) {
        const image = unit.segment.actions.find((a) => (a.kind === 'pull' || a.kind === 'serve' || a.kind === 'cluster') && a.image)?.image;
        const other = image ? rejected.find((c) => c.kind === 'image' && c.name === image) : undefined;
        if (other) return other.name;
      }
      // Only a rejected framework's own programs (`ollama pull`, `ollama create`): that path was given up.
      const frameworks = [...unit.segment.actions.map((a) => a.framework), ...unit.changes.map((leaf) => frameworkIn(leaf.command.program)?.id ?? null)].filter((f): f is string => Boolean(f));
      if (frameworks.length > 0 && frameworks.every((f) => rejectedFrameworks.has(f))) return rejected.find((c) => c.framework === frameworks[0])?.name ?? frameworks[0] ?? null;
      return null;
    },
  };
}

/** `other` works inside what `unit` started: `docker exec NAME …` of its container, `compose exec` in its project. */
function usesStarted(unit: Unit, other: Unit): boolean {
  if (other.segment.host !== unit.segment.host) return false;
  const names = unit.changes.map((leaf) => leaf.command.dockerRun?.name).filter((name): name is string => Boolean(name));
  const projects = unit.changes.filter((leaf) => isComposeVerb(leaf, 'up')).map((leaf) => leaf.cwd);
  return other.leaves.some((leaf) => (leaf.inContainer !== null && names.includes(leaf.inContainer)) || (isComposeVerb(leaf, 'exec') && projects.includes(leaf.cwd)));
}

function isComposeVerb(leaf: Unit['leaves'][number], verb: string): boolean {
  const { program, argv } = leaf.command;
  const args = program === 'docker' && argv[1] === 'compose' ? argv.slice(2) : program === 'docker-compose' ? argv.slice(1) : null;
  return args !== null && composeWords(args)[0] === verb;
}

/** The first line of a text, cut short, for a reason. */
function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
}

export function chooseUnits(recorded: RecordedSession, units: readonly Unit[], unitFiles: ReadonlySet<string>): Choice {
  const dropped = new Map<Unit, string>();
  const identities = new Map<Unit, Identity[]>();
  const commands = new Map<Unit, string>();
  const notes = new Map<Unit, string[]>();
  const { rejectedOf } = candidateVerdicts(recorded);
  const creations = new Creations(unitFiles, homeOf(recorded.directory), units);
  const ran: Unit[] = [];
  const changing: Unit[] = [];
  // In a clean-up, removing what the machine had is the work, not housekeeping around it.
  const cleanup = isCleanupSession(recorded);

  for (const unit of units) {
    identities.set(unit, identitiesOf(unit));
    if (unit.effect === 'lookup') dropped.set(unit, `a look-up (${unit.primary?.kind ?? 'inspection'}): changes nothing`);
    else if (unit.effect === 'scratch') dropped.set(unit, 'a scratch test in /tmp: nothing the deployment needs');
    else if (unit.effect === 'bookkeeping') dropped.set(unit, 'records the work (git): not a step of the deployment');
    else if (unit.effect === 'loadtest') dropped.set(unit, 'a load test (requests in a loop or in parallel): not the proof the service is up');
    else if (unit.effect === 'benchmark') dropped.set(unit, 'a benchmark: measures the deployment, changes nothing it needs');
    if (unit.effect !== 'change') {
      ran.push(unit);
      continue;
    }
    // Stopping a rejected candidate is part of switching away from it: the removal rules below judge it.
    const rejected = unit.failed || !onlyRemoves(unit) ? rejectedOf(unit) : null;
    if (rejected) dropped.set(unit, `a step of ${rejected}, which was rejected`);
    else if (!unit.failed && onlyRemoves(unit)) {
      const targets = unit.changes.flatMap((leaf) => targetsOf(leaf, unit.segment.host));
      const makers = targets.map((target) => creations.maker(target, unit.order));
      if (targets.length > 0 && makers.every((maker) => maker !== null)) {
        dropped.set(unit, `clean-up of an earlier attempt (what it removes was made at #${makers.map((m) => m?.call.messageOrdinal).join(', #')})`);
      } else if (!cleanup && targets.length > 0 && targets.every((target, i) => (target.kind === 'image' || target.kind === 'path') && makers[i] === null)) {
        dropped.set(unit, 'housekeeping of the recorded machine (removes images or files it had, which another machine need not have)');
      } else if (!cleanup && targets.length > 0 && targets.every((target, i) => FOREIGN_STRAYS.has(target.kind) && makers[i] === null)) {
        // A process started by hand before the session (found by its PID or pattern), not a service
        // or container the machine is set up with: on another machine there is nothing to kill.
        dropped.set(unit, `stops a process the session did not start (${targets.filter((t) => t.kind === 'process' || t.kind === 'pid').map((t) => t.name).join(', ')}) and removes what the recorded machine had: another machine need not run it`);
      }
    }
    if (!dropped.has(unit)) {
      const rewrite = rewriteRecordedIds(unit, ran, (pid) => creations.maker({ kind: 'pid', name: pid, host: unit.segment.host }, unit.order) !== null);
      if (rewrite.unresolved.length > 0) dropped.set(unit, `names ${rewrite.unresolved.join(', ')} from the record, which no name or pattern finds on another machine`);
      else {
        commands.set(unit, rewrite.command);
        if (rewrite.notes.length > 0) notes.set(unit, rewrite.notes);
      }
    }
    if (!unit.failed) creations.learn(unit);
    // A container whose command exited 0 exists even when what ran in it failed (a server that crashed at load).
    else if (!unit.call.notRun && unit.call.exitCode === 0) creations.learnContainers(unit);
    ran.push(unit);
    changing.push(unit);
  }

  const movedTo = new Map<Unit, number>();
  /** Later starts that restart what an earlier start began, after steps between them it needs: they stay, even as the same command. */
  const restarts = new Set<Unit>();
  // Attempts of one action: a later success supersedes what came before (restarts collapse to the
  // one that worked); a repeat of an install, pull or download that already worked is a no-op.
  for (const [index, unit] of changing.entries()) {
    if (dropped.has(unit)) continue;
    const mine = identities.get(unit) ?? [];
    const later = changing.slice(index + 1).find((other) => !other.failed && !dropped.has(other) && coveredBy(mine, identities.get(other) ?? []));
    if (unit.failed && unit.call.notRun) {
      dropped.set(unit, `never ran: the tool call was rejected or refused (${firstLine(unit.call.output) || 'no output'})`);
    } else if (unit.failed) {
      dropped.set(unit, later
        ? `failed (exit ${unit.call.exitCode ?? 'none'}); the same action worked later (#${later.call.messageOrdinal})`
        : `failed (${unit.call.timedOut ? 'timed out' : `exit ${unit.call.exitCode ?? 'none'}`}) and was not fixed later`);
    } else if (later && modeOf(mine) === 'last') {
      // Steps in between used what this one started (a model pulled into its container): the
      // last form takes this one's place, so they still find it running.
      const user = changing.slice(index + 1).find((other) => other.order < later.order && !other.failed && usesStarted(unit, other));
      if (user) {
        // It cannot run ahead of what it may need from in between (a network made, a package
        // installed): right after the last such step when that is still before the first use,
        // else both starts stay, in their order (a restart that applies what changed).
        const between = changing.filter((other) => other.order > unit.order && other.order < later.order && !other.failed && !dropped.has(other)
          && other.segment.host === unit.segment.host && !usesStarted(unit, other) && !onlyRemoves(other) && !coveredBy(identities.get(other) ?? [], identities.get(later) ?? []));
        const needed = between.at(-1);
        if (needed && needed.order > user.order) {
          restarts.add(later);
          notes.set(later, [...(notes.get(later) ?? []), `restarts what #${unit.call.messageOrdinal} started, which #${user.call.messageOrdinal} used, after #${needed.call.messageOrdinal} it may need`]);
          continue;
        }
        movedTo.set(later, needed?.order ?? unit.order);
      }
      dropped.set(unit, `superseded: the same action again at #${later.call.messageOrdinal} is the one that worked${user ? `, and runs here instead (#${user.call.messageOrdinal} uses it)` : ''}`);
    }
    else if (later) dropped.set(later, `the same again (#${unit.call.messageOrdinal} already did it)`);
  }

  // Two servers on one port of one host: the later one could start only once the earlier was gone.
  for (const [index, unit] of changing.entries()) {
    if (dropped.has(unit) || unit.primary?.kind !== 'serve' || unit.primary.port === null) continue;
    // Only where starting it is all the step does (besides making a log folder): an edit made on the way stays.
    if (unit.changes.filter((leaf) => leaf.command.program !== 'mkdir').length > 1) continue;
    const port = unit.primary.port;
    const later = changing.slice(index + 1).find((other) => !other.failed && other.segment.host === unit.segment.host && other.primary?.kind === 'serve' && other.primary.port === port);
    if (later) dropped.set(unit, `superseded: another server was started on port ${port} at #${later.call.messageOrdinal}`);
  }

  // Started, then stopped or removed again, with nothing kept using it meanwhile: an attempt.
  for (const [index, unit] of changing.entries()) {
    if (dropped.has(unit) || !(startsSomething(identities.get(unit) ?? []) || creations.madeUnseen(unit))) continue;
    const after = changing.slice(index + 1);
    // A service it (re)started, stopped or disabled later and not started again: that start was an attempt too.
    const services = (identities.get(unit) ?? []).filter((i) => i.starts && i.key.includes('|service:')).flatMap((i) => i.key.replace(/^.*\|service:(?:user:)?/, '').split(','));
    const stopsService = (other: Unit): boolean => other.segment.host === unit.segment.host && other.changes.some((leaf) =>
      leaf.command.program === 'systemctl' && /^(?:stop|disable|mask)$/.test(leaf.command.argv.find((w, i) => i > 0 && !w.startsWith('-')) ?? '') && targetsOf(leaf, other.segment.host).some((t) => services.includes(t.name)));
    const stopper = after.find((other) => !other.failed && (other.changes.some((leaf) => removesSomething(leaf) && targetsOf(leaf, other.segment.host).some((target) => creations.makersOf(target, other.order).includes(unit))) || (services.length > 0 && stopsService(other))));
    if (!stopper) continue;
    const names = unit.changes.map((leaf) => leaf.command.dockerRun?.name).filter((name): name is string => Boolean(name));
    const used = after.some((other) => other.order < stopper.order && !dropped.has(other) && names.some((name) => other.leaves.some((leaf) => leaf.inContainer === name || leaf.command.argv.includes(name))));
    const restarted = after.some((other) => other !== stopper && other.order > stopper.order && !dropped.has(other) && coveredBy(identities.get(unit) ?? [], identities.get(other) ?? []));
    if (!used && !restarted) dropped.set(unit, `started, then stopped again at #${stopper.call.messageOrdinal}: an attempt, not the deployment`);
  }

  // Results removed later (`rm -rf` of an output directory): the step that made them was an attempt.
  // The removal itself may be dropped (as clean-up of that very attempt): what it removed is gone all the same.
  for (const unit of changing) {
    if (unit.failed || /^(?:never ran|a step of )/.test(dropped.get(unit) ?? '')) continue;
    for (const leaf of unit.changes) {
      if (leaf.command.program !== 'rm') continue;
      for (const target of targetsOf(leaf, unit.segment.host)) {
        for (const maker of creations.makersOfPath(target.name, unit.segment.host, unit.order)) {
          if (!dropped.has(maker)) dropped.set(maker, `what it made (${target.name}) was removed at #${unit.call.messageOrdinal}`);
        }
      }
    }
  }

  for (const [unit, why] of redundantSteps(changing, dropped, creations)) dropped.set(unit, why);
  for (const [unit, why] of uploadsForDroppedSteps(changing, dropped)) dropped.set(unit, why);

  const keptChanges = changing.filter((unit) => !dropped.has(unit));
  const checks = chooseChecks(units.filter((unit) => unit.effect === 'check'), keptChanges, identities);
  for (const [unit, why] of checks.dropped) dropped.set(unit, why);

  // Tidying after the deployment was up (removing an old model, pruning images) is not needed to redeploy.
  // Up means the last kept check passed, or the last step that started a service checked it itself.
  const selfChecked = keptChanges.filter((unit) => !unit.trailingCheckFailed && unit.segment.actions.some((a) => a.kind === 'health' && a.outcome === 'ok')).at(-1);
  const lastCheck = [checks.kept.at(-1), selfChecked].filter((unit): unit is Unit => unit !== undefined).sort((a, b) => a.order - b.order).at(-1);
  for (const unit of keptChanges) {
    if (lastCheck && unit.order > lastCheck.order && onlyRemoves(unit)) dropped.set(unit, 'clean-up after the deployment was up: not needed to redeploy');
  }

  const seen = new Set<string>();
  const kept: KeptUnit[] = [];
  const placed = [...units].sort((a, b) => (movedTo.get(a) ?? a.order) - (movedTo.get(b) ?? b.order) || a.order - b.order);
  for (const unit of placed) {
    if (dropped.has(unit) || (unit.effect !== 'change' && !checks.kept.includes(unit))) continue;
    const command = commands.get(unit) ?? unit.segment.command;
    const key = `${unit.segment.host ?? ''}\u0000${unit.cwd ?? ''}\u0000${command}`;
    if (seen.has(key) && !restarts.has(unit)) {
      dropped.set(unit, 'the same command again on the same host');
      continue;
    }
    seen.add(key);
    const what = unit.primary ? `${unit.primary.kind}${unit.primary.subject ? ` (${unit.primary.subject})` : ''}` : 'changes the machine';
    kept.push({ unit, command, why: [what, ...(notes.get(unit) ?? [])].join('; ') });
  }
  return { kept, dropped, identities };
}
