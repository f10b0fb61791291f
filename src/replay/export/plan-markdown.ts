import { renderStep, secretNamesOf } from '../plan/render.js';
import type { Plan } from '../../core/plan/schema.js';
import { effectivePoll, joinReadiness, awaitedBy } from '../plan/coordination.js';

/**
 * `retrace export PLAN.yaml --to markdown`: the plan as a runbook a person can follow or review in
 * a ticket: roles with their recorded addresses (comments, never targets), variables, secrets by
 * name only, then each step with its hosts, guard, command, what is expected and how it waits.
 * Pure: a plan in, Markdown out.
 */

function fence(text: string): string[] {
  const ticks = /```/.test(text) ? '````' : '```';
  return [`${ticks}sh`, text, ticks];
}

export function renderPlanMarkdown(plan: Plan, values: Readonly<Record<string, string>>, label: string): string {
  const lines: string[] = [
    `# Runbook: ${plan.session.title ?? plan.session.id}`,
    '',
    `Plan \`${label}\`, from session \`${plan.session.id}\`${plan.candidate ? `; candidate \`${plan.candidate}\`` : ''}.`,
  ];
  if (plan.goal) lines.push('', `> ${plan.goal.replace(/\n/g, '\n> ')}`);
  lines.push('', '## Roles', '', '| role | recorded as (never a target) |', '| --- | --- |');
  for (const [role, spec] of Object.entries(plan.roles)) {
    const recorded = [spec.recorded_user && spec.recorded_address ? `${spec.recorded_user}@${spec.recorded_address}` : spec.recorded_address, spec.recorded_hostname].filter(Boolean).join(', ');
    lines.push(`| ${role} | ${recorded || '—'} |`);
  }
  const plain = Object.entries(values);
  if (plain.length > 0) {
    lines.push('', '## Variables', '', '| name | value |', '| --- | --- |');
    for (const [name, value] of plain) lines.push(`| ${name} | \`${value.replace(/\|/g, '\\|')}\` |`);
  }
  const secrets = secretNamesOf(plan);
  if (secrets.length > 0) lines.push('', `Secrets, read from the environment at run time: ${secrets.map((s) => `\`${s}\``).join(', ')}.`);
  lines.push('', '## Steps');
  plan.steps.forEach((step, index) => {
    const rendered = renderStep(step, values);
    const poll = effectivePoll(plan, step);
    lines.push('', `### ${index + 1}. ${step.id}${step.description ? ` — ${step.description}` : ''}`, '');
    const facts = [
      `on: ${step.roles.join(', ')}`,
      `timeout ${step.timeout_s}s`,
      step.destructive ? '**destructive** (asks to confirm)' : null,
      poll ? `polls every ${poll.interval_s}s for up to ${poll.max_s}s` : null,
    ].filter(Boolean);
    lines.push(`- ${facts.join(' · ')}`);
    for (const role of step.roles) {
      const join = awaitedBy(plan, step, role) ? joinReadiness(rendered.command) : null;
      if (join) lines.push(`- ${role} waits until the cluster at \`${join.address}\` answers: \`${join.check}\``);
    }
    if (rendered.guard) lines.push('- skipped when this succeeds (already done):', '', ...fence(rendered.guard), '');
    lines.push('', ...fence(rendered.command));
    const expected = [step.expect.exit === null ? null : `exit ${step.expect.exit}`, rendered.expectOutput ? `output matching \`${rendered.expectOutput}\`` : null].filter(Boolean);
    if (expected.length > 0) lines.push('', `Expected: ${expected.join(', ')}.`);
  });
  return `${lines.join('\n')}\n`;
}
