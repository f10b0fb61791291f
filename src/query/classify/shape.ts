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

/**
 * Options that say where a server listens, what it is called, where it logs or which node it is:
 * they change between launches without changing how the model is served, so they never tell two
 * approaches apart.
 */
const PLACE_OPTIONS = new Set([
  '--host', '--hostname', '--ip', '--bind', '--listen', '--name', '--api-key', '--hf-token', '--token', '--download-dir', '--log-level',
  '--uvicorn-log-level', '--log-file', '--seed', '--disable-log-requests', '--disable-log-stats', '--chat-template', '--tokenizer',
  '--served-model-name', '--model-name', '--port', '-p', '--trust-remote-code', '-j', '--parallel', '--config', '--verbose', '-v',
  // Which node of a multi-node launch this is, and where the others are: every node of one layout differs in them.
  '--node-rank', '--node_rank', '--rank', '--dist-init-addr', '--master-addr', '--master_addr', '--master-port', '--master_port',
  '--nccl-init-addr', '--dist-url', '--address', '--headless', '--data-parallel-address', '--data-parallel-rpc-port', '--data-parallel-start-rank',
]);

/**
 * Options that name a folder, a file or a place (`--output_dir`, `--checkpoint-path`, `--log-file`,
 * `--served-name`): where, not how. Judged by the flag's last word, so `--kv-cache-dtype`,
 * `--cache-type-k`, `--max_output_len` and `--profile` still tell approaches apart.
 */
const PLACE_WORDS = new Set(['file', 'files', 'filename', 'output', 'out', 'log', 'logs', 'logfile', 'name', 'port', 'host', 'hostname', 'addr', 'address']);
function namesAPlace(flag: string): boolean {
  const last = flag.replace(/^-+/, '').split(/[-_]/).at(-1)?.toLowerCase() ?? '';
  return last.endsWith('dir') || last.endsWith('path') || PLACE_WORDS.has(last);
}

/**
 * A launch's other options (beyond its model, port and shape), as a reader spells them:
 * `--max-model-len 16384`, `--enforce-eager`, `-DCMAKE_CUDA_ARCHITECTURES=87`. When one of these
 * changes between two launches of one candidate (the fix after a failure), the launches are two
 * approaches named by it. `--flag=value` is written `--flag value`.
 */
export function launchOptions(args: readonly string[], framework: Framework | null): string | null {
  const own = new Set([...(framework?.modelOptions ?? []), ...(framework?.portOptions ?? []), ...(framework?.servedNameOptions ?? [])]);
  const shapes = new Set((framework ? framework.shapeOptions : unionShapes()).flatMap(([, names]) => names));
  const parts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!/^--?[A-Za-z]/.test(arg)) continue;
    // `-DNAME=VALUE` (a build define) is one word.
    if (/^-D[A-Z]/.test(arg)) {
      if (!/=[~/]/.test(arg)) parts.push(arg);
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const next = args[i + 1];
    const hasValue = eq > 0 || (next !== undefined && !next.startsWith('-'));
    const value = eq > 0 ? arg.slice(eq + 1) : hasValue ? (next as string) : null;
    if (eq <= 0 && hasValue) i += 1;
    // An option the rules say defines the deployment counts even when it names a place (the weights it loads: `--gguf_path DIR`).
    const defining = framework?.definingOptions.includes(flag) ?? false;
    if (own.has(flag) || shapes.has(flag) || (!defining && (PLACE_OPTIONS.has(flag) || namesAPlace(flag)))) continue;
    // A value that is a path says where, not how.
    if (value !== null && /^[~/.]/.test(value) && !defining) continue;
    parts.push(value === null ? flag : `${flag} ${value}`);
  }
  return parts.length > 0 ? parts.join(' ') : null;
}
