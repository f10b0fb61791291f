import { namesFramework, type Framework } from '../rules/compile.js';
import { activeRules } from '../rules/active.js';

/**
 * Recognising the names a deployment revolves around: container image references, model ids,
 * serving frameworks, service URLs. Pure string work shared by the rules, the outcome reader and
 * the tree builder.
 */

export type { Framework };

/** Serving frameworks the rule files describe, in precedence order; anything else is still tracked, just unlabelled. */
export function frameworks(): readonly Framework[] {
  return activeRules().frameworks;
}

export function frameworkIn(text: string): Framework | null {
  return frameworks().find((f) => namesFramework(f, text)) ?? null;
}

export function frameworkById(id: string | null | undefined): Framework | null {
  return frameworks().find((f) => f.id === id) ?? null;
}

/** The framework a Python package belongs to (`tensorrt_llm==0.17.0` → TensorRT-LLM). */
/** A wheel built per backend carries it as a suffix (`mlc-llm-nightly-rocm62`, `…-cu122`, `…-cpu`): the same package for that backend. */
const BACKEND_SUFFIX = /-(?:cpu|cu\d{2,3}|rocm\d{1,3}|metal|vulkan)$/;

/** A package or program name compared loosely: case, `_` and `-` aside (`fastllm_serve` is `fastllm-serve`). */
export function looseName(name: string): string {
  return name.toLowerCase().replace(/_/g, '-');
}

export function frameworkOfPackage(spec: string): Framework | null {
  const name = looseName(packageName(spec));
  const known = (n: string): Framework | null => frameworks().find((f) => f.packages.some((p) => looseName(p) === n)) ?? null;
  return known(name) ?? (BACKEND_SUFFIX.test(name) ? known(name.replace(BACKEND_SUFFIX, '')) : null);
}

export function packageName(spec: string): string {
  const match = /^([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(spec.replace(/^git\+\S*\/([^/@#]+?)(?:\.git)?(?:[@#].*)?$/, '$1'));
  return match ? (match[1] as string) : spec;
}

const IMAGE_REF =
  /^(?:(?<registry>[a-z0-9][a-z0-9.-]*\.[a-z]{2,}(?::\d+)?|localhost(?::\d+)?)\/)?(?<path>[a-z0-9]+(?:[._-]+[a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-]+[a-z0-9]+)*)*)(?::(?<tag>[\w][\w.-]{0,127}))?(?:@(?<digest>sha256:[a-f0-9]{64}))?$/;

export interface ImageRef {
  registry: string | null;
  /** Repository path without the registry (`lmsysorg/sglang`, `nvidia/vllm`). */
  path: string;
  tag: string | null;
  digest: string | null;
}

export function parseImageRef(text: string): ImageRef | null {
  const match = IMAGE_REF.exec(text);
  if (!match?.groups) return null;
  return {
    registry: match.groups['registry'] ?? null,
    path: match.groups['path'] as string,
    tag: match.groups['tag'] ?? null,
    digest: match.groups['digest'] ?? null,
  };
}

/** The repository as users name it: Docker Hub's implied `docker.io/` and `library/` removed. */
export function imageRepository(ref: ImageRef): string {
  const registry = ref.registry && !/^(?:docker\.io|index\.docker\.io|registry-1\.docker\.io)$/.test(ref.registry) ? `${ref.registry}/` : '';
  const path = registry === '' ? ref.path.replace(/^library\//, '') : ref.path;
  return `${registry}${path}`;
}

/** A stable key: repository plus tag, `latest` when none is given (what docker pulls). */
export function imageKey(text: string): string {
  const ref = parseImageRef(text);
  if (!ref) return text;
  return `${imageRepository(ref)}:${ref.tag ?? 'latest'}`;
}

/** The name to show: as written, minus the implied registry and a `:latest` nobody typed. */
export function imageDisplayName(text: string): string {
  const ref = parseImageRef(text);
  if (!ref) return text;
  return ref.tag && ref.tag !== 'latest' ? `${imageRepository(ref)}:${ref.tag}` : imageRepository(ref);
}

/** Model ids (`Qwen/Qwen3.5-122B-A10B-FP8`, `openai/gpt-oss-120b`): an org/name whose name reads like weights. */
export function looksLikeModelId(text: string): boolean {
  if (!/^[\w.-]+\/[\w.-]+$/.test(text)) return false;
  const name = text.split('/')[1] as string;
  return /(?:^|[-_.])(?:A?\d+(?:\.\d+)?[BbMm]|\d+x\d+[Bb])(?:$|[-_.])|(?:^|[-_])(?:FP8|FP4|NVFP4|INT4|INT8|AWQ|GPTQ|GGUF|MLX|Instruct|Chat|Base|it)(?:$|[-_.\d])/i.test(name);
}

export interface Endpoint {
  host: string | null;
  port: number | null;
  path: string;
}

/** `localhost:8000/health`, `http://10.1.2.3:30000/v1/models` → host, port, path. */
export function parseEndpoint(text: string): Endpoint | null {
  const match = /^(?:(https?):\/\/)?(\[[^\]]+\]|[A-Za-z0-9.-]+)(?::(\d+))?(\/[^\s?#]*)?/.exec(text);
  if (!match) return null;
  const scheme = match[1];
  const host = match[2] as string;
  if (!scheme && !match[3] && !/^(?:localhost|\d+\.\d+\.\d+\.\d+)$/.test(host)) return null;
  return { host, port: match[3] ? Number(match[3]) : scheme === 'https' ? 443 : scheme === 'http' ? 80 : null, path: match[4] ?? '/' };
}

export function isLocalHost(host: string | null): boolean {
  return host === null || /^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\]|::1)$/.test(host);
}
