import { Document, isMap, isScalar, isSeq, parseDocument, type YAMLMap } from 'yaml';
import type { z } from 'zod';
import { compileLinear } from '../../core/regex/linear-regex.js';
import { FILTERS, placeholdersOf, unknownFiltersOf } from './template.js';
import { planSchema, type Plan } from '../../core/plan/schema.js';

/**
 * Plans as YAML a person edits: comments say what each part means, multi-line commands are block
 * scalars, long lines are never folded. Reading back validates with zod and then checks that the
 * parts refer to each other (roles, step ids, variables), so an edit fails with the field at fault.
 */

export class PlanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanError';
  }
}

const HEADER = [
  ' retrace replay plan: the winning path of a recorded session, as steps to run again.',
  ' Edit freely; `retrace replay` validates it before running anything.',
  ' roles: the recorded address of each role is a comment for you, never a target: a live run',
  '   needs --host ROLE=[user@]host[:port] for every role.',
  ' variables: `{{ name }}` in a command is replaced by the value, shell-quoted; secrets are',
  '   read from the environment at run time (`${NAME}` in commands) and never written down.',
  ' steps: guard = a check run first (exit 0: already done, the step is skipped);',
  '   destructive = asks for confirmation unless --yes; expect = how the record ended.',
].join('\n');

function describeRole(role: Plan['roles'][string]): string | null {
  const where = [role.recorded_user && role.recorded_address ? `${role.recorded_user}@${role.recorded_address}` : role.recorded_address, role.recorded_hostname]
    .filter(Boolean)
    .join(', ');
  return where ? ` recorded as ${where} (never used as a target)` : null;
}

/** The optional fields a step leaves out when unset, so the YAML shows only what a step has. */
const OMITTED_WHEN_NULL = ['workdir', 'file'] as const;

export function planToYaml(plan: Plan): string {
  const shown = { ...plan, steps: plan.steps.map((step) => Object.fromEntries(Object.entries(step).filter(([key, value]) => !(OMITTED_WHEN_NULL as readonly string[]).includes(key) || value !== null))) };
  const doc = new Document(shown);
  doc.commentBefore = HEADER;
  const contents = doc.contents;
  if (isMap(contents)) {
    const roles = contents.get('roles', true);
    if (isMap(roles)) {
      for (const pair of roles.items) {
        const name = isScalar(pair.key) ? String(pair.key.value) : '';
        const comment = plan.roles[name] ? describeRole(plan.roles[name]) : null;
        if (comment && isScalar(pair.key)) pair.key.commentBefore = comment;
      }
    }
    const steps = contents.get('steps', true);
    if (isSeq(steps)) {
      steps.items.forEach((item, index) => {
        const step = plan.steps[index];
        if (!step || !isMap(item)) return;
        const marks = [step.destructive ? 'DESTRUCTIVE' : null, step.guard ? 'guarded' : null, step.roles.join(' + ')].filter(Boolean);
        (item as YAMLMap).commentBefore = ` ${index + 1}. ${step.description || step.id} [${marks.join(', ')}]`;
      });
    }
  }
  return doc.toString({ lineWidth: 0, minContentWidth: 0, blockQuote: 'literal' });
}

function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 12)
    .map((issue) => {
      const path = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./, '');
      return `  ${path || '(plan)'}: ${issue.message}`;
    })
    .join('\n');
}

/** Cross-references zod cannot see: every role, step id and `{{ variable }}` named must exist. */
export function planReferenceProblems(plan: Plan): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  const declared = new Set(Object.keys(plan.variables));
  plan.steps.forEach((step, index) => {
    const at = `steps[${index}] (${step.id})`;
    if (ids.has(step.id)) problems.push(`${at}: step id "${step.id}" is used twice`);
    ids.add(step.id);
    for (const role of step.roles) if (!plan.roles[role]) problems.push(`${at}: role "${role}" is not declared under roles`);
    for (const filter of [step.command, step.guard ?? '', step.expect.output ?? '', step.workdir ?? ''].flatMap(unknownFiltersOf)) {
      problems.push(`${at}: unknown filter "${filter}" (known: ${Object.keys(FILTERS).join(', ')})`);
    }
    for (const name of [...placeholdersOf(step.command), ...placeholdersOf(step.guard ?? ''), ...placeholdersOf(step.workdir ?? '')]) {
      if (!declared.has(name)) problems.push(`${at}: {{ ${name} }} is not declared under variables`);
      else if ('env' in (plan.variables[name] ?? {})) problems.push(`${at}: secret ${name} must be written \${${name}}, not {{ ${name} }}`);
    }
    if (step.expect.output !== null) {
      for (const name of placeholdersOf(step.expect.output)) {
        if (!declared.has(name) || 'env' in (plan.variables[name] ?? {})) problems.push(`${at}: expect.output names {{ ${name} }}, which is not a declared value`);
      }
      try {
        // Placeholders stand for literal text: check the pattern around them.
        compileLinear(step.expect.output.replace(/\{\{[^}]*\}\}/g, 'x'));
      } catch (error) {
        problems.push(`${at}: expect.output cannot be used: ${(error as Error).message}`);
      }
    }
  });
  plan.steps.forEach((step, index) => {
    for (const other of step.independent_of) {
      if (!ids.has(other)) problems.push(`steps[${index}] (${step.id}): independent_of names no step "${other}"`);
    }
  });
  return problems;
}

/** Validates a plan value (from YAML or JSON) and its cross-references. */
export function validatePlan(value: unknown, source = 'plan'): Plan {
  const parsed = planSchema.safeParse(value);
  if (!parsed.success) throw new PlanError(`${source} is not a valid plan:\n${formatIssues(parsed.error.issues)}`);
  const problems = planReferenceProblems(parsed.data);
  if (problems.length > 0) throw new PlanError(`${source} is not a valid plan:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return parsed.data;
}

export function parsePlanYaml(text: string, source = 'plan'): Plan {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new PlanError(`${source} is not valid YAML:\n${doc.errors.slice(0, 5).map((e) => `  ${e.message}`).join('\n')}`);
  }
  return validatePlan(doc.toJS(), source);
}
