import { frameworkById } from '../classify/index.js';
import { shapeKey } from '../classify/shape.js';
import type { TriedCandidate } from './tried.js';
import type { TreeAction } from './types.js';

/**
 * Approaches: the ways one candidate was run, when it was run in more than one. A way is a shape
 * (the layout flags or variables of its serves and engine builds: `--tensor-parallel-size 16` vs
 * `--tensor-parallel-size 8 --pipeline-parallel-size 2`, `NIM_MODEL_PROFILE`) and, when the
 * candidate served several builds of one model (`HF://…-q4f16_1-MLC` vs a local conversion), the
 * weights. A launch with no distinguishing flags is the candidate itself, not an approach. Each
 * approach is named as typed. Health checks, probes and log reads belong to the shape launched or
 * built last before them.
 */
const SHAPE_KINDS = new Set(['serve', 'build']);
const FOLLOWER_KINDS = new Set(['health', 'probe', 'inspect']);

interface Shaped {
  action: TreeAction;
  key: string;
  config: string | null;
  model: string | null;
}

function isShapeAction(action: TreeAction): boolean {
  return SHAPE_KINDS.has(action.kind) && (action.kind === 'serve' || (action.framework !== null && action.rule !== 'source-build' && action.rule !== 'image-commit'));
}

function servedModel(action: TreeAction): string | null {
  return action.baseModel ?? action.model ?? null;
}

function stem(model: string): string {
  return (model.replace(/^HF:\/\//i, '').split('/').at(-1) ?? model).toLowerCase();
}

const WEIGHTS_FORMAT = /awq|gptq|gguf|exl2|fp8|fp4|int4|int8|bpw|mlx|w4a16|w8a8|bf16|fp16|(?:^|[-_.])q\d/i;

/**
 * Several weights of one model (a quantization, a conversion): their names share a long stem. A name
 * that is another's stem cut short with no format in what is cut (`llama-3.3-70b` served for
 * `Llama-3.3-70B-Instruct`) is the same weights under a shorter served name.
 */
function modelsVary(actions: readonly TreeAction[]): boolean {
  const all = [...new Set(actions.filter((a) => a.kind === 'serve').map(servedModel).filter((m): m is string => m !== null))];
  const shorter = (m: string): boolean => all.some((other) => other !== m && stem(other) !== stem(m) && stem(other).startsWith(stem(m)) && !WEIGHTS_FORMAT.test(stem(other).slice(stem(m).length)));
  const models = all.filter((m) => !shorter(m));
  if (models.length < 2) return false;
  const stems = models.map(stem);
  const first = stems[0] as string;
  return stems.every((s) => {
    let common = 0;
    while (common < s.length && common < first.length && s[common] === first[common]) common += 1;
    return common >= 8;
  });
}

function shapedActions(parent: TriedCandidate): Shaped[] {
  const byModel = modelsVary(parent.actions);
  const shaped: Shaped[] = [];
  let lastBuild: Shaped | null = null;
  for (const action of parent.actions) {
    if (!isShapeAction(action)) continue;
    let config = action.config;
    // A build step without layout flags continues the one before it (`quantize.py --tp_size 2`, then `trtllm-build`).
    if (action.kind === 'build' && !config && lastBuild) config = lastBuild.config;
    const model = byModel && action.kind === 'serve' ? servedModel(action) : null;
    const entry: Shaped = { action, key: `${shapeKey(config, frameworkById(action.framework ?? parent.framework))}|${model ?? ''}`, config, model };
    if (action.kind === 'build') lastBuild = entry;
    shaped.push(entry);
  }
  return shaped;
}

const LAYOUT_LABELS = new Set(['--tp', '--pp', '--dp', '--ep', '--nnodes']);

/**
 * How a reader names an approach: a layout compactly (`tp16`, `tp8 pp2`), other options as typed
 * (`--kv-cache-dtype fp8`, `OLLAMA_KV_CACHE_TYPE=q8_0`), a variable set to an opaque id by its name
 * (`NIM_MODEL_PROFILE`), the weights by their name.
 */
function approachParts(config: string | null, framework: ReturnType<typeof frameworkById>): string[] {
  const words = (config ?? '').split(' ').filter(Boolean);
  const parts: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const label = shapeKey(word, framework);
    if (word.startsWith('-') && LAYOUT_LABELS.has(label) && words[i + 1] !== undefined) {
      parts.push(label === '--nnodes' ? `on ${words[i + 1] as string} nodes` : `${label.replace(/^-+/, '')}${words[i + 1] as string}`);
      i += 1;
    } else if (/^[A-Z][A-Z0-9_]*=[0-9a-f]{16,}$/i.test(word) && /=[0-9a-f]{16,}$/.test(word)) {
      parts.push(word.slice(0, word.indexOf('=')));
    } else if (word.startsWith('-') && words[i + 1] !== undefined && !(words[i + 1] as string).startsWith('-')) {
      parts.push(`${word} ${words[i + 1] as string}`);
      i += 1;
    } else parts.push(word);
  }
  return parts;
}

/** Weights named by a local path are named by their file or folder (`~/models/x-Q8_0.gguf` is `x-Q8_0.gguf`); repository ids and relative paths stay. */
function weightsName(model: string): string {
  return /^(?:~|\/)/.test(model) ? (model.replace(/\/+$/, '').split('/').at(-1) ?? model) : model;
}

/**
 * Names of sibling approaches: each by its weights (when they vary) and its options, without the
 * parts all of them share (the flags every one was served with say nothing), unless that would
 * leave one unnamed or two alike.
 */
function approachNames(shapes: readonly { model: string | null; config: string | null; framework: ReturnType<typeof frameworkById> }[]): string[] {
  const parts = shapes.map((s) => [...(s.model === null ? [] : [weightsName(s.model)]), ...approachParts(s.config, s.framework)]);
  const common = new Set(parts[0]?.filter((part) => parts.every((p) => p.includes(part))) ?? []);
  const reduced = parts.map((p) => p.filter((part) => !common.has(part)).join(' '));
  const usable = shapes.length > 1 && reduced.every(Boolean) && new Set(reduced).size === reduced.length;
  return usable ? reduced : parts.map((p) => p.join(' '));
}

export function addApproaches(tried: TriedCandidate[]): TriedCandidate[] {
  const result: TriedCandidate[] = [];
  for (const parent of tried) {
    result.push(parent);
    const shaped = shapedActions(parent);
    const keys = [...new Set(shaped.map((s) => s.key))];
    if (keys.length < 2) continue;
    const shapeAt = (seq: number): Shaped | undefined => shaped.filter((s) => s.action.seq < seq).at(-1);
    const own = (key: string): Shaped[] => shaped.filter((s) => s.key === key);
    const firstOf = (key: string): Shaped => own(key).find((s) => s.config) ?? (own(key)[0] as Shaped);
    const approachKeys = keys.filter((k) => k !== '|');
    const names = approachNames(approachKeys.map((key) => ({ model: firstOf(key).model, config: firstOf(key).config, framework: frameworkById(firstOf(key).action.framework ?? parent.framework) })));
    approachKeys.forEach((key, index) => {
      const first = firstOf(key);
      const followers = parent.actions.filter((a) => !isShapeAction(a) && FOLLOWER_KINDS.has(a.kind) && (a.kind !== 'inspect' || a.hits.length > 0 || a.facts.length > 0) && shapeAt(a.seq)?.key === key);
      result.push({
        key: `${parent.key}#${key}`,
        name: names[index] as string,
        kind: 'approach',
        framework: first.action.framework ?? parent.framework,
        parentKey: parent.key,
        actions: [...own(key).map((s) => s.action), ...followers].sort((a, b) => a.seq - b.seq),
      });
    });
  }
  return result;
}
