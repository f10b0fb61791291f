import type { Prng } from '../../lib/prng.js';
import type { ImageSpec, ModelSpec } from '../story/catalog.js';

/** Web searches and fetched pages (MCP tools in opencode, WebSearch/WebFetch in Claude Code). */

const SITES = ['forums.developer.nvidia.com', 'github.com', 'hub.docker.com', 'docs.vllm.ai', 'huggingface.co', 'catalog.ngc.nvidia.com', 'docs.sglang.ai'];

const SENTENCES = [
  'Pre-built images for DGX Spark (GB10, sm_121, arm64) are published alongside the official tags.',
  'Multi-node: pass --nnodes 2 --node-rank N --dist-init-addr <head>:20000 and set NCCL_SOCKET_IFNAME to the CX7 interface.',
  'The 0.14/0.15 Spark images will refuse the config: the architecture landed on main after the release.',
  'Ray across both Sparks with the usual NCCL_SOCKET_IFNAME / NCCL_IB_HCA settings, then vllm serve with -tp 2 --distributed-executor-backend ray.',
  'Load takes about ten minutes, most of it weights and torch.compile; CUDA graph capture adds another thirty seconds.',
  'If you see "no kernel image is available for execution on the device", the PyTorch build lacks sm_121 kernels: use an image built for Blackwell.',
  'Set RAY_memory_monitor_refresh_ms=0 on unified-memory machines or Ray kills the workers during load.',
  'transformers 5.x is required for the new config class; 4.57 reads the checkpoint but cannot build the model.',
  'Throughput with tp=2 over RoCE is close to single-node for decode; prefill is bound by the link for long prompts.',
  'The --gpu-memory-utilization default of 0.9 leaves nothing for the OS on a 128 GB unified-memory box; 0.7 is safer.',
];

function paragraph(prng: Prng, sentences: number): string {
  return Array.from({ length: sentences }, () => prng.pick(SENTENCES)).join(' ');
}

export function searchQuery(prng: Prng, model: ModelSpec, image: ImageSpec | null): string {
  const name = model.repo.split('/')[1] ?? model.repo;
  return prng.pick([
    `${name} DGX Spark GB10 docker image ${image?.framework ?? 'vllm'} 2026`,
    `${image?.ref ?? 'vllm'} ${name} support sm_121`,
    `${name} multi-node tensor parallel ray RoCE NCCL_IB_HCA`,
    `"${model.architecture}" not supported vllm`,
  ]);
}

export function searchResults(prng: Prng, query: string, count: number): string {
  const results: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const site = prng.pick(SITES);
    results.push(
      [
        `Title: ${query.split(' ').slice(0, 4).join(' ')} - ${prng.pick(['Discussion', 'Docker Image', 'Issue', 'Release notes', 'Guide'])} | ${site}`,
        `URL: https://${site}/${prng.pick(['t', 'r', 'issues', 'docs'])}/${prng.base62(10).toLowerCase()}/${prng.int(1000, 400000)}`,
        `Published: 2026-0${prng.int(1, 2)}-${String(prng.int(1, 28)).padStart(2, '0')}T00:00:00.000Z`,
        `Author: ${prng.pick(['N/A', 'gb10_tinkerer', 'hellohal2064', 'sparkuser42', 'eugr'])}`,
        `Text: ${paragraph(prng, prng.int(2, 6))}`,
      ].join('\n'),
    );
  }
  return results.join('\n\n');
}

export function fetchedPage(prng: Prng, url: string, posts: number): string {
  const lines = [`# ${url.split('/').slice(2, 4).join(' / ')}`, `URL: ${url}`, `Published: 2026-02-${String(prng.int(1, 28)).padStart(2, '0')}`, ''];
  for (let i = 0; i < posts; i += 1) {
    lines.push(`${prng.pick(['gb10_tinkerer', 'hellohal2064', 'sparkuser42', 'eugr', 'nv-moderator', 'mlops_kat'])} — Feb ${prng.int(1, 28)}`, paragraph(prng, prng.int(2, 7)), '');
  }
  return lines.join('\n');
}
