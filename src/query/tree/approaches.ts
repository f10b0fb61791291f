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

/** Several weights of one model (a quantization, a conversion): their names share a long stem. */
function modelsVary(actions: readonly TreeAction[]): boolean {
  const models = [...new Set(actions.filter((a) => a.kind === 'serve').map(servedModel).filter((m): m is string => m !== null))];
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
function approachName(model: string | null, config: string | null, framework: ReturnType<typeof frameworkById>): string {
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
  return [model, parts.join(' ')].filter(Boolean).join(' ');
}

export function addApproaches(tried: TriedCandidate[]): TriedCandidate[] {
  const result: TriedCandidate[] = [];
  for (const parent of tried) {
    result.push(parent);
    const shaped = shapedActions(parent);
    const keys = [...new Set(shaped.map((s) => s.key))];
    if (keys.length < 2) continue;
    const shapeAt = (seq: number): Shaped | undefined => shaped.filter((s) => s.action.seq < seq).at(-1);
    for (const key of keys.filter((k) => k !== '|')) {
      const own = shaped.filter((s) => s.key === key);
      const first = own.find((s) => s.config) ?? (own[0] as Shaped);
      const followers = parent.actions.filter((a) => !isShapeAction(a) && FOLLOWER_KINDS.has(a.kind) && (a.kind !== 'inspect' || a.hits.length > 0 || a.facts.length > 0) && shapeAt(a.seq)?.key === key);
      result.push({
        key: `${parent.key}#${key}`,
        name: approachName(first.model, first.config, frameworkById(first.action.framework ?? parent.framework)),
        kind: 'approach',
        framework: first.action.framework ?? parent.framework,
        parentKey: parent.key,
        actions: [...own.map((s) => s.action), ...followers].sort((a, b) => a.seq - b.seq),
      });
    }
  }
  return result;
}
