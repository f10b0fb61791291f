import type { ActionKind } from './kinds.js';

/**
 * Output signatures: the lines of a tool's output that decide what happened. Each is a rule of its
 * own (name, what it means, which action kinds it decides, how to label it in one line) and is
 * tested on its own. `negative` = a probe's answer is no; `failure` = the step broke; `success` and
 * `ready` = the step did what it was for; `positive` = a probe's answer is yes.
 */
export type SignatureEffect = 'negative' | 'failure' | 'success' | 'ready' | 'positive' | 'timeout';

export interface Signature {
  name: string;
  effect: SignatureEffect;
  /** Action kinds this signature decides; for other kinds it is kept as evidence only. */
  decides: readonly ActionKind[];
  pattern: RegExp;
  /**
   * A cheap test of the whole output (literals, found by a fast scan) without which the pattern
   * cannot match any line: only the signatures whose hint an output carries are run line by line.
   */
  hint: RegExp;
  label: (match: RegExpExecArray) => string;
}

export interface SignatureHit {
  name: string;
  effect: SignatureEffect;
  label: string;
  line: string;
  decisive: boolean;
}

const RUNTIME: readonly ActionKind[] = ['probe', 'serve', 'start', 'cluster'];
const clip = (text: string, max = 120): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text).trim();

export const SIGNATURES: readonly Signature[] = [
  { name: 'timeout-notice', effect: 'timeout', decides: ['pull', 'download', 'probe', 'serve', 'install', 'health', 'cluster', 'build'],
    pattern: /terminated command after exceeding timeout (\d+) ?ms|Command timed out after ([\dm. s]+)|command timed out after (\d+) milliseconds/i,
    hint: /timeout|timed out/i,
    label: (m) => `timed out${m[1] ? ` after ${Number(m[1]) / 1000} s` : m[3] ? ` after ${Number(m[3]) / 1000} s` : ''}` },
  { name: 'module-missing', effect: 'negative', decides: [...RUNTIME, 'install'],
    pattern: /No module named '?([\w.]+)'?/, hint: /No module named/,
    label: (m) => `import fails: ${m[1] as string}` },
  { name: 'cannot-import', effect: 'negative', decides: RUNTIME,
    pattern: /cannot import name '?([\w.]+)'?/, hint: /cannot import name/,
    label: (m) => `cannot import ${m[1] as string}` },
  { name: 'import-error', effect: 'negative', decides: RUNTIME,
    pattern: /\b(?:ImportError|ModuleNotFoundError): (.+)/, hint: /ImportError|ModuleNotFoundError/,
    label: (m) => clip(`ImportError: ${m[1] as string}`) },
  { name: 'marker-not-found', effect: 'negative', decides: ['probe'],
    pattern: /^\s*([^:\n]{1,60}?):\s*NOT FOUND\b/, hint: /NOT FOUND/,
    label: (m) => `${(m[1] as string).trim()} not found` },
  { name: 'not-registered', effect: 'negative', decides: ['probe'],
    pattern: /(\w+) registered:\s*False\b/, hint: /registered:/,
    label: (m) => `${m[1] as string} not in the model registry` },
  { name: 'not-supported', effect: 'negative', decides: RUNTIME,
    pattern: /(?:are|is) not supported|not supported (?:for|by|on|yet)|unsupported (?:model|architecture)/i, hint: /support/i,
    label: (m) => clip(m.input.trim()) },
  { name: 'arch-incompatible', effect: 'negative', decides: RUNTIME,
    pattern: /(sm_\d+a?) is not compatible with the current PyTorch installation/, hint: /is not compatible/,
    label: (m) => `PyTorch has no ${m[1] as string} kernels` },
  { name: 'package-missing', effect: 'negative', decides: ['probe', 'install'],
    pattern: /Package\(s\) not found: (.+)/, hint: /not found: /,
    label: (m) => `not installed: ${(m[1] as string).trim()}` },
  { name: 'manifest-missing', effect: 'failure', decides: ['pull', 'probe', 'serve', 'start', 'cluster'],
    pattern: /no matching manifest for (\S+)|manifest unknown|manifest for (\S+) not found/i,
    hint: /manifest/i,
    label: (m) => (m[1] ? `no matching manifest for ${m[1]}` : m[2] ? `manifest for ${m[2]} not found` : 'manifest unknown') },
  { name: 'pull-denied', effect: 'failure', decides: ['pull', 'probe', 'serve', 'start'],
    pattern: /pull access denied|repository does not exist|requested access to the resource is denied/i, hint: /denied|does not exist/i,
    label: (m) => clip(m[0]) },
  { name: 'no-kernel-image', effect: 'failure', decides: RUNTIME,
    pattern: /no kernel image is available for execution on the device/, hint: /no kernel image/,
    label: () => 'no kernel image is available for execution on the device' },
  { name: 'cuda-oom', effect: 'failure', decides: RUNTIME,
    pattern: /(?:torch\.)?OutOfMemoryError|CUDA out of memory|CUDA error: out of memory/, hint: /OutOfMemory|out of memory/,
    label: (m) => (/OutOfMemoryError/.test(m[0]) ? 'torch.OutOfMemoryError: CUDA out of memory' : 'CUDA out of memory') },
  { name: 'cuda-error', effect: 'failure', decides: RUNTIME,
    pattern: /CUDA error: (?!no kernel image|out of memory)(.+)/, hint: /CUDA error/,
    label: (m) => clip(`CUDA error: ${m[1] as string}`) },
  { name: 'resolver-conflict', effect: 'failure', decides: ['install'],
    pattern: /ResolutionImpossible|conflicting dependencies|^\s*(\S+ [\w.]+ depends on \S+)/, hint: /Resolution|conflicting|depends on/,
    label: (m) => (m[1] ? m[1] : /Resolution/.test(m[0]) ? 'pip ResolutionImpossible' : 'conflicting dependencies') },
  { name: 'externally-managed', effect: 'failure', decides: ['install'],
    pattern: /externally-managed-environment/, hint: /externally-managed/,
    label: () => 'externally managed Python (PEP 668)' },
  { name: 'engine-failed', effect: 'failure', decides: ['serve', 'start', 'cluster'],
    pattern: /EngineCore failed to start|Engine core initialization failed|Scheduler hit an exception|Server exited unexpectedly/, hint: /Engine|Scheduler|exited unexpectedly/,
    label: (m) => clip(m[0]) },
  { name: 'command-missing', effect: 'failure', decides: ['download', 'serve', 'cluster', 'install', 'build'],
    pattern: /^(?:bash: (?:line \d+: )?)?([\w.-]+): (?:command )?not found\s*$/, hint: /not found/,
    label: (m) => `${m[1] as string}: command not found` },
  { name: 'connection-refused', effect: 'failure', decides: ['health'],
    pattern: /Connection refused|Failed to connect to|Couldn't connect to server/, hint: /Connection refused|Failed to connect|connect to server/,
    label: () => 'connection refused' },
  { name: 'image-pulled', effect: 'success', decides: ['pull'],
    pattern: /Downloaded newer image for (\S+)|Image is up to date for (\S+)/, hint: /Downloaded newer image|Image is up to date/,
    label: (m) => clip(m[0]) },
  { name: 'installed', effect: 'success', decides: ['install'],
    pattern: /Successfully installed (.+)/, hint: /Successfully installed/,
    label: (m) => clip(`installed ${m[1] as string}`) },
  { name: 'download-complete', effect: 'success', decides: ['download'],
    pattern: /Fetching \d+ files: 100%|Download complete|downloaded successfully/i, hint: /100%|complete|successfully/i,
    label: (m) => clip(m[0]) },
  { name: 'server-ready', effect: 'ready', decides: ['serve', 'start'],
    pattern: /Application startup complete|Uvicorn running on|The server is fired up and ready to roll|server is listening on/i, hint: /startup complete|Uvicorn running|ready to roll|listening on/i,
    label: () => 'server ready' },
  { name: 'marker-supported', effect: 'positive', decides: ['probe'],
    pattern: /^\s*([^:\n]{1,60}?):\s*SUPPORTED\b/, hint: /SUPPORTED/,
    label: (m) => `${(m[1] as string).trim()} supported` },
  { name: 'registered', effect: 'positive', decides: ['probe'],
    pattern: /(\w+) registered:\s*True\b/, hint: /registered:/,
    label: (m) => `${m[1] as string} registered` },
];

const MAX_SCANNED_LINES = 5000;

/** Global copies of the hints, to find the lines that carry them. */
const GLOBAL_HINTS = new Map(SIGNATURES.map((signature) => [signature, new RegExp(signature.hint.source, `${signature.hint.flags}g`)]));

/** For each line (index) that carries a hint, the signatures (in table order) worth trying on it. */
function candidateLines(output: string, lineStarts: readonly number[]): Map<number, Signature[]> {
  const byLine = new Map<number, Signature[]>();
  for (const signature of SIGNATURES) {
    if (!signature.hint.test(output)) continue;
    const hint = GLOBAL_HINTS.get(signature) as RegExp;
    hint.lastIndex = 0;
    let lastLine = -1;
    for (let match = hint.exec(output); match; match = hint.exec(output)) {
      const line = lineOf(lineStarts, match.index);
      if (line !== lastLine) {
        const list = byLine.get(line) ?? [];
        list.push(signature);
        byLine.set(line, list);
        lastLine = line;
      }
      if (match[0].length === 0) hint.lastIndex += 1;
    }
  }
  return byLine;
}

function lineOf(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lineStarts[mid] as number) <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * Every signature found in an output, at most once per name and label. Only lines that carry a
 * signature's hint are tried against it, and only the first and last lines of a very long output.
 */
export function scanSignatures(output: string | null, kind: ActionKind): SignatureHit[] {
  if (!output) return [];
  const lineStarts = [0];
  for (let at = output.indexOf('\n'); at !== -1; at = output.indexOf('\n', at + 1)) lineStarts.push(at + 1);
  const byLine = candidateLines(output, lineStarts);
  const hits: SignatureHit[] = [];
  if (byLine.size === 0) return hits;
  const total = lineStarts.length;
  const seen = new Set<string>();
  for (const index of [...byLine.keys()].sort((a, b) => a - b)) {
    if (total > MAX_SCANNED_LINES && index >= MAX_SCANNED_LINES / 2 && index < total - MAX_SCANNED_LINES / 2) continue;
    const start = lineStarts[index] as number;
    const end = index + 1 < total ? (lineStarts[index + 1] as number) - 1 : output.length;
    const line = output.slice(start, end);
    // Table order matters: the first (most specific) signature that matches a line gives its meaning.
    const order = (byLine.get(index) as Signature[]).sort((a, b) => SIGNATURES.indexOf(a) - SIGNATURES.indexOf(b));
    for (const signature of order) {
      const match = signature.pattern.exec(line);
      if (!match) continue;
      const label = signature.label(match);
      const key = `${signature.name}\u0000${label}`;
      if (!seen.has(key)) {
        seen.add(key);
        hits.push({ name: signature.name, effect: signature.effect, label, line: line.trim(), decisive: signature.decides.includes(kind) });
      }
      break;
    }
  }
  return hits;
}
