import type { Plan, PlanStep } from '../../core/plan/schema.js';
import { renderPattern, renderTemplate, renderWorkdir, shellQuote, TemplateError } from './template.js';

/** Turning a plan into the commands a host will run, and the dry run's text. Pure. */

export function secretNamesOf(plan: Plan): string[] {
  return Object.entries(plan.variables)
    .filter(([, variable]) => 'env' in variable)
    .map(([name, variable]) => ('env' in variable ? variable.env : name));
}

/** Value variables, with `--var name=value` overrides; a secret cannot be overridden this way. */
export function planValues(plan: Plan, overrides: Readonly<Record<string, string>> = {}): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, variable] of Object.entries(plan.variables)) if ('value' in variable) values[name] = variable.value;
  for (const [name, value] of Object.entries(overrides)) {
    const declared = plan.variables[name];
    if (!declared) throw new TemplateError(`--var ${name}: the plan declares no variable ${name}`);
    if ('env' in declared) throw new TemplateError(`--var ${name}: ${name} is a secret; set $${declared.env} in the environment instead`);
    values[name] = value;
  }
  return values;
}

export interface RenderedStep {
  /** What the host runs: the step's command, after a `cd` into its workdir when it has one. */
  command: string;
  /** The directory the step runs in, as rendered (null: where the login shell starts). */
  workdir: string | null;
  guard: string | null;
  /** expect.output with its placeholders as literal text: `--var model=…` moves what is expected too. */
  expectOutput: string | null;
}

export function renderStep(step: PlanStep, values: Readonly<Record<string, string>>): RenderedStep {
  const command = renderTemplate(step.command, values);
  const workdir = step.workdir === null ? null : renderWorkdir(step.workdir, values);
  const guard = step.guard === null ? null : renderTemplate(step.guard, values);
  return {
    // A missing directory fails the step with the shell's own message (`cd: /srv/app: No such file or directory`).
    command: workdir === null ? command : `${changeDirectory(workdir)} || exit 1\n${command}`,
    workdir,
    // The guard looks where the step works (`[ -f .env ]`); a directory not there yet: not done.
    guard: guard === null || workdir === null ? guard : `${changeDirectory(workdir)} 2>/dev/null || exit 1\n${guard}`,
    expectOutput: step.expect.output === null ? null : renderPattern(step.expect.output, values),
  };
}

/** `cd` into a directory given as text: `~` and `~/…` stay the home's, everything else is one quoted word. */
export function changeDirectory(dir: string): string {
  if (dir === '~') return 'cd ~';
  if (dir.startsWith('~/')) return `cd ~/${shellQuote(dir.slice(2))}`;
  return `cd ${shellQuote(dir.startsWith('-') ? `./${dir}` : dir)}`;
}

export class StepRangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StepRangeError';
  }
}

/** Indexes of the steps between --from and --to (inclusive), by step id. */
export function stepRange(plan: Plan, from?: string, to?: string): { first: number; last: number } {
  const indexOf = (id: string, flag: string): number => {
    const index = plan.steps.findIndex((step) => step.id === id);
    if (index < 0) throw new StepRangeError(`${flag} ${id}: no such step; the plan's steps are ${plan.steps.map((s) => s.id).join(', ')}`);
    return index;
  };
  const first = from ? indexOf(from, '--from') : 0;
  const last = to ? indexOf(to, '--to') : plan.steps.length - 1;
  if (first > last) throw new StepRangeError(`--from ${from} comes after --to ${to}`);
  return { first, last };
}

/**
 * Consecutive steps that may run together: a step joins the batch before it when it names every
 * step already in it under independent_of (or they name it). Steps on several roles always run
 * on those hosts at once.
 */
export function batchesOf(steps: readonly PlanStep[]): PlanStep[][] {
  const batches: PlanStep[][] = [];
  for (const step of steps) {
    const current = batches.at(-1);
    const joins = current?.every((other) => step.independent_of.includes(other.id) || other.independent_of.includes(step.id));
    if (current && joins) current.push(step);
    else batches.push([step]);
  }
  return batches;
}

function recordedAs(role: Plan['roles'][string]): string {
  const address = role.recorded_user && role.recorded_address ? `${role.recorded_user}@${role.recorded_address}` : role.recorded_address;
  const parts = [address, role.recorded_hostname].filter(Boolean);
  return parts.length > 0 ? `recorded: ${parts.join(', ')}` : 'no recorded address';
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}

export interface DryRunInput {
  plan: Plan;
  /** role → the hosts named for it (several for a fleet), or null when none was given. */
  hosts: Readonly<Record<string, readonly string[] | null>>;
  values: Readonly<Record<string, string>>;
  range: { first: number; last: number };
  secretsSet: Readonly<Record<string, boolean>>;
}

/** The dry run: per host, the rendered steps with their guard and destructive marks. */
export function renderDryRun(input: DryRunInput): string {
  const { plan, range } = input;
  const lines: string[] = [];
  lines.push(`Plan for ${plan.session.title ? `"${plan.session.title}"` : plan.session.id} (session ${plan.session.id})`);
  if (plan.purpose === 'cleanup') lines.push('A clean-up plan: the session removed or stopped things; it deploys nothing');
  if (plan.candidate) lines.push(`Winning candidate: ${plan.candidate}`);
  lines.push(`${plan.steps.length} steps; roles: ${Object.keys(plan.roles).join(', ')}`);
  for (const [role, spec] of Object.entries(plan.roles)) {
    const host = input.hosts[role];
    lines.push('');
    lines.push(`${role} → ${host && host.length > 0 ? host.join(', ') : '(no --host given)'}   # ${recordedAs(spec)}, never used as a target`);
    plan.steps.forEach((step, index) => {
      if (!step.roles.includes(role)) return;
      const outside = index < range.first || index > range.last;
      const rendered = renderStep(step, input.values);
      const marks = [
        step.destructive ? 'DESTRUCTIVE: asks to confirm' : null,
        step.guard ? 'guarded' : null,
        step.roles.length > 1 ? `parallel on ${step.roles.join(' + ')}` : null,
        step.poll ? `polls every ${step.poll.interval_s}s for up to ${step.poll.max_s}s` : null,
        `timeout ${step.timeout_s}s`,
        outside ? 'outside --from/--to: not run' : null,
      ].filter(Boolean);
      lines.push(`  ${index + 1}. ${step.id}${step.description ? ` — ${step.description}` : ''}`);
      lines.push(`     [${marks.join('] [')}]`);
      if (rendered.workdir !== null) lines.push(`     in ${rendered.workdir}`);
      if (step.file) lines.push(`     writes ${step.file.path}${step.file.sha256 ? ` (sha256 ${step.file.sha256.slice(0, 12)}…)` : ' (edits applied in place)'}`);
      if (rendered.guard) lines.push(indent(rendered.guard, '     guard: ').replace(/\n {5}guard: /g, '\n            '));
      lines.push(indent(renderTemplate(step.command, input.values), '     $ ').replace(/\n {5}\$ /g, '\n       '));
      const expected = [step.expect.exit === null ? null : `exit ${step.expect.exit}`, rendered.expectOutput ? `output /${rendered.expectOutput}/` : null].filter(Boolean);
      if (expected.length > 0) lines.push(`     expect: ${expected.join(', ')}`);
    });
  }
  const secrets = Object.entries(input.secretsSet);
  if (secrets.length > 0) {
    lines.push('');
    lines.push(`Secrets, read from the environment at run time: ${secrets.map(([name, set]) => `${name} (${set ? 'set' : 'NOT set'})`).join(', ')}`);
  }
  return lines.join('\n');
}
