import { Document, Scalar } from 'yaml';
import { renderStep, secretNamesOf } from '../plan/render.js';
import type { Plan, PlanStep } from '../../core/plan/schema.js';
import { pipefailNeed } from '../plan/pipefail.js';
import { secretsReferenced } from '../run/remote-command.js';

/**
 * `retrace export SESSION --to ansible`: a playbook and an inventory with one group per role, for
 * fleets beyond one operator's SSH session. One play per step, on its roles' groups, in plan order
 * (a failure anywhere stops the playbook, as it stops a replay). Guards become `creates` when they
 * only test for a file, else a check task whose result gates the step (`when`, `changed_when`);
 * timeouts become `async`/`poll`; polls become `until`/`retries`/`delay`; destructive steps need
 * `-e retrace_yes=true` (the playbook's --yes); secrets come from the controller's environment.
 * Commands are tagged `!unsafe` so Jinja never touches a `{{.Names}}`. Pure.
 */

export interface AnsibleFiles {
  playbook: string;
  inventory: string;
}

function unsafe(text: string): Scalar {
  const scalar = new Scalar(text);
  scalar.tag = '!unsafe';
  return scalar;
}

/** `ls <path> >/dev/null 2>&1` and `test -e <path>` guards only ask whether a file exists. */
export function guardAsCreates(guard: string): string | null {
  const hfCache = /^ls "\$\{HF_HOME:-\$HOME\/([^}"]+)\}"(\/\S+) >\/dev\/null 2>&1$/.exec(guard);
  if (hfCache) return `~/${hfCache[1]}${hfCache[2]}`;
  const plain = /^(?:ls|test -e|test -f|\[ -e) ([~\w./*-]+)(?: \])? ?(?:>\/dev\/null 2>&1)?$/.exec(guard);
  return plain?.[1] ?? null;
}

const CHECKS = /^(?:check-|health)/;

function stepTasks(step: PlanStep, index: number, plan: Plan, values: Readonly<Record<string, string>>): Record<string, unknown>[] {
  const rendered = renderStep(step, values);
  const result = `result_${index + 1}`;
  const tasks: Record<string, unknown>[] = [];
  if (step.destructive) {
    tasks.push({
      name: `${step.id} is destructive: approve with -e retrace_yes=true`,
      'ansible.builtin.assert': { that: ['retrace_yes | default(false) | bool'], fail_msg: unsafe(`destructive step ${step.id}: ${rendered.command}`) },
    });
  }
  const creates = rendered.guard ? guardAsCreates(rendered.guard) : null;
  const guardVar = `guard_${index + 1}`;
  if (rendered.guard && !creates) {
    tasks.push({
      name: `${step.id}: already done?`,
      'ansible.builtin.shell': { cmd: unsafe(rendered.guard), executable: '/bin/bash' },
      register: guardVar,
      changed_when: false,
      failed_when: false,
    });
  }
  const secrets = secretsReferenced(`${rendered.command}\n${rendered.guard ?? ''}`, secretNamesOf(plan));
  // pipefail where the pipeline only trims output (see plan/pipefail.ts): a missing program fails the task.
  const command = pipefailNeed(rendered.command).pipefail ? `set -o pipefail\n${rendered.command}` : rendered.command;
  const task: Record<string, unknown> = {
    name: `${step.id}${step.description ? `: ${step.description}` : ''}`,
    'ansible.builtin.shell': { cmd: unsafe(command), executable: '/bin/bash', ...(creates ? { creates } : {}) },
    register: result,
  };
  if (rendered.guard && !creates) task['when'] = `${guardVar}.rc != 0`;
  // The exit as recorded is not enough: the output must have the recorded shape too.
  const shape = rendered.expectOutput ? ` or not (${result}.stdout is search(${JSON.stringify(rendered.expectOutput)}, multiline=True))` : '';
  if (step.expect.exit !== null) task['failed_when'] = `${result}.rc != ${step.expect.exit}${shape}`;
  else if (shape) task['failed_when'] = shape.replace(/^ or /, '');
  task['changed_when'] = CHECKS.test(step.id) ? false : true;
  if (step.poll) {
    const pattern = rendered.expectOutput ? ` and (${result}.stdout is search(${JSON.stringify(rendered.expectOutput)}, multiline=True))` : '';
    task['until'] = `${result}.rc == ${step.expect.exit ?? 0}${pattern}`;
    task['retries'] = Math.max(1, Math.ceil(step.poll.max_s / step.poll.interval_s));
    task['delay'] = Math.max(1, Math.round(step.poll.interval_s));
    task['timeout'] = Math.ceil(step.timeout_s);
  } else {
    task['async'] = Math.ceil(step.timeout_s);
    task['poll'] = Math.min(10, Math.max(1, Math.ceil(step.timeout_s / 60)));
  }
  if (secrets.length > 0) {
    task['environment'] = Object.fromEntries(secrets.map((name) => [name, `{{ lookup('ansible.builtin.env', '${name}') }}`]));
    task['no_log'] = true;
  }
  tasks.push(task);
  return tasks;
}

export function renderAnsible(plan: Plan, values: Readonly<Record<string, string>>, exportedAt: Date): AnsibleFiles {
  const plays = plan.steps.map((step, index) => ({
    name: `${index + 1}. ${step.id}`,
    hosts: step.roles.join(':'),
    gather_facts: false,
    any_errors_fatal: true,
    tags: [step.id, ...(step.destructive ? ['destructive'] : [])],
    tasks: stepTasks(step, index, plan, values),
  }));
  const doc = new Document(plays);
  const secrets = secretNamesOf(plan);
  doc.commentBefore = [
    ` retrace: replay of "${plan.session.title ?? plan.session.id}" (session ${plan.session.id}), exported ${exportedAt.toISOString()}.`,
    ` Candidate: ${plan.candidate ?? 'unknown'}. One play per step, in order; fill inventory.ini with your hosts.`,
    `   ansible-playbook -i inventory.ini playbook.yml -e retrace_yes=true   # approves the destructive steps`,
    ...(secrets.length > 0 ? [` Secrets are read from the environment of the controller: ${secrets.join(', ')}.`] : []),
  ].join('\n');
  const playbook = doc.toString({ lineWidth: 0, minContentWidth: 0 });

  const inventory = [
    `# retrace: inventory for "${plan.session.title ?? plan.session.id}": one group per role.`,
    '# Put your hosts under each group. The recorded addresses are comments: never used as targets.',
    ...Object.entries(plan.roles).flatMap(([role, spec]) => [
      '',
      `[${role}]`,
      `# recorded: ${[spec.recorded_user && spec.recorded_address ? `${spec.recorded_user}@${spec.recorded_address}` : spec.recorded_address, spec.recorded_hostname].filter(Boolean).join(', ') || 'no address'}`,
      `# ${spec.recorded_hostname ?? `${role}-1`} ansible_host=ADDRESS ansible_user=${spec.recorded_user ?? 'USER'}`,
    ]),
    '',
  ].join('\n');
  return { playbook, inventory };
}
