import { frameworkById } from '../classify/index.js';
import { activeRules } from '../rules/active.js';
import type { TriedCandidate } from './tried.js';
import type { TreeAction } from './types.js';

/**
 * Names a reader would give a candidate that is no image: a framework on a host by its version
 * when the session read one (`vLLM 0.5.1`, `SGLang 0.4.6`), else by the framework's name. Installs
 * keep the spec as typed (`sglang[all]==0.4.6`) and source builds their repository
 * (`ggml-org/llama.cpp`), named where they are found.
 */
/**
 * A framework built from source, when the session also tried that framework another way (an image,
 * a package): a reader tells the two apart by saying "from source" (`TensorRT-LLM from source`
 * beside the NGC release image). Alone, it keeps its name (`ggml-org/llama.cpp`, `llama.cpp`).
 */
export function sourceBuildName(candidate: TriedCandidate, all: readonly TriedCandidate[]): string {
  const built = candidate.kind === 'framework' && candidate.actions.some((a) => a.rule === 'source-build');
  const other = all.some((c) => c !== candidate && c.framework === candidate.framework && !c.actions.some((a) => a.rule === 'source-build'));
  return built && other ? `${frameworkById(candidate.framework)?.label ?? candidate.name} from source` : candidate.name;
}

/** Actions before the candidate's first step, on its host and, when both say, in its environment, that belong to no candidate. */
function readBefore(candidate: TriedCandidate, earlier: readonly TreeAction[]): TreeAction[] {
  const first = candidate.actions[0];
  if (!first) return [];
  const root = candidate.actions.find((a) => a.envRoot)?.envRoot ?? null;
  return earlier.filter((a) => a.seq < first.seq && a.host === first.host && (root === null || a.envRoot === undefined || a.envRoot === null || a.envRoot === root));
}

export function hostCandidateName(candidate: TriedCandidate, earlier: readonly TreeAction[] = []): string {
  const framework = frameworkById(candidate.framework);
  const label = framework?.label ?? candidate.framework ?? 'framework';
  const own = new Set(activeRules().components.filter((c) => !c.shared && c.file === framework?.file).map((c) => c.component));
  // Its own steps say which version ran; else what the session read of that host (and env) before it ran (`~/venvs/sglang/bin/pip list`).
  const fact = candidate.actions.flatMap((a) => a.facts).find((f) => own.has(f.component))
    ?? readBefore(candidate, earlier).flatMap((a) => a.facts).findLast((f) => own.has(f.component));
  // A wheel's local build tag (`0.6.3+cu126`) says which build, not which version: a reader says `vLLM 0.6.3`.
  return fact ? `${label} ${fact.version.replace(/\+[\w.]+$/, '')}` : label;
}
