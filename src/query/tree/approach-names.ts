/**
 * How sibling approaches are called: by their weights when they vary, else by the options that are
 * their own, spoken as a reader would (`tp8 pp2`, `single node`, `without --gemm_plugin`,
 * `cache_mode Q4`). Pure: tokens of a setting in, names out (approaches.ts finds the settings).
 */

/** One word of a setting as typed (`--max-model-len 16384`, `--enforce-eager`, `OLLAMA_KV_CACHE_TYPE=q8_0`), keyed by its meaning. */
export interface Token {
  typed: string;
  /** The option by its label (`--tp_size` and `--tensor-parallel-size` are both `--tp`). */
  option: string;
  /** The option and its value by label: two spellings of one setting compare equal. */
  key: string;
  layout: boolean;
  /** Its value names a preset the stack ships (a NIM profile): the approach is called by the value. */
  preset: boolean;
  /**
   * `shape`: a serving-shape option (layout, quantization: always counted); `defining`: an option that
   * changes what the deployment is (the rules' `options.defining`, a build define); `routine`: any
   * other flag, counted only as the fix after a failure.
   */
  role: 'shape' | 'defining' | 'routine';
}

/** A variable set to an opaque id (`NIM_MODEL_PROFILE=7cd3…`): named by its name, never its value. */
export function opaqueAssignment(token: Token): boolean {
  return /^[A-Z][A-Z0-9_]*=[0-9a-f]{16,}$/i.test(token.typed);
}

/** Weights named by a local path are named by their file or folder (`~/models/x-Q8_0.gguf` is `x-Q8_0.gguf`); repository ids and relative paths stay. */
/** The weights a model id or served path denotes, without its owner, folder or `HF://`: `Qwen/Qwen2.5-72B-Instruct-AWQ` → `qwen2.5-72b-instruct-awq`. */
export function modelStem(model: string): string {
  return (model.replace(/^HF:\/\//i, '').replace(/\/+$/, '').split('/').at(-1) ?? model).toLowerCase();
}

const WEIGHTS_FORMAT = /awq|gptq|gguf|exl2|fp8|fp4|int4|int8|bpw|mlx|w4a16|w8a8|bf16|fp16|(?:^|[-_.])q\d/i;

/**
 * Whether `short` names the weights `long` names, cut short with no format in what is cut
 * (`llama-3.3-70b` for `Llama-3.3-70B-Instruct`; not `Qwen2.5-72B-Instruct` for its `-AWQ`). Stems, as `modelStem` gives them.
 */
export function sameWeightsShorter(short: string, long: string): boolean {
  return long.startsWith(short) && !namesWeightsFormat(long.slice(short.length));
}

/** Whether a name says the weights' format (a quantization, a precision, a file format): `-AWQ`, `Q4_K_M`, `fp8`. */
export function namesWeightsFormat(name: string): boolean {
  return WEIGHTS_FORMAT.test(name);
}

/** Words of a model's name that say how its weights are stored, not which model it is: `-AWQ`, `-4bit`, `Q4_K_M`, `exl2_4.5bpw`, `-Instruct`. */
const BUILD_WORDS = /(?:^|[-_.])(?:awq|gptq|gguf|exl2|mlx|fp8|fp16|bf16|fp4|nvfp4|int4|int8|w4a16|w8a8|\d+(?:\.\d+)?bpw|\d+bit|q\d(?:_[a-z0-9]+)*|instruct|it|chat|hf|dynamic|marlin)(?=$|[-_.])/gi;

/** The model a weights name denotes, without how it is stored: `Llama-3.3-70B-Instruct-AWQ` and `llama-3.3-70b-instruct` are one model. */
export function modelIdentity(model: string): string {
  let name = modelStem(weightsName(model)).replace(/\.gguf$/i, '');
  for (let before = ''; before !== name;) {
    before = name;
    name = name.replace(BUILD_WORDS, '');
  }
  return name;
}

/** Whether two weights names are builds of one model (a quantization, a conversion) rather than two models. */
export function sameModel(a: string, b: string): boolean {
  const [x, y] = [modelIdentity(a), modelIdentity(b)];
  return x === y || (x.length >= 4 && y.length >= 4 && (x.startsWith(y) || y.startsWith(x)));
}

export function weightsName(model: string): string {
  const file = /^(?:~|\/)/.test(model) ? (model.replace(/\/+$/, '').split('/').at(-1) ?? model) : model;
  // The first part of a split GGUF (`X-Q8_0-00001-of-00002.gguf`) is the whole weights: llama.cpp loads the other parts beside it.
  return file.replace(/-\d{5}-of-\d{5}(\.gguf)$/i, '$1');
}

/** Where an option was typed in a command (its flag or variable name), for naming options in the order the session wrote them. */
function typedAt(command: string, token: Token): number {
  const name = token.typed.split(/[ =]/)[0] as string;
  const words = command.split(/\s+/);
  const index = words.findIndex((w) => w === name || w.startsWith(`${name}=`));
  return index < 0 ? Number.MAX_SAFE_INTEGER : index;
}

/**
 * A layout of several parts compactly, in the order typed (`tp8 pp2`, `dp2 tp2`); one spread over
 * nodes by its flags as typed (`--tp 8 --nnodes 2`: readers quote them or say "TP8 across two
 * nodes"); anything else by its first changed option as typed (`--max-model-len 16384`,
 * `--num-shard 2`), or the options of one feature changed with it. A preset is called by its value.
 */
function spoken(given: readonly Token[], command = '', prose = ''): string {
  const tokens = [...given].sort((a, b) => typedAt(command, a) - typedAt(command, b));
  // A variable set to an opaque id is named by its name (`NIM_MODEL_PROFILE`), a preset by its value.
  const preset = tokens.find((t) => t.preset && !opaqueAssignment(t));
  if (preset) return preset.key.slice(preset.key.indexOf('=') + 1);
  if (tokens.length > 1 && tokens.every((t) => t.layout)) {
    if (tokens.some((t) => t.option === '--nnodes')) return tokens.map((t) => t.typed).join(' ');
    return tokens.map((t) => `${t.option.replace(/^-+/, '')}${t.typed.split(' ')[1] ?? t.key.slice(t.key.indexOf('=') + 1)}`).join(' ');
  }
  const said = (t: Token): string => (opaqueAssignment(t) ? t.typed.slice(0, t.typed.indexOf('=')) : switchedOn(t) ?? jsonChoice(t) ?? t.typed);
  // Options of one feature changed together (`--speculative-num-steps 5 --speculative-eagle-topk 8`) are read as one setting; otherwise the first changed names it.
  const first = mostSpokenOf(given, prose);
  const family = featureOf(first);
  const together = family ? given.filter((t) => featureOf(t) === family) : [first];
  return together.map(said).join(' ');
}

/** Of options changed together, the one the assistant talks about most (`max_num_tokens` beside `max_batch_size`); else the first. */
function mostSpokenOf(given: readonly Token[], prose: string): Token {
  const first = given[0] as Token;
  if (given.length < 2 || prose === '') return first;
  const said = (t: Token): number => {
    const name = t.option.replace(/^-+/, '').replace(/^[A-Z][A-Z0-9_]*=.*/, '');
    const typed = (t.typed.split(/[ =:]/)[0] as string).replace(/^-+/, '');
    const spellings = [...new Set([name, typed, typed.replace(/_/g, '-'), typed.replace(/-/g, '_')])].filter((n) => n.length > 2);
    return spellings.reduce((n, s) => n + prose.split(s).length - 1, 0);
  };
  return given.reduce((best, t) => (said(t) > said(best) ? t : best), first);
}

/** A JSON value is said by what it picks (`--speculative-config {"method":"ngram",…}` → `--speculative-config ngram`). */
function jsonChoice(token: Token): string | null {
  const at = token.typed.indexOf(' {');
  const picked = at < 0 ? null : /"(?:method|type|name|mode)"\s*:\s*"([^"]+)"/.exec(token.typed.slice(at))?.[1];
  return picked ? `${token.typed.slice(0, at)} ${picked}` : null;
}

/** A build define that turns a switch on (`-DGGML_VULKAN=ON`) is said by the switch: `GGML_VULKAN`. */
function switchedOn(token: Token): string | null {
  return /^-D([A-Z][A-Z0-9_]*)=(?:ON|1|TRUE|YES)$/i.exec(token.typed)?.[1] ?? null;
}

/** Leading words that name no feature (`--max_batch_size`, `--enable-…`). */
const PLAIN_WORDS = new Set(['max', 'min', 'num', 'enable', 'disable', 'use', 'no', 'n', 'gpu', 'model', 'cache']);

/** The feature an option belongs to, by its first word (`--speculative-eagle-topk` → speculative), or null. */
function featureOf(token: Token): string | null {
  const word = /^--?([a-z0-9]+)[-_]/i.exec(token.typed)?.[1]?.toLowerCase() ?? null;
  return word && !PLAIN_WORDS.has(word) ? word : null;
}

export interface Variant {
  model: string | null;
  tokens: Token[];
  /** The command of its first launch or build: options are named in the order it typed them. */
  command: string;
}

/**
 * Names of sibling approaches, in the order they were first run: each by what it changed — its
 * weights when they vary, else the options that are its own against the next approach (what the
 * session changed to move on from it), the last against the one before it. When two would read
 * alike, by every word of their settings.
 */
export function approachNames(prose: string, variants: readonly Variant[]): string[] {
  const differing = (a: Variant, b: Variant | undefined): Token[] => (b ? a.tokens.filter((t) => !b.tokens.some((o) => o.key === t.key)) : []);
  const names = variants.map((variant, index) => {
    const own = differing(variant, variants[index + 1]);
    const changed = own.length > 0 ? own : differing(variant, variants[index - 1]);
    // A setting that only leaves out what the one before it set is called by that: `without --gemm_plugin`.
    const before = variants[index - 1];
    const left = before && changed.length === 0 ? before.tokens.filter((t) => !variant.tokens.some((o) => o.option === t.option)) : [];
    if (left.length > 0 && variant.model === before?.model) return left.map((t) => `without ${t.typed.split(/[ =]/)[0] as string}`).join(' ');
    // Another model (not another build of the same one) names the approach, whatever else changed with it.
    const neighbour = variants[index + 1] ?? variants[index - 1];
    if (variant.model !== null && neighbour?.model && !sameModel(variant.model, neighbour.model)) return weightsName(variant.model);
    // A layout changed (or a preset picked) names the approach even when the weights changed with it: `--tp 4`, not the checkpoint again.
    const layout = changed.filter((t) => t.layout || (t.preset && !opaqueAssignment(t)));
    if (layout.length > 0) return spoken(layout, variant.command);
    // Weights named alike (a path and the name it is served under) tell nothing apart: the options do. Other weights name
    // the way they were run, on one node or several (`Qwen2.5-72B-Instruct-AWQ` on one node after the full model on two).
    const weights = variant.model === null ? null : weightsName(variant.model);
    if (weights !== null && variants.some((other) => other.model !== null && weightsName(other.model) !== weights)) return weights;
    // The one way run on a single node beside ways spread over nodes is, as readers say, the single node (whatever else it tuned).
    if (!spansNodes(variant) && variants.some(spansNodes) && variants.filter((v) => !spansNodes(v)).length === 1) return 'single node';
    return changed.length > 0 ? spoken(changed, variant.command, prose) : variant.tokens.length > 0 ? spoken(variant.tokens, variant.command) : (variant.model ? weightsName(variant.model) : '');
  });
  if (names.every(Boolean) && new Set(names).size === names.length) return names;
  const byWeights = namesByWeights(variants, differing);
  if (byWeights.every(Boolean) && new Set(byWeights).size === byWeights.length) return byWeights;
  return variants.map((v) => [...(v.model === null ? [] : [weightsName(v.model)]), ...v.tokens.map((t) => t.typed)].join(' '));
}

/** A way spread over several nodes: a node count or a pipeline of two or more stages in what sets it apart. */
function spansNodes(variant: Variant): boolean {
  return variant.tokens.some((t) => (t.option === '--nnodes' || t.option === '--pp') && Number(t.key.slice(t.key.indexOf('=') + 1)) >= 2);
}

/** What tells weights apart from the others served (`4.65bpw` of `X-exl2_4.65bpw` beside `X-exl2_4.0bpw`): what follows their common stem. */
function weightsPart(weights: string, all: readonly string[]): string {
  let common = 0;
  while (all.every((w) => w[common] === weights[common]) && common < weights.length) common += 1;
  const cut = Math.max(...['-', '_', '/'].map((sep) => weights.lastIndexOf(sep, common - 1))) + 1;
  return weights.slice(cut) || weights;
}

/**
 * When weights were served in several settings (a 4.65bpw quant with an FP16 cache, then with a Q4
 * cache): the first launch of each weights is called by them, a later one on the same weights by
 * what tells the weights apart and the options changed since (`4.65bpw cache_mode Q4`).
 */
function namesByWeights(variants: readonly Variant[], differing: (a: Variant, b: Variant | undefined) => Token[]): string[] {
  const weightsOf = (v: Variant): string | null => (v.model === null ? null : weightsName(v.model));
  const all = [...new Set(variants.map(weightsOf))];
  if (all.length < 2 || all.includes(null)) return variants.map(() => '');
  return variants.map((variant, index) => {
    const weights = weightsOf(variant) as string;
    const before = variants.slice(0, index).filter((o) => weightsOf(o) === weights).at(-1);
    if (!before) return weights;
    const changed = differing(variant, before);
    return changed.length > 0 ? `${weightsPart(weights, all as string[])} ${spoken(changed, variant.command)}` : '';
  });
}
