import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Database } from '../../store/database.js';
import { loadRun } from '../../store/run-queries.js';
import { planFromStore } from '../plan/load.js';
import { planValues, stepRange } from '../plan/render.js';
import type { Plan } from '../../core/plan/schema.js';
import { parsePlanYaml, validatePlan } from '../plan/yaml.js';
import { newRunId, type RunHeader, type RunMode } from '../../core/run/record.js';
import type { Fleet } from '../../core/run/fleet.js';
import { fleetOf } from '../fleet/fleet-input.js';
import { parseInventory } from '../fleet/inventory.js';
import { resumeStateOf, type ResumeState } from './resume.js';

/**
 * From what the user typed to a run ready to start: the plan (a YAML file, a session of the
 * store, or the run being resumed), the hosts per role, the values, the step range and the run's
 * header. No connection is made here and nothing is written.
 */

export class ReplayInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplayInputError';
  }
}

export interface ReplayRequest {
  /** A plan file or a SESSION reference; ignored when resuming. */
  source: string | null;
  resume: string | null;
  hosts: readonly string[];
  /** An Ansible inventory (INI or YAML): its groups are roles. */
  inventory?: string;
  vars: readonly string[];
  from?: string;
  to?: string;
  mode: RunMode;
}

export interface PreparedReplay {
  plan: Plan;
  header: RunHeader;
  values: Record<string, string>;
  range: { first: number; last: number };
  resume: ResumeState | null;
}

function parseAssignments(list: readonly string[], flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new ReplayInputError(`${flag} ${item}: expected NAME=VALUE`);
    out[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}

/** The hosts of each role from --host and --inventory (checked, never connected to here). */
function hostSpecsOf(list: readonly string[], inventoryFile: string | undefined, plan: Plan): Fleet {
  let inventory = null;
  if (inventoryFile) {
    if (!existsSync(inventoryFile) || !statSync(inventoryFile).isFile()) throw new ReplayInputError(`--inventory ${inventoryFile}: no such file`);
    inventory = parseInventory(readFileSync(inventoryFile, 'utf8'), inventoryFile);
  }
  return fleetOf(list, inventory, Object.keys(plan.roles), inventoryFile);
}

async function loadPlan(db: Database | null, source: string): Promise<{ plan: Plan; label: string }> {
  if (existsSync(source) && statSync(source).isFile()) {
    const path = resolve(source);
    return { plan: parsePlanYaml(readFileSync(path, 'utf8'), path), label: path };
  }
  if (!db) throw new ReplayInputError(`${source} is not a plan file, and there is no store to find a session in`);
  const { plan } = await planFromStore(db, source);
  return { plan, label: `session:${plan.session.id}` };
}

export async function prepareReplay(db: Database | null, request: ReplayRequest, now = new Date()): Promise<PreparedReplay> {
  if (request.resume) {
    if (!db) throw new ReplayInputError('--resume needs the store the run was recorded in');
    const stored = await loadRun(db, request.resume);
    if (stored.mode !== 'live') throw new ReplayInputError(`${stored.id} is a dry run; there is nothing to resume (run again with --live)`);
    // Still running (its process is alive): a second runner would stop its steps and drive its hosts.
    if (stored.status === 'running' && stored.origin === 'replay') {
      throw new ReplayInputError(`${stored.id} is still running (PID ${stored.pid ?? '?'}); watch it with \`retrace tui --run ${stored.id}\`, or stop it first`);
    }
    // The plan file as it is now (the user may have fixed a step), else the plan the run recorded.
    const label = stored.plan ?? '';
    const fromFile = label !== '' && !label.startsWith('session:') && existsSync(label) && statSync(label).isFile();
    const plan = fromFile ? parsePlanYaml(readFileSync(label, 'utf8'), label) : validatePlan(JSON.parse(stored.plan_json), `the plan of ${stored.id}`);
    // Roles named again now go to the hosts named now; the others to the hosts they ran on.
    const hostSpecs = { ...stored.host_specs, ...hostSpecsOf(request.hosts, request.inventory, plan) };
    const from = request.from ?? stored.step_from ?? undefined;
    const to = request.to ?? stored.step_to ?? undefined;
    // The run's own --var values, then any given now.
    const vars = { ...stored.vars, ...parseAssignments(request.vars, '--var') };
    const values = planValues(plan, vars);
    const range = stepRange(plan, from, to);
    const resume = resumeStateOf(stored.id, stored.step_rows, plan, values);
    const doneSteps = new Set([...resume.done].map((key) => key.split('\u0000').slice(0, 2).join('\u0000')));
    const left = plan.steps.slice(range.first, range.last + 1).some((step) => step.roles.some((role) => !doneSteps.has(`${step.id}\u0000${role}`)));
    // A run that ended ok has something to resume only when its plan changed since.
    if (stored.status === 'ok' && !left) throw new ReplayInputError(`${stored.id} already finished ok and its plan is unchanged; nothing to resume`);
    return {
      plan,
      header: { ...headerFor(stored.id, plan, label, 'live', hostSpecs, from, to, now, vars), sessionTitle: stored.session_title },
      values,
      range,
      resume,
    };
  }
  if (!request.source) throw new ReplayInputError('name a plan file or a session to replay (or --resume RUN)');
  const { plan, label } = await loadPlan(db, request.source);
  const hostSpecs = hostSpecsOf(request.hosts, request.inventory, plan);
  const vars = parseAssignments(request.vars, '--var');
  return {
    plan,
    header: headerFor(newRunId(now), plan, label, request.mode, hostSpecs, request.from, request.to, now, vars),
    values: planValues(plan, vars),
    range: stepRange(plan, request.from, request.to),
    resume: null,
  };
}

function headerFor(id: string, plan: Plan, label: string, mode: RunMode, hostSpecs: Fleet, from: string | undefined, to: string | undefined, now: Date, vars: Record<string, string>): RunHeader {
  return {
    vars,
    id,
    sessionId: plan.session.id,
    sessionTitle: plan.session.title,
    planLabel: label,
    planJson: JSON.stringify(plan),
    mode,
    hosts: Object.fromEntries(Object.entries(hostSpecs).map(([role, list]) => [role, list.map((a) => a.spec)])),
    hostSpecs,
    stepFrom: from ?? null,
    stepTo: to ?? null,
    startedAt: now.getTime(),
    pid: process.pid,
    origin: 'replay',
  };
}
