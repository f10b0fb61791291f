/**
 * Version facts read from output: `SGLang: 0.5.4`, `Transformers: 4.57.6`, `vLLM API server
 * version 0.17.0rc1.dev58`, the NGC banner's `PyTorch Version 2.11.0a0+eb65b36`, `CUDA Version 13.0.1`.
 * The components come from the rule files (`versions:`); each is matched on every line.
 */
import { activeRules } from '../rules/active.js';

export interface VersionFact {
  component: string;
  label: string;
  version: string;
  line: string;
}

/** The components whose versions a verdict's reason names (framework builds, transformers), in rule order. */
export function reasonComponents(kernel: boolean): string[] {
  return activeRules().components.filter((c) => c.inReason === 'always' || (kernel && c.inReason === 'kernel')).map((c) => c.component);
}

/** The first version of each component in the output. */
export function extractFacts(output: string | null): VersionFact[] {
  if (!output) return [];
  const facts = new Map<string, VersionFact>();
  const { components } = activeRules();
  for (const line of output.split('\n').slice(0, 4000)) {
    for (const { component, label, pattern } of components) {
      if (facts.has(component)) continue;
      const match = pattern.exec(line);
      if (match) facts.set(component, { component, label, version: match[1] as string, line: line.trim() });
    }
  }
  return [...facts.values()];
}

/** `SGLang 0.5.4, transformers 4.57.1`: the facts that matter for a verdict, in a fixed order. */
export function describeFacts(facts: readonly VersionFact[], components: readonly string[]): string {
  return components
    .map((component) => facts.find((fact) => fact.component === component))
    .filter((fact): fact is VersionFact => fact !== undefined)
    .map((fact) => `${fact.label} ${fact.version}`)
    .join(', ');
}
