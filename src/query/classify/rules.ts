import { FALLBACK_RULE, GLUE_RULES, HOST_RULES } from './rules-host.js';
import { RUNTIME_RULES } from './rules-runtime.js';
import type { CommandView, Rule, RuleMatch } from './view.js';

/**
 * The classification rules, in the order they are tried: the first rule that matches a command
 * decides its kind (`kind: null` = not an action). Each rule has a name, a one-line description
 * and a test of its own (test/query/classify-rules.test.ts).
 */
export const RULES: readonly Rule[] = [
  ...GLUE_RULES,
  ...RUNTIME_RULES,
  ...HOST_RULES,
  FALLBACK_RULE,
];

export function ruleByName(name: string): Rule | undefined {
  return RULES.find((rule) => rule.name === name);
}

/** The first matching rule's verdict, or null when the command is not an action (noise, filters). */
export function applyRules(view: CommandView, rules: readonly Rule[] = RULES): RuleMatch | null {
  for (const rule of rules) {
    const extracted = rule.match(view);
    if (!extracted) continue;
    if (rule.kind === null) return null;
    const { kind, ...rest } = extracted;
    return { ...rest, kind: kind ?? rule.kind, rule: rule.name };
  }
  return null;
}
