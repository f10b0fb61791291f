/**
 * Version facts read from output: `SGLang: 0.5.4`, `Transformers: 4.57.6`, `vLLM API server
 * version 0.17.0rc1.dev58`, the NGC banner's `PyTorch Version 2.11.0a0+eb65b36`, `CUDA Version 13.0.1`.
 * The components are a table; each entry is matched on every line.
 */
export interface VersionFact {
  component: string;
  label: string;
  version: string;
  line: string;
}

interface Component {
  component: string;
  label: string;
  pattern: RegExp;
}

const VERSION = String.raw`v?(\d+\.\d+(?:[\w.+-]*\w)?)`;
/** `name: 1.2`, `name==1.2`, `name 1.2`, `name version 1.2` — but not an image tag (`vllm:25.11`). */
const SEPARATOR = String.raw`(?::\s+|==?\s*|\s+)`;
const START = String.raw`(?<![/\w.:-])`;

export const COMPONENTS: readonly Component[] = [
  { component: 'sglang', label: 'SGLang', pattern: new RegExp(String.raw`${START}SGLang(?: version)?${SEPARATOR}${VERSION}`, 'i') },
  { component: 'vllm', label: 'vLLM', pattern: new RegExp(String.raw`${START}vLLM(?: API server)?(?: version)?${SEPARATOR}${VERSION}`, 'i') },
  { component: 'tensorrt_llm', label: 'TensorRT-LLM', pattern: new RegExp(String.raw`${START}(?:TensorRT-LLM|tensorrt_llm)(?: version)?${SEPARATOR}${VERSION}`, 'i') },
  { component: 'transformers', label: 'transformers', pattern: new RegExp(String.raw`${START}transformers(?: version)?${SEPARATOR}${VERSION}`, 'i') },
  { component: 'pytorch', label: 'PyTorch', pattern: new RegExp(String.raw`${START}(?:PyTorch|torch)(?: version)?${SEPARATOR}${VERSION}`, 'i') },
  { component: 'cuda', label: 'CUDA', pattern: new RegExp(String.raw`${START}CUDA(?: Version)?${SEPARATOR}${VERSION}`, 'i') },
  { component: 'triton', label: 'Triton', pattern: new RegExp(String.raw`${START}Triton(?: version)?:\s*${VERSION}`, 'i') },
  { component: 'flashinfer', label: 'FlashInfer', pattern: new RegExp(String.raw`${START}flashinfer(?: version)?${SEPARATOR}${VERSION}`, 'i') },
  { component: 'driver', label: 'driver', pattern: /Driver Version:\s*(\d+\.\d+(?:\.\d+)?)/ },
];

/** The first version of each component in the output. */
export function extractFacts(output: string | null): VersionFact[] {
  if (!output) return [];
  const facts = new Map<string, VersionFact>();
  for (const line of output.split('\n').slice(0, 4000)) {
    for (const { component, label, pattern } of COMPONENTS) {
      if (facts.has(component)) continue;
      const match = pattern.exec(line);
      if (match) facts.set(component, { component, label, version: match[1] as string, line: line.trim() });
    }
  }
  return [...facts.values()];
}

/** `SGLang 0.5.4, transformers 4.57.1`: the facts that matter for a verdict, in a fixed order. */
export function describeFacts(facts: readonly VersionFact[], components: readonly string[]): string {
  return components
    .map((component) => facts.find((fact) => fact.component === component))
    .filter((fact): fact is VersionFact => fact !== undefined)
    .map((fact) => `${fact.label} ${fact.version}`)
    .join(', ');
}
