import type { RuleProblem } from '../query/rules/load.js';
import type { Output } from './output.js';

const warned = new Set<string>();

/** Names each rule file that did not load (file:line and why), once per process. */
export function warnRuleProblems(problems: readonly RuleProblem[], output: Output): void {
  for (const problem of problems) {
    const text = `retrace: ${problem.file}${problem.line === null ? '' : `:${problem.line}`}: ${problem.message} (this rule file is left out)`;
    if (warned.has(text)) continue;
    warned.add(text);
    output.warn(text);
  }
}
