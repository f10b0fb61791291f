import { Document, Scalar } from 'yaml';
import { renderStep, secretNamesOf } from '../plan/render.js';
import type { Plan, PlanStep } from '../../core/plan/schema.js';
import { pipefailNeed } from '../plan/pipefail.js';
import { secretsReferenced } from '../run/remote-command.js';
import { awaitedBy, COORDINATION_POLL, effectivePoll, isCheckStep, joinReadiness } from '../plan/coordination.js';

/**
 * `retrace export SESSION|PLAN.yaml --to ansible`: a playbook and an inventory with one group per
 * role, for fleets beyond one operator's SSH session: one an operator would keep. One play per
 * step, on its roles' groups, in plan order (a failure anywhere stops the playbook). Guards come
 * first: a check task whose result gates the step (or `creates` for a plain file test), so a step
 * already done is neither confirmed nor run, and a second run reports `changed=0`; destructive
 * steps then need `-e retrace_yes=true`. Long steps run as `async`/`poll` jobs, short ones with a
 * task `timeout`; polls become `until`/`retries`/`delay` (so does a check that waits for other
 * roles), and a cluster join first waits until the cluster answers. `no_log` only on the tasks
 * that carry a secret, and a task after each fails in its place with the exit code and the output
 * with the secret removed. Secrets come from the controller's environment. Commands are tagged
 * `!unsafe` so Jinja never touches a `{{.Names}}`. Pure.
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

/** A task's shell command: bash, with pipefail where the pipeline only trims output (plan/pipefail.ts). */
function shell(command: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const cmd = pipefailNeed(command).pipefail ? `set -o pipefail\n${command}` : command;
  return { cmd: unsafe(cmd), executable: '/bin/bash', ...extra };
}

/** The recorded shape: the exit and, when the plan has one, the output pattern (Jinja text). */
function meetsRecord(result: string, exit: number | null, pattern: string | null): string {
  const parts = [exit === null ? null : `${result}.rc == ${exit}`, pattern ? `(${result}.stdout is search(${JSON.stringify(pattern)}, multiline=True))` : null].filter(Boolean);
  return parts.length > 0 ? parts.join(' and ') : 'true';
}

/** `text` with each secret's value replaced, for messages a no_log task cannot print itself. */
function redacted(text: string, secrets: readonly string[]): string {
  return secrets.reduce((expr, name) => `${expr} | replace(lookup('ansible.builtin.env', '${name}'), '[REDACTED:env:${name}]')`, text);
}

/** Steps longer than this run as async jobs (polled), shorter ones with a plain task timeout. */
const ASYNC_AFTER_S = 120;

function stepTasks(step: PlanStep, index: number, plan: Plan, values: Readonly<Record<string, string>>): Record<string, unknown>[] {
  const rendered = renderStep(step, values);
  const result = `result_${index + 1}`;
  const tasks: Record<string, unknown>[] = [];
  const creates = rendered.guard ? guardAsCreates(rendered.guard) : null;
  const guardVar = `guard_${index + 1}`;
  // Guard first: a step whose work is done is neither confirmed nor run (and reports no change).
  const notDone = rendered.guard && !creates ? `${guardVar}.rc != 0` : null;
  if (rendered.guard && !creates) {
    tasks.push({
      name: `${step.id}: already done?`,
      'ansible.builtin.shell': shell(rendered.guard),
      register: guardVar,
      changed_when: false,
      failed_when: false,
    });
  }
  if (step.destructive) {
    tasks.push({
      name: `${step.id} is destructive: approve with -e retrace_yes=true`,
      'ansible.builtin.assert': { that: ['retrace_yes | default(false) | bool'], fail_msg: unsafe(`destructive step ${step.id}: ${rendered.command}`) },
      ...(notDone ? { when: notDone } : {}),
    });
  }
  const secrets = secretsReferenced(`${rendered.command}\n${rendered.guard ?? ''}`, secretNamesOf(plan));
  if (secrets.length > 0) {
    tasks.push({
      name: `${step.id}: its secrets are set on the controller`,
      'ansible.builtin.assert': {
        that: secrets.map((name) => `lookup('ansible.builtin.env', '${name}') | length > 0`),
        fail_msg: `set ${secrets.join(', ')} in the environment of ansible-playbook (never written into the playbook)`,
      },
      ...(notDone ? { when: notDone } : {}),
    });
  }
  const join = step.roles.some((role) => awaitedBy(plan, step, role)) ? joinReadiness(rendered.command) : null;
  if (join) {
    tasks.push({
      name: `${step.id}: wait until the ${join.framework} cluster at ${join.address} answers`,
      'ansible.builtin.shell': shell(join.check),
      register: `ready_${index + 1}`,
      until: `ready_${index + 1}.rc == 0`,
      retries: Math.ceil(COORDINATION_POLL.max_s / COORDINATION_POLL.interval_s),
      delay: COORDINATION_POLL.interval_s,
      changed_when: false,
      ...(notDone ? { when: notDone } : {}),
    });
  }
  const meets = meetsRecord(result, step.expect.exit, rendered.expectOutput);
  const task: Record<string, unknown> = {
    name: `${step.id}${step.description ? `: ${step.description}` : ''}`,
    'ansible.builtin.shell': shell(rendered.command, creates ? { creates } : {}),
    register: result,
  };
  if (notDone) task['when'] = notDone;
  // A secret's task hides its own result (no_log); the task after it fails in its place, showing
  // the exit and the output with the secret removed. Others fail themselves.
  task['failed_when'] = secrets.length > 0 ? false : `not (${meets})`;
  task['changed_when'] = !isCheckStep(step);
  const poll = effectivePoll(plan, step);
  if (poll) {
    task['until'] = meets;
    task['retries'] = Math.max(1, Math.ceil(poll.max_s / poll.interval_s));
    task['delay'] = Math.max(1, Math.round(poll.interval_s));
    task['timeout'] = Math.ceil(step.timeout_s);
  } else if (step.timeout_s > ASYNC_AFTER_S) {
    task['async'] = Math.ceil(step.timeout_s);
    task['poll'] = Math.min(10, Math.max(1, Math.ceil(step.timeout_s / 60)));
  } else {
    task['timeout'] = Math.ceil(step.timeout_s);
  }
  if (secrets.length > 0) {
    task['environment'] = Object.fromEntries(secrets.map((name) => [name, `{{ lookup('ansible.builtin.env', '${name}') }}`]));
    task['no_log'] = true;
  }
  tasks.push(task);
  if (secrets.length > 0) {
    const output = redacted(`((${result}.stdout | default('')) ~ '\\n' ~ (${result}.stderr | default('')))`, secrets);
    tasks.push({
      name: `${step.id}: as recorded?`,
      'ansible.builtin.fail': { msg: `${step.id} failed: exit {{ ${result}.rc | default('none') }}{{ ' (timed out)' if (${result}.msg | default('')) is search('timed out|timeout') else '' }}, expected ${step.expect.exit ?? 'any'}${rendered.expectOutput ? ` and output like /${rendered.expectOutput.replace(/[{}]/g, '')}/` : ''}: {{ ${output} }}` },
      when: `${result} is not skipped and not (${meets})`,
    });
  }
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
