import { noManifestOutput, probeCommand, probeOutput, psOutput, pullOutput } from '../outputs/docker.js';
import { externallyManaged, hfDownload, pipInstall } from '../outputs/download.js';
import { dfOutput, linkOutput, nvidiaSmi, pingOutput, rayStatus, systemctlUnits } from '../outputs/host.js';
import { chatCompletion, modelsJson, serveCommand, serveLog } from '../outputs/serve.js';
import { fetchedPage, searchQuery, searchResults } from '../outputs/web.js';
import { fateOf, type ImageFate, type ImageSpec, type ModelSpec } from './catalog.js';
import type { StepBuilder, TurnSource } from './steps.js';

/**
 * One deployment, the way the founding session went: survey the hosts, try candidate images one
 * after another (pull, probe, sometimes serve), reject those that cannot run the model with the
 * reason the probe showed, pivot to the next, and bring the last one up across both nodes.
 */
export interface Deployment {
  model: ModelSpec;
  /** Tried in order; every one but the last is rejected. */
  candidates: ImageSpec[];
}

const REASONS: Record<Exclude<ImageFate, 'works'>, (image: ImageSpec, model: ModelSpec) => string> = {
  'no-manifest': (image) => `${image.ref} has no manifest for this architecture, so it cannot run here at all — rejected.`,
  'too-old': (image, model) =>
    `${image.ref} ships ${image.framework} ${image.version} with transformers ${image.transformers}: too old, ${model.architecture} needs transformers >= ${model.needsTransformers}. Rejected.`,
  'import-fails': (image, model) =>
    `${image.ref} reports ${image.framework} 0.0.0 (an editable install) and transformers ${image.transformers}; the ${model.architecture} import fails, so this build cannot load the model either. Rejected.`,
  'no-kernel': (image) =>
    `${image.ref} starts but the engine dies with "no kernel image is available for execution on the device": its PyTorch has no sm_121 kernels. Rejected.`,
};

export function* deploymentTurns(b: StepBuilder, plan: Deployment, firstInSession: boolean): TurnSource {
  const { prng, fleet } = b;
  const { model } = plan;
  const [head, worker] = fleet.hosts;
  if (!head || !worker) throw new Error('a fleet needs two hosts');
  const first = plan.candidates[0];
  const name = model.repo.split('/')[1] ?? model.repo;
  yield b.prompt(
    `${firstInSession ? 'Goal' : 'Next'}: deploy ${model.repo} across both nodes (${head.name} is the head, ${worker.name} the worker) as one model, tensor parallel over the ${fleet.iface} link. ` +
      `Only touch them through ssh ${fleet.user}@${head.address} / ${worker.address}. Start with ${first?.ref ?? 'whatever fits'} if it can run it; tell me which images you rule out and why.`,
  );
  const running = [{ name: 'vllm-embeddings', image: 'vllm-spark:v0.14.0rc2.dev262' }, { name: 'vllm-proxy', image: 'nginx:1.27-alpine' }];
  yield b.step(
    `Before touching anything I need the state of both boxes: what is running, GPU memory, and free disk for a ~${model.sizeGb} GB checkpoint.`,
    'Let me look at what is running on both nodes first.',
    [
      b.shell({ host: head, command: 'docker ps --format "table {{.Names}}\\t{{.Image}}\\t{{.Status}}"; systemctl list-units --type=service --state=running --no-pager | grep -E "vllm|embed|rerank"', description: 'Show containers and services on head', output: psOutput(prng, running) + systemctlUnits(prng, ['vllm-embeddings', 'vllm-proxy']), durationMs: prng.int(600, 2500) }),
      b.shell({ host: worker, command: 'docker ps --format "table {{.Names}}\\t{{.Image}}\\t{{.Status}}"', description: 'Show containers on worker', output: psOutput(prng, running.slice(0, 1)), durationMs: prng.int(600, 2500) }),
      b.shell({ host: head, command: 'nvidia-smi', description: 'GPU state on head', output: nvidiaSmi(prng, fleet, () => prng.int(40, 9000), ['/usr/bin/python3']), durationMs: prng.int(700, 3000) }),
    ],
  );
  yield b.step(
    null,
    `Checking disk and the Hugging Face cache for ${name}.`,
    [b.shell({ host: head, command: `df -h / | tail -1; ls ~/.cache/huggingface/hub | grep -i "${name.split('-')[0]}" || echo "not cached"`, description: 'Free disk and HF cache', output: `${dfOutput(prng)}not cached\n`, durationMs: prng.int(500, 1500) })],
  );
  if (prng.chance(0.7)) {
    const query = searchQuery(prng, model, first ?? null);
    const url = `https://forums.developer.nvidia.com/t/${name.toLowerCase()}-on-dgx-spark/${prng.int(300000, 370000)}?page=${prng.int(1, 12)}`;
    yield b.step(`I should check what others used for ${name} on this hardware before pulling 20 GB images.`, null, [
      b.search(query, searchResults(prng, query, prng.int(4, 8))),
      b.fetch(url, fetchedPage(prng, url, prng.int(6, 16))),
    ]);
  }
  for (const [index, image] of plan.candidates.entries()) {
    const last = index === plan.candidates.length - 1;
    const fate: ImageFate = last ? 'works' : fateOf(image, model, fleet);
    yield* pullImage(b, image, fate);
    if (fate === 'no-manifest') {
      yield b.step(REASONS['no-manifest'](image, model), nextLine(plan, index), []);
      continue;
    }
    yield b.step(
      `Pulled. Now probe what ${image.ref} actually ships: ${image.framework}, torch, transformers, and whether ${model.architecture} imports.`,
      null,
      [b.shell({ host: head, command: probeCommand(image, model), description: `Probe ${image.framework} and transformers versions in ${image.ref}`, output: probeOutput(prng, image, model, fate === 'works' || fate === 'no-kernel'), durationMs: prng.int(4000, 30_000) })],
    );
    if (fate === 'too-old' || fate === 'import-fails') {
      yield b.step(REASONS[fate](image, model), nextLine(plan, index), []);
      continue;
    }
    if (fate === 'no-kernel') {
      yield b.step(`The imports work. Start the engine to see whether it runs on ${fleet.gpu.name}.`, null, [
        b.shell({ host: head, command: `docker run --rm --gpus all --net=host --ipc=host -v ~/.cache/huggingface:/root/.cache/huggingface ${image.ref} ${serveCommand(image, model, fleet)} 2>&1 | tail -60`, description: `Try to start ${image.framework} from ${image.ref}`, output: serveLog(prng, image, model, fleet, b.now, true), exit: 1, durationMs: prng.int(20_000, 90_000) }),
      ]);
      yield b.step(REASONS['no-kernel'](image, model), nextLine(plan, index), []);
      continue;
    }
    yield* bringUp(b, image, model);
  }
}

function nextLine(plan: Deployment, index: number): string {
  const next = plan.candidates[index + 1];
  return next ? `Let me try ${next.ref} instead.` : 'No candidate left.';
}

function* pullImage(b: StepBuilder, image: ImageSpec, fate: ImageFate): TurnSource {
  const { prng, fleet } = b;
  const head = fleet.hosts[0];
  if (!head) return;
  const command = `docker pull ${image.ref} 2>&1`;
  if (fate === 'no-manifest') {
    yield b.step(null, `Pulling ${image.ref}.`, [b.shell({ host: head, command, description: `Pull ${image.ref}`, output: noManifestOutput(image, fleet), exit: 1, durationMs: prng.int(1500, 4000) })]);
    return;
  }
  if (prng.chance(0.3)) {
    yield b.step(null, `Pulling ${image.ref} (${image.sizeGb} GB).`, [
      b.shell({ host: head, command, description: `Pull ${image.ref}`, output: pullOutput(prng, image, { cutAfterLayers: prng.int(2, 9) }), durationMs: 200_000 }),
    ]);
    yield b.step('The pull hit the 120 s tool limit, but docker keeps the layers it has; a retry continues where it stopped.', null, [
      b.shell({ host: head, command, description: `Retry pull of ${image.ref}`, output: pullOutput(prng, image), durationMs: prng.int(30_000, 110_000) }),
    ]);
    return;
  }
  yield b.step(null, `Pulling ${image.ref}.`, [b.shell({ host: head, command, description: `Pull ${image.ref}`, output: pullOutput(prng, image), durationMs: prng.int(20_000, 115_000) })]);
}

/** The working image: worker pull, weights on both nodes, the Ray cluster, the server, and its checks. */
function* bringUp(b: StepBuilder, image: ImageSpec, model: ModelSpec): TurnSource {
  const { prng, fleet } = b;
  const [head, worker] = fleet.hosts;
  if (!head || !worker) return;
  const home = `/home/${fleet.user}`;
  yield b.step(`${image.ref} has ${image.framework} ${image.version} and transformers ${image.transformers}, and ${model.architecture} imports. This is the one. Pull it on the worker too, and get the weights onto both nodes.`, null, [
    b.shell({ host: worker, command: `docker pull ${image.ref} 2>&1`, description: `Pull ${image.ref} on worker`, output: pullOutput(prng, image), durationMs: prng.int(30_000, 110_000) }),
  ]);
  const index = 'https://pypi.org/simple';
  if (prng.chance(0.5)) {
    yield b.step(null, 'Installing the Hugging Face CLI on both nodes.', [
      b.shell({ host: head, command: 'python3 -m pip install -U huggingface_hub 2>&1', description: 'Install hf CLI on head', output: externallyManaged(), exit: 1, durationMs: prng.int(1500, 4000) }),
      b.shell({ host: worker, command: 'python3 -m pip install -U huggingface_hub 2>&1', description: 'Install hf CLI on worker', output: externallyManaged(), exit: 1, durationMs: prng.int(1500, 4000) }),
    ]);
  }
  yield b.step('The system Python is externally managed; install into the user site instead.', null, fleet.hosts.map((host) =>
    b.shell({ host, command: 'python3 -m pip install --user --break-system-packages -U huggingface_hub 2>&1', description: `Install hf CLI on ${host.name}`, output: pipInstall(prng, 'huggingface_hub', index), durationMs: prng.int(5000, 30_000) }),
  ));
  const token = `hf_${prng.base62(34)}`;
  const download = (until: number, durationMs: number, timeoutMs?: number) => fleet.hosts.map((host) =>
    b.shell({ host, command: `HF_TOKEN=${token} ~/.local/bin/hf download ${model.repo} 2>&1 && du -sh ~/.cache/huggingface/hub/models--${model.repo.replace('/', '--')}`, description: `Download ${model.repo} on ${host.name}`, output: hfDownload(prng, model, until, home), durationMs, ...(timeoutMs ? { timeoutMs } : {}) }),
  );
  if (prng.chance(0.6)) {
    yield b.step(null, `Downloading ${model.repo} (~${model.sizeGb} GB) on both nodes.`, download(prng.next() * 0.2, 130_000));
    yield b.step(`The download timed out at the 120 s limit with about ${prng.int(2, 15)}% done. Run it with a longer timeout; it resumes from the cache.`, null, download(1, prng.int(900_000, 2_400_000), 3_600_000));
  } else {
    yield b.step(null, `Downloading ${model.repo} on both nodes with a long timeout.`, download(1, prng.int(900_000, 2_400_000), 3_600_000));
  }
  yield b.step(`Weights are in place. Check the ${fleet.iface} link between the nodes before starting Ray.`, null, [
    ...fleet.hosts.map((host) => b.shell({ host, command: `ip -br addr show ${fleet.iface}; ibdev2netdev | grep ${fleet.iface}`, description: `Link on ${host.name}`, output: linkOutput(fleet, host), durationMs: prng.int(400, 1200) })),
    b.shell({ host: head, command: `ping -c 3 -I ${fleet.iface} ${worker.linkAddress}`, description: 'Ping the worker over the link', output: pingOutput(prng, head, worker, fleet.iface), durationMs: prng.int(2000, 2400) }),
  ]);
  const env = `-e NCCL_SOCKET_IFNAME=${fleet.iface} -e NCCL_IB_HCA=${fleet.hca} -e NCCL_IB_DISABLE=0 -e GLOO_SOCKET_IFNAME=${fleet.iface} -e RAY_memory_monitor_refresh_ms=0`;
  const container = `serve-${(model.repo.split('/')[1] ?? 'model').toLowerCase().slice(0, 16)}`;
  yield b.step(null, 'Starting the Ray cluster: head first, then the worker.', [
    b.shell({ host: head, command: `docker run -d --name ${container} --gpus all --net=host --ipc=host -v ~/.cache/huggingface:/root/.cache/huggingface ${env} -e VLLM_HOST_IP=${head.linkAddress} ${image.ref} ray start --head --port 6379 --node-ip-address ${head.linkAddress} --block`, description: 'Start Ray head container', output: `${prng.hex(64)}\n`, durationMs: prng.int(1500, 5000) }),
    b.shell({ host: worker, command: `docker run -d --name ${container} --gpus all --net=host --ipc=host -v ~/.cache/huggingface:/root/.cache/huggingface ${env} -e VLLM_HOST_IP=${worker.linkAddress} ${image.ref} ray start --address=${head.linkAddress}:6379 --node-ip-address ${worker.linkAddress} --block`, description: 'Start Ray worker container', output: `${prng.hex(64)}\n`, durationMs: prng.int(1500, 5000) }),
  ]);
  yield b.step(null, null, [b.shell({ host: head, command: `docker exec ${container} ray status`, description: 'Ray cluster status', output: rayStatus(prng, fleet), durationMs: prng.int(1500, 4000) })]);
  yield b.step(`Both nodes are in the cluster. Start ${image.framework === 'sglang' ? 'SGLang' : 'vLLM'} with tp=${fleet.hosts.length * fleet.gpu.count}; loading a model this size takes about ten minutes.`, null, [
    b.shell({ host: head, command: `docker exec -d ${container} bash -c "${serveCommand(image, model, fleet)} > /tmp/serve.log 2>&1"`, description: 'Start the server', output: '', durationMs: prng.int(400, 1500) }),
  ]);
  yield b.step(null, null, [b.shell({ host: head, command: 'curl -s -o /dev/null -w "%{http_code}" localhost:8000/health', description: 'Health check', output: '000', exit: 7, durationMs: prng.int(50, 400) })]);
  const started = b.now;
  yield b.step('Not up yet (connection refused). Wait and read the log.', null, [
    b.shell({ host: head, command: `sleep 480; docker exec ${container} cat /tmp/serve.log`, description: 'Server log after 8 minutes', output: serveLog(prng, image, model, fleet, started, false), durationMs: prng.int(480_500, 482_000), timeoutMs: 600_000 }),
  ]);
  const created = Math.floor(b.now / 1000);
  yield b.step(null, 'The server reports it is up; checking health, the model list and a completion.', [
    b.shell({ host: head, command: 'curl -s -o /dev/null -w "%{http_code}" localhost:8000/health', description: 'Health check', output: '200', durationMs: prng.int(50, 400) }),
    b.shell({ host: head, command: 'curl -s localhost:8000/v1/models | python3 -m json.tool', description: 'List served models', output: modelsJson(prng, model, created), durationMs: prng.int(80, 600) }),
    b.shell({ host: head, command: `curl -s localhost:8000/v1/chat/completions -H "Content-Type: application/json" -d "{\\"model\\": \\"${model.repo}\\", \\"messages\\": [{\\"role\\": \\"user\\", \\"content\\": \\"Reply with: ready\\"}], \\"max_tokens\\": 20}"`, description: 'Test chat completion', output: chatCompletion(prng, model, created), durationMs: prng.int(300, 3000) }),
  ]);
  yield b.step(null, `${model.repo} is serving on ${head.address}:8000 from ${image.ref} (${image.framework} ${image.version}), tp=${fleet.hosts.length * fleet.gpu.count} over ${fleet.iface}. /health returns 200, /v1/models lists the model, and a test completion answered.`, []);
}
