import { frameworkById } from '../classify/index.js';
import { activeRules } from '../rules/active.js';
import type { TriedCandidate } from './tried.js';

/**
 * Names a reader would give a candidate that is no image: a framework on a host by its version
 * when the session read one (`vLLM 0.5.1`, `SGLang 0.4.6`), else by the framework's name. Installs
 * keep the spec as typed (`sglang[all]==0.4.6`) and source builds their repository
 * (`ggml-org/llama.cpp`), named where they are found; a build of a tree never cloned in the session
 * is `<framework> from source`.
 */
export function hostCandidateName(candidate: TriedCandidate): string {
  const framework = frameworkById(candidate.framework);
  const label = framework?.label ?? candidate.framework ?? 'framework';
  // Built from a source tree the session did not clone (`cd ~/llama.cpp && cmake …`, `pip install -e .`): a reader says "from source".
  if (candidate.actions.some((a) => a.rule === 'source-build')) return `${label} from source`;
  const own = new Set(activeRules().components.filter((c) => !c.shared && c.file === framework?.file).map((c) => c.component));
  const fact = candidate.actions.flatMap((a) => a.facts).find((f) => own.has(f.component));
  return fact ? `${label} ${fact.version}` : label;
}
