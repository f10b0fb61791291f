import { frameworks, type Framework } from './names.js';
import { optionValue } from './view.js';

/**
 * Serving shapes: the flags (and environment variables) that tell two launches of one candidate
 * apart, as the rule files name them (`options.shape`). Kept as typed (`--tensor-parallel-size 16`,
 * `--tp_size 2`, `OLLAMA_KV_CACHE_TYPE=q8_0`): that is how a reader names the approach.
 */
const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;

/** The serving shape flags given (`--tensor-parallel-size 2 --nnodes 2`), as typed, in the framework's order. */
export function serveShape(args: readonly string[], framework: Framework | null): string | null {
  const shapes = framework ? framework.shapeOptions : unionShapes();
  const parts: string[] = [];
  for (const [, names] of shapes) {
    const flags = names.filter((n) => !ENV_NAME.test(n));
    const value = optionValue(args, flags);
    if (value === null) continue;
    const typed = args.find((a) => flags.includes(a) || flags.some((f) => f.startsWith('--') && a.startsWith(`${f}=`)))?.split('=')[0] ?? (flags[0] as string);
    parts.push(`${typed} ${value}`);
  }
  return parts.length > 0 ? parts.join(' ') : null;
}

/** The shape variables set in an environment (`OLLAMA_KV_CACHE_TYPE=q8_0`), for frameworks that read them. */
export function envShape(env: Readonly<Record<string, string>>, framework: Framework | null): string | null {
  const shapes = framework ? framework.shapeOptions : unionShapes();
  const parts: string[] = [];
  for (const [, names] of shapes) for (const name of names) if (ENV_NAME.test(name) && env[name] !== undefined) parts.push(`${name}=${env[name] as string}`);
  return parts.length > 0 ? parts.join(' ') : null;
}

export function joinShapes(...parts: (string | null)[]): string | null {
  const kept = parts.filter((p): p is string => p !== null && p !== '');
  return kept.length > 0 ? kept.join(' ') : null;
}

export function unionShapes(): [string, string[]][] {
  const byLabel = new Map<string, Set<string>>();
  for (const framework of frameworks()) {
    for (const [label, names] of framework.shapeOptions) {
      const set = byLabel.get(label) ?? new Set<string>();
      for (const name of names) set.add(name);
      byLabel.set(label, set);
    }
  }
  return [...byLabel].map(([label, names]) => [label, [...names]]);
}

/** A shape with every option spelled by its label (`--tp_size 2` → `--tp 2`): two spellings of one layout compare equal. */
export function shapeKey(config: string | null, framework: Framework | null): string {
  if (!config) return '';
  const shapes = framework ? framework.shapeOptions : unionShapes();
  return config.split(' ').map((word) => shapes.find(([, names]) => names.includes(word))?.[0] ?? word).join(' ');
}
