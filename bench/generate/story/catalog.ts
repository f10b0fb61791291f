/**
 * What the generated sessions deploy, where, and with which serving images. Addresses are data
 * only (transcripts name real-looking machines); the bench never connects to any of them.
 */

export interface FleetHost {
  name: string;
  address: string;
  /** Address on the RDMA link between the nodes. */
  linkAddress: string;
}

export interface Fleet {
  user: string;
  cwd: string;
  arch: 'aarch64' | 'x86_64';
  gpu: { name: string; memoryMiB: number; count: number; driver: string; computeCap: string };
  iface: string;
  hca: string;
  hosts: FleetHost[];
}

export const FLEETS: readonly Fleet[] = [
  {
    user: 'aurora',
    cwd: '/home/aurora/spark-ops',
    arch: 'aarch64',
    gpu: { name: 'NVIDIA GB10', memoryMiB: 122_572, count: 1, driver: '580.95.05', computeCap: '12.1' },
    iface: 'enp1s0f1np1',
    hca: 'rocep1s0f1',
    hosts: [
      { name: 'spark-1a32', address: '10.1.230.180', linkAddress: '192.168.200.1' },
      { name: 'spark-5be3', address: '10.1.230.181', linkAddress: '192.168.200.2' },
    ],
  },
  {
    user: 'ops',
    cwd: '/home/ops/gptoss',
    arch: 'aarch64',
    gpu: { name: 'NVIDIA GB10', memoryMiB: 122_572, count: 1, driver: '580.95.05', computeCap: '12.1' },
    iface: 'enP2p1s0f1np1',
    hca: 'roceP2p1s0f1',
    hosts: [
      { name: 'dgx-spark-07', address: '10.20.0.5', linkAddress: '192.168.100.7' },
      { name: 'dgx-spark-08', address: '10.20.0.6', linkAddress: '192.168.100.8' },
    ],
  },
  {
    user: 'ubuntu',
    cwd: '/home/dana/work/llama70b',
    arch: 'x86_64',
    gpu: { name: 'NVIDIA H100 80GB HBM3', memoryMiB: 81_559, count: 8, driver: '570.133.20', computeCap: '9.0' },
    iface: 'ens8np0',
    hca: 'mlx5_0',
    hosts: [
      { name: 'gpu-a', address: '172.16.4.11', linkAddress: '10.100.0.11' },
      { name: 'gpu-b', address: '172.16.4.12', linkAddress: '10.100.0.12' },
    ],
  },
];

export interface ModelSpec {
  repo: string;
  architecture: string;
  /** Checkpoint size on disk, GB. */
  sizeGb: number;
  shards: number;
  /** transformers major version the architecture first shipped in. */
  needsTransformers: string;
  maxModelLen: number;
  toolParser: string;
  reasoningParser: string | null;
}

export const MODELS: readonly ModelSpec[] = [
  { repo: 'Qwen/Qwen3.5-122B-A10B-FP8', architecture: 'Qwen3_5MoeForConditionalGeneration', sizeGb: 119, shards: 39, needsTransformers: '5.2.0', maxModelLen: 262_144, toolParser: 'qwen3_coder', reasoningParser: 'qwen3' },
  { repo: 'openai/gpt-oss-120b', architecture: 'GptOssForCausalLM', sizeGb: 65, shards: 15, needsTransformers: '4.55.0', maxModelLen: 131_072, toolParser: 'openai', reasoningParser: 'openai_gptoss' },
  { repo: 'meta-llama/Llama-3.3-70B-Instruct', architecture: 'LlamaForCausalLM', sizeGb: 141, shards: 30, needsTransformers: '4.43.0', maxModelLen: 131_072, toolParser: 'llama3_json', reasoningParser: null },
  { repo: 'Qwen/Qwen3-Coder-30B-A3B-Instruct', architecture: 'Qwen3MoeForCausalLM', sizeGb: 61, shards: 16, needsTransformers: '4.51.0', maxModelLen: 262_144, toolParser: 'qwen3_coder', reasoningParser: null },
  { repo: 'deepseek-ai/DeepSeek-R1-Distill-Qwen-32B', architecture: 'Qwen2ForCausalLM', sizeGb: 66, shards: 8, needsTransformers: '4.43.0', maxModelLen: 131_072, toolParser: 'hermes', reasoningParser: 'deepseek_r1' },
  { repo: 'zai-org/GLM-4.7-Flash-NVFP4', architecture: 'Glm4MoeForCausalLM', sizeGb: 58, shards: 12, needsTransformers: '4.57.0', maxModelLen: 131_072, toolParser: 'glm45', reasoningParser: 'glm45' },
  { repo: 'mistralai/Mistral-Small-3.2-24B-Instruct-2506', architecture: 'Mistral3ForConditionalGeneration', sizeGb: 48, shards: 10, needsTransformers: '4.50.0', maxModelLen: 131_072, toolParser: 'mistral', reasoningParser: null },
];

/** How an image turns out for a deployment: the probe or the step that decides it. */
export type ImageFate = 'works' | 'no-manifest' | 'too-old' | 'no-kernel' | 'import-fails';

export interface ImageSpec {
  ref: string;
  framework: 'vllm' | 'sglang' | 'tensorrt_llm';
  version: string;
  torch: string;
  cuda: string;
  transformers: string;
  arches: readonly ('aarch64' | 'x86_64')[];
  /** NGC-based images print the NVIDIA container banner first. */
  ngcBanner: string | null;
  sizeGb: number;
  /** Has kernels for compute capability 12.1 (GB10). */
  sm121: boolean;
}

export const IMAGES: readonly ImageSpec[] = [
  { ref: 'vllm/vllm-openai:v0.10.1', framework: 'vllm', version: '0.10.1', torch: '2.7.1+cu128', cuda: '12.8', transformers: '4.55.2', arches: ['x86_64'], ngcBanner: null, sizeGb: 12.4, sm121: false },
  { ref: 'nvcr.io/nvidia/vllm:25.09-py3', framework: 'vllm', version: '0.10.1.1+nv25.09', torch: '2.9.0a0+50eac811a6.nv25.09', cuda: '13.0', transformers: '4.56.1', arches: ['x86_64', 'aarch64'], ngcBanner: '25.09', sizeGb: 17.9, sm121: false },
  { ref: 'nvcr.io/nvidia/vllm:25.11-py3', framework: 'vllm', version: '0.11.0+nv25.11', torch: '2.10.0a0+b558c986e8.nv25.11', cuda: '13.0', transformers: '4.57.1', arches: ['x86_64', 'aarch64'], ngcBanner: '25.11', sizeGb: 18.3, sm121: true },
  { ref: 'vllm-spark:v0.14.0rc2.dev262', framework: 'vllm', version: '0.14.0rc2.dev262+g8c1f0a4e', torch: '2.10.0+cu130', cuda: '13.0', transformers: '4.57.3', arches: ['aarch64'], ngcBanner: null, sizeGb: 21.2, sm121: true },
  { ref: 'lmsysorg/sglang:spark', framework: 'sglang', version: '0.5.4', torch: '2.9.0+cu130', cuda: '13.0', transformers: '4.57.1', arches: ['aarch64'], ngcBanner: null, sizeGb: 15.8, sm121: true },
  { ref: 'lmsysorg/sglang:v0.5.8-cu129', framework: 'sglang', version: '0.5.8', torch: '2.9.1+cu129', cuda: '12.9', transformers: '4.57.6', arches: ['x86_64'], ngcBanner: null, sizeGb: 14.2, sm121: false },
  { ref: 'scitrera/dgx-spark-sglang:0.5.10rc0', framework: 'sglang', version: '0.0.0', torch: '2.11.0a0+eb65b36', cuda: '13.1', transformers: '4.57.6', arches: ['aarch64'], ngcBanner: '26.02', sizeGb: 14.6, sm121: true },
  { ref: 'hellohal2064/vllm-qwen3.5-gb10:latest', framework: 'vllm', version: '0.16.1.dev47+g3f2a9c1d', torch: '2.10.0+cu130', cuda: '13.0', transformers: '5.2.0', arches: ['aarch64'], ngcBanner: null, sizeGb: 22.7, sm121: true },
  { ref: 'nvcr.io/nvidia/tensorrt-llm/release:1.1.0rc5', framework: 'tensorrt_llm', version: '1.1.0rc5', torch: '2.8.0a0+5228986c39.nv25.06', cuda: '12.9', transformers: '4.53.1', arches: ['x86_64', 'aarch64'], ngcBanner: '25.06', sizeGb: 31.5, sm121: false },
  { ref: 'vllm/vllm-openai:v0.15.1', framework: 'vllm', version: '0.15.1', torch: '2.9.1+cu129', cuda: '12.9', transformers: '4.57.6', arches: ['x86_64'], ngcBanner: null, sizeGb: 13.1, sm121: false },
];

export const AGENT_MODELS = {
  opencode: { provider: 'anthropic', model: 'claude-opus-4-5' },
  claude: { provider: 'anthropic', model: 'claude-opus-4-5-20251101' },
  codex: { provider: 'openai', model: 'gpt-5.1-codex' },
} as const;

function majorMinor(version: string): number {
  const [major = '0', minor = '0'] = version.split('.');
  return Number(major) * 1000 + Number(minor);
}

/** How `image` fares for `model` on `fleet`, the way the real sessions went. */
export function fateOf(image: ImageSpec, model: ModelSpec, fleet: Fleet): ImageFate {
  if (!image.arches.includes(fleet.arch)) return 'no-manifest';
  if (majorMinor(image.transformers) < majorMinor(model.needsTransformers)) return image.version === '0.0.0' ? 'import-fails' : 'too-old';
  if (fleet.arch === 'aarch64' && !image.sm121) return 'no-kernel';
  return 'works';
}
