import type { Prng } from '../../lib/prng.js';
import type { Fleet, ImageSpec, ModelSpec } from '../story/catalog.js';

/** What `docker` prints in the generated sessions: pulls, ps, probes, logs. */

function layerIds(prng: Prng, count: number): string[] {
  return Array.from({ length: count }, () => prng.hex(12));
}

function size(prng: Prng): string {
  const mb = prng.skewed(180, 1.2);
  return mb > 1000 ? `${(mb / 1000).toFixed(2)}GB` : `${mb.toFixed(1)}MB`;
}

/** The full output of a pull without a TTY: one line per layer and state, then digest and status. */
export function pullOutput(prng: Prng, image: ImageSpec, options: { upToDate?: boolean; cutAfterLayers?: number } = {}): string {
  const [name, tag = 'latest'] = image.ref.split(/:(?=[^/]+$)/);
  if (options.upToDate) {
    return `${tag}: Pulling from ${name}\nDigest: sha256:${prng.hex(64)}\nStatus: Image is up to date for ${image.ref}\n${image.ref}\n`;
  }
  const layers = layerIds(prng, prng.int(14, 42));
  const lines = [`${tag}: Pulling from ${name}`];
  for (const id of layers) lines.push(`${id}: Pulling fs layer`);
  const done = options.cutAfterLayers ?? layers.length;
  for (const [index, id] of layers.entries()) {
    if (index >= done) break;
    const total = size(prng);
    for (let step = 0; step < prng.int(1, 4); step += 1) lines.push(`${id}: Downloading  ${size(prng)}/${total}`);
    lines.push(`${id}: Verifying Checksum`, `${id}: Download complete`);
  }
  if (options.cutAfterLayers !== undefined) return `${lines.join('\n')}\n`;
  for (const id of layers) lines.push(`${id}: Extracting  ${size(prng)}/${size(prng)}`, `${id}: Pull complete`);
  lines.push(`Digest: sha256:${prng.hex(64)}`, `Status: Downloaded newer image for ${image.ref}`, image.ref);
  return `${lines.join('\n')}\n`;
}

export function noManifestOutput(image: ImageSpec, fleet: Fleet): string {
  const platform = fleet.arch === 'aarch64' ? 'linux/arm64/v8' : 'linux/amd64';
  const [name, tag = 'latest'] = image.ref.split(/:(?=[^/]+$)/);
  return `${tag}: Pulling from ${name}\nError response from daemon: no matching manifest for ${platform} in the manifest list entries\n`;
}

export function psOutput(prng: Prng, running: readonly { name: string; image: string }[]): string {
  const rows = running.map((c) => `${c.name.padEnd(18)}${c.image.padEnd(44)}Up ${prng.int(2, 40)} ${prng.pick(['hours', 'days', 'minutes'])}`);
  return `${'NAMES'.padEnd(18)}${'IMAGE'.padEnd(44)}STATUS\n${rows.join('\n')}\n`;
}

const NVIDIA_LICENSE = [
  'Copyright (c) 2026, NVIDIA CORPORATION & AFFILIATES.  All rights reserved.',
  '',
  'Various files include modifications (c) NVIDIA CORPORATION & AFFILIATES.  All rights reserved.',
  '',
  'This container image and its contents are governed by the NVIDIA Deep Learning Container License.',
  'By pulling and using the container, you accept the terms and conditions of this license:',
  'https://developer.nvidia.com/ngc/nvidia-deep-learning-container-license',
  '',
  'NOTE: The SHMEM allocation limit is set to the default of 64MB.  This may be',
  '   insufficient for PyTorch.  NVIDIA recommends the use of the following flags:',
  '   docker run --gpus all --ipc=host --ulimit memlock=-1 --ulimit stack=67108864 ...',
].join('\n');

function banner(prng: Prng, image: ImageSpec): string {
  if (!image.ngcBanner) return '';
  const title = image.framework === 'vllm' ? 'vLLM' : image.framework === 'tensorrt_llm' ? 'TensorRT-LLM' : 'PyTorch';
  return `\n=============\n== ${title} ==\n=============\n\nNVIDIA Release ${image.ngcBanner} (build ${prng.int(100_000_000, 299_999_999)})\nPyTorch Version ${image.torch.split('+')[0]}\nContainer image ${NVIDIA_LICENSE}\n\n`;
}

/** The probe command run inside an image: framework, torch, transformers, and the model's architecture. */
export function probeCommand(image: ImageSpec, model: ModelSpec): string {
  const module = image.framework;
  const archModule = model.architecture.replace(/For.*$/, '').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  return [
    `docker run --rm ${image.ref} python3 -c "`,
    `import ${module}; print(\\"${module}:\\", ${module}.__version__)`,
    `import torch; print(\\"PyTorch:\\", torch.__version__, \\"CUDA:\\", torch.version.cuda)`,
    `import transformers; print(\\"transformers:\\", transformers.__version__)`,
    `from transformers import AutoConfig`,
    `try:`,
    `    import ${module === 'vllm' ? 'vllm.model_executor.models' : 'sglang.srt.models'}.${archModule}; print(\\"${model.architecture}: OK\\")`,
    `except Exception as e: print(\\"${model.architecture}:\\", type(e).__name__, e)`,
    `"`,
  ].join('\n');
}

export function probeOutput(prng: Prng, image: ImageSpec, model: ModelSpec, supported: boolean): string {
  const archModule = model.architecture.replace(/For.*$/, '').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  const parent = image.framework === 'vllm' ? 'vllm.model_executor.models' : 'sglang.srt.models';
  const lines = [
    `${image.framework}: ${image.version}`,
    `PyTorch: ${image.torch} CUDA: ${image.cuda}`,
    `transformers: ${image.transformers}`,
  ];
  if (image.framework === 'vllm') lines.unshift(`INFO ${prng.int(1, 12).toString().padStart(2, '0')}-${prng.int(1, 28).toString().padStart(2, '0')} 0${prng.int(0, 9)}:${prng.int(10, 59)}:${prng.int(10, 59)} [__init__.py:${prng.int(200, 260)}] Automatically detected platform cuda.`);
  lines.push(supported ? `${model.architecture}: OK` : `${model.architecture}: ModuleNotFoundError No module named '${parent}.${archModule}'`);
  if (!supported && prng.chance(0.5)) {
    lines.push(
      `/usr/local/lib/python3.12/dist-packages/transformers/models/auto/configuration_auto.py:${prng.int(1100, 1300)}: UserWarning: The checkpoint you are trying to load has model type \`${archModule}\` but Transformers does not recognize this architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is out of date.`,
    );
  }
  return `${banner(prng, image)}${lines.join('\n')}\n`;
}

/** `docker logs --tail N` of a running server: access log lines and periodic engine metrics. */
export function servingLogTail(prng: Prng, lines: number, startMs: number): string {
  const out: string[] = [];
  let at = startMs;
  for (let i = 0; i < lines; i += 1) {
    at += prng.int(50, 4000);
    const stamp = new Date(at).toISOString().slice(5, 19).replace('T', ' ');
    if (i % 9 === 0) {
      out.push(
        `INFO ${stamp} [loggers.py:${prng.int(120, 130)}] Engine 000: Avg prompt throughput: ${prng.skewed(900, 0.8).toFixed(1)} tokens/s, Avg generation throughput: ${prng.skewed(48, 0.4).toFixed(1)} tokens/s, Running: ${prng.int(0, 12)} reqs, Waiting: ${prng.int(0, 3)} reqs, GPU KV cache usage: ${prng.skewed(12, 0.7).toFixed(1)}%, Prefix cache hit rate: ${prng.skewed(40, 0.5).toFixed(1)}%`,
      );
    } else {
      const route = prng.pick(['POST /v1/chat/completions', 'POST /v1/completions', 'GET /health', 'GET /v1/models', 'GET /metrics']);
      out.push(`INFO:     ${prng.pick(['127.0.0.1', '10.1.230.12', '10.1.230.57', '10.20.0.41'])}:${prng.int(30000, 65000)} - "${route} HTTP/1.1" 200 OK`);
    }
  }
  return `${out.join('\n')}\n`;
}
