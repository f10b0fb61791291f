import { frameworks, type Framework } from '../classify/index.js';
import { namesFramework } from '../rules/compile.js';
import { unlistedStackNames } from './lead-unknown.js';
import type { CandidateKind } from './types.js';

/**
 * Leads named only in prose: what the assistant proposes but does not run ("we could also try …",
 * "fallback: …", "Other routes if this fails: …", "Not tried: …", "as a stopgap …"). Only a clause
 * that proposes something is read, and in it only what can serve a model:
 * - another serving stack by name (`TabbyAPI`, `llama.cpp`, `mlx-lm`), or a version of one (`vLLM 0.6.4`);
 * - a framework built from source ("building vLLM from source");
 * - a checkpoint in another quantization (`Qwen2.5-72B-Instruct-AWQ`) or of another size (`Qwen2.5-32B-Instruct`);
 * - another layout or engine option, as typed (`--kv-cache-dtype fp8`, `PYTORCH_ROCM_ARCH=gfx942`),
 *   a tensor-parallel degree ("TP=2", spelled as the framework's flag), one node instead of two.
 */
export interface ProseLead {
  name: string;
  kind: CandidateKind;
  framework: string | null;
  /** For a framework or a version of one: what identifies it (to tell it from a tried candidate). */
  version: string | null;
  /** A bare framework name: dropped when a more specific lead or a tried candidate is of the same framework. */
  generic: boolean;
  /** A backend it names (`ROCm` of "llama.cpp with ROCm"): a tried candidate is this lead only when its name shows it. */
  descriptive?: string[];
}

/** Words that propose instead of report. */
export const LEAD_CUE = /\b(?:could|would|I'd|we'd|might|may want|alternatives?|alternatively|options?|fallback|fall(?:ing)? back (?:to|on)|(?:I'll|we'll|I will|we will) (?:just )?go back to|stopgap|instead|other (?:route|way|option)s?|next (?:step|option)s?|not tried|haven't tried|have not tried|didn't try|neither tried|untried|worth (?:a )?try(?:ing)?|worth comparing|the thing to compare|if you (?:ever |later )?(?:want|need)|to get more|consider|or else|otherwise|we'll try|we will try|(?:we'll|we will|I'll) (?:just )?go with|try (?:that|it) (?:tomorrow|later|next))\b/i;
const QUANT = /(?:^|[-_.])(?:AWQ|GPTQ|GGUF|EXL2|FP8|FP4|NVFP4|INT4|INT8|W4A16|W8A8|MLX|\d+(?:\.\d+)?bpw|Q\d_K(?:_[MSL])?|q\d+f\d+(?:_\d)?)(?:$|[-_.])/i;
/** A model of another size (`Qwen2.5-32B-Instruct`, `Llama-3.1-8B`): a name with its parameter count as a part of its own. */
const SIZED = /^[A-Za-z][\w.]*(?:-[\w.]+)*-\d+(?:\.\d+)?[BM](?:-[\w.]+)*$/;
const OPTION = /^(--[a-z][\w-]*(?:[ =][\w.:/-]+)?|[A-Z][A-Z0-9_]{2,}=[\w.:/-]+)$/;
/** A layout said in words (`TP 4`, `pipeline parallel 2`), not a part of a longer name (`tensorrt_llm-h100-fp8-tp2-throughput`). */
const LAYOUT = /(?<![\w.-])(TP|PP|tensor[- ]parallel(?:ism)?|pipeline[- ]parallel(?:ism)?)\s*(?:=|of|size)?\s*(\d+)(?![\w-])(?!(?:\s+[\w-]+)?\s+profiles?\b)/gi;
const ONE_NODE = /\b(?:a |one |single )(?:[\w×.-]+ ){0,2}node\b(?! each)/i;
const FROM_SOURCE = /\b(?:build(?:ing)?|compil(?:e|ing))\b[^.;]{0,60}?\bfrom source\b|\bsource build\b/i;
const DESCRIBES_ANOTHER = /-(?:based|style|like|compatible|powered|backed|derived)$/i;
const VERSION = /^v?(\d+\.\d+(?:\.\d+)?(?:\.post\d+|rc\d+)?)\+?$/;
/** Units a number is measured in: a number before one is a size, a rate or a time, never a version. */
const UNIT = /^(?:[KMGT]i?B|bytes?|tok(?:en)?s?\/s|t\/s|tokens?|%|ms|s|sec|seconds?|min|minutes?|[MG]B\/s|GHz|W)$/i;

/**
 * An option that says where a server listens or how a file is fetched (`--port 8001`,
 * `OLLAMA_HOST=0.0.0.0:11434`, `--force-download`, `--api-key`), not how the model is served: no approach.
 */
function routingOption(token: string): boolean {
  const name = (token.split(/[ =]/)[0] as string).replace(/^-+/, '').toLowerCase();
  return /(?:^|[-_])(?:host|port|bind|listen|addr|address|origins?|api[-_]?key|(?:hf|auth|access)[-_]?token|download|upload|force|verbose|quiet|help|log[-_]?level|dry[-_]?run)$/.test(name);
}

/** Words after a stack's name (and its version) that make it a thing in place: `vLLM 0.9.2 venv`, `the SGLang unit`. */
const IN_PLACE = /^(?:venv|virtualenv|env|environment|install|installation|unit|service|container|deployment)$/i;

/** Whether the stack at `at` is named as what is there ("under vLLM 0.9.2", "the vLLM 0.9.2 venv"), not proposed. */
function describesWhatIsThere(words: readonly string[], at: number): boolean {
  const after = VERSION.test(words[at + 1] ?? '') ? words[at + 2] : words[at + 1];
  return /^(?:under|beside|alongside)$/i.test(words[at - 1] ?? '') || IN_PLACE.test(after ?? '');
}

/** A word without its quotes, brackets and punctuation, and without a possessive ("vLLM's CPU backend" names vLLM). */
function clean(word: string): string {
  return word.replace(/^[`'"(*[]+|[`'")*\],.;:!?]+$/g, '').replace(/['’]s$/, '');
}

function servingFramework(word: string): Framework | null {
  return frameworks().find((f) => f.kind === 'framework' && namesFramework(f, word)) ?? null;
}

/** The canonical flag of a layout (`--tensor-parallel-size` for vLLM), from the rule files' shape options. */
function layoutFlag(kind: 'tp' | 'pp', framework: Framework | null): string {
  const label = kind === 'tp' ? '--tp' : '--pp';
  const names = framework?.shapeOptions.find(([l]) => l === label)?.[1] ?? [];
  return names.find((n) => n.startsWith('--')) ?? (kind === 'tp' ? '--tensor-parallel-size' : '--pipeline-parallel-size');
}

/** Clauses of a proposing sentence: alternatives joined by "or", commas and semicolons are separate leads. */
function clauses(sentence: string): string[] {
  return sentence.split(/;\s|,\s(?:or\s)?|\s(?:or|and)\s(?=\S)|\s—\s/).map((c) => c.trim()).filter(Boolean);
}

/** Backends a serving stack is built or run with: "vLLM's CPU backend", "llama.cpp with ROCm". */
const BACKENDS = /^(?:CPU|GPU|CUDA|ROCm|HIP|Vulkan|Metal|SYCL|oneAPI|OpenVINO|XPU|TPU|Neuron|MPS|OpenCL|BLAS|AVX-?512|AVX2|TensorRT|TRT-LLM|pytorch|turbomind)$/i;

/** The backend named right after a framework: `CPU backend` ("vLLM's CPU backend"), `with ROCm`, `on Vulkan`. */
function backendAfter(next: readonly string[]): string | null {
  const [first, second] = next;
  if (first && BACKENDS.test(first) && second && /^(?:backend|build|builds|engine|version)$/i.test(second)) return `${first} ${second.toLowerCase()}`;
  // "with CUDA", "on GPU", "on CPU" are how a stack is usually run, not another backend of it: as leads
  // they would stay untested beside a tried build whose name does not say so.
  if (first && /^(?:with|on)$/i.test(first) && second && BACKENDS.test(second) && !/^(?:CPU|GPU|CUDA)$/i.test(second)) return `${first.toLowerCase()} ${second}`;
  return null;
}

/**
 * An option or layout proposed for another serving stack than the session's ("vLLM with pipeline
 * parallel across the two nodes" in an SGLang session) is that stack's: a reader says
 * `vLLM --pipeline-parallel-size 2`, never the bare flag, which reads as an option of the stack tried.
 */
function ofStack(name: string, stack: Framework | null, own: Framework | null, tried: ReadonlySet<string>): string {
  // A variable is its stack's already (`OLLAMA_KV_CACHE_TYPE=q8_0`); an option of a stack the session ran reads as that stack's.
  return stack && own && stack.id !== own.id && !tried.has(stack.id) && name.startsWith('-') ? `${stack.label} ${name}` : name;
}

function clauseLeads(clause: string, context: Framework | null, own: Framework | null, tried: ReadonlySet<string>): ProseLead[] {
  const found: ProseLead[] = [];
  const backticked = [...clause.matchAll(/`([^`\n]+)`/g)].map((m) => (m[1] as string).trim());
  // "llama.cpp/ollama" names two stacks.
  const words = clause.replace(/`/g, ' ').split(/\s+/).map(clean).filter(Boolean)
    .flatMap((w) => (w.includes('/') && w.split('/').every((part) => servingFramework(part) !== null) ? w.split('/') : [w]));
  // "llama.cpp-based Ollama", "vLLM-style batching": a stack named as what another is made of or like, not proposed.
  // `tensorrt_llm-a100-bf16-tp8-*` (a glob, cut to `…-tp8-`) names a family of profiles or files, not a stack to try.
  const mentioned = words.filter((w) => !DESCRIBES_ANOTHER.test(w) && !/[-_]$/.test(w)).map((w) => ({ word: w, framework: servingFramework(w) })).filter((m) => m.framework !== null);
  const framework = mentioned[0]?.framework ?? context;
  // The stack a clause names in words, not inside an option (`OLLAMA_KV_CACHE_TYPE=q8_0` names no other stack).
  const stack = mentioned.find((m) => !/=|^-/.test(m.word))?.framework ?? null;
  const weights = (w: string): boolean => QUANT.test(w) || SIZED.test(w);
  const model = backticked.find((t) => weights(t) && /^[A-Za-z][\w./-]+$/.test(t) && t.length >= 10 && /\d/.test(t) && /[-/]/.test(t)) ?? words.find((w) => weights(w) && /\d/.test(w) && /^[A-Za-z][\w.-]*\/?[\w.-]+$/.test(w) && w.length > 8 && !/^\d/.test(w));
  if (model) {
    found.push({ name: model, kind: 'approach', framework: framework?.id ?? null, version: null, generic: false });
    // A quantized checkpoint is the whole proposal; a model of another size may come with the stack to run it on.
    if (QUANT.test(model)) return found;
  }
  if (FROM_SOURCE.test(clause) && framework) found.push({ name: `${framework.label} from source`, kind: 'framework', framework: framework.id, version: null, generic: false });
  for (const token of backticked) {
    const option = OPTION.exec(token);
    if (option && !routingOption(token)) found.push({ name: ofStack(token.replace(/=/, token.startsWith('--') ? ' ' : '='), stack, own, tried), kind: 'approach', framework: framework?.id ?? null, version: null, generic: false });
  }
  if (ONE_NODE.test(clause) && /\b(?:nodes?|TP|tensor)\b/i.test(clause)) found.push({ name: 'single node', kind: 'approach', framework: framework?.id ?? null, version: null, generic: false });
  else if (!backticked.some((t) => OPTION.test(t))) {
    for (const match of clause.matchAll(LAYOUT)) {
      // A parallel degree counts GPUs or nodes; "pp512" / "tg128" are llama-bench's prompt and generation tests.
      if (Number(match[2]) > 64) continue;
      const kind = /^(?:TP|tensor)/i.test(match[1] as string) ? 'tp' : 'pp';
      found.push({ name: ofStack(`${layoutFlag(kind, framework)} ${match[2] as string}`, stack, own, tried), kind: 'approach', framework: framework?.id ?? null, version: null, generic: false });
    }
  }
  mentioned.forEach(({ word, framework: f }, index) => {
    const at = words.indexOf(word);
    // "torch would be downgraded under vLLM 0.9.2", "the vLLM venv": a stack named as what is already there.
    if (describesWhatIsThere(words, at)) return;
    // A variable of the stack (`OLLAMA_HOST=0.0.0.0:11434`) is an option, read with the backticked ones above.
    if (/^[A-Z][A-Z0-9_]*=|^-/.test(word)) return;
    const next = words[at + 1] ?? '';
    // A number after the name is its version unless it is a measure (`dustynv/ollama:0.6.8-…` 4.1 GB, "Ollama 9.6 tok/s") or the name is tagged already.
    const measured = UNIT.test(words[at + 2] ?? '') || /:[\w.]*\d/.test(word);
    const version = measured ? null : (VERSION.exec(next)?.[1] ?? null);
    const backend = backendAfter(words.slice(at + 1, at + 4));
    if (version) found.push({ name: `${f?.label} ${version}`, kind: 'framework', framework: f?.id ?? null, version, generic: false });
    else if (backend) found.push({ name: `${word} ${backend}`, kind: 'framework', framework: f?.id ?? null, version: null, generic: false, descriptive: [backend.split(' ').find((w) => BACKENDS.test(w)) as string] });
    else if (index === 0 || mentioned[index - 1]?.framework !== f) {
      const name = word.split('/').find((part) => f && namesFramework(f, part)) ?? word;
      found.push({ name, kind: 'framework', framework: f?.id ?? null, version: null, generic: true });
    }
  });
  // A stack no rule file names (lead-unknown.ts); a name any rule file knows (a stack, a sidecar) is read above or is none.
  // A name that is the value of an option proposed with it (`ModelScope` beside `XINFERENCE_MODEL_SRC=modelscope`) is that option.
  const optionValues = new Set(found.filter((l) => l.kind === 'approach').map((l) => (l.name.split(/[ =]/).at(-1) as string).toLowerCase()));
  for (const name of unlistedStackNames(clause)) if (!frameworks().some((f) => namesFramework(f, name)) && !optionValues.has(name.toLowerCase())) found.push({ name, kind: 'framework', framework: null, version: null, generic: false });
  return found;
}

/** The leads one proposing sentence names (none when it does not propose). */
export function proseLeads(sentence: string, proposing: boolean, fallback: Framework | null = null, tried: ReadonlySet<string> = new Set()): ProseLead[] {
  if (!proposing && !LEAD_CUE.test(sentence)) return [];
  const context = clauses(sentence).map((c) => c.replace(/`/g, ' ').split(/\s+/).map(clean).map(servingFramework).find(Boolean)).find(Boolean) ?? fallback;
  return clauses(sentence).flatMap((clause) => clauseLeads(clause, context, fallback, tried));
}
