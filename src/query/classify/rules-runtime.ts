import { frameworkIn, imageDisplayName, isLocalHost, looksLikeModelId, parseEndpoint } from './names.js';
import { optionValue, positionals, type Extracted, type Rule, type CommandView } from './view.js';

/**
 * Rules for what moves a deployment: containers, pulls, weight downloads, servers, clusters and
 * health checks.
 */

const ENGINES = new Set(['docker', 'podman', 'nerdctl']);

function engineSub(view: CommandView): string | undefined {
  if (!ENGINES.has(view.program)) return undefined;
  return view.args[0] === 'container' || view.args[0] === 'image' ? view.args[1] : view.args[0];
}

function containerRun(view: CommandView): Extracted {
  const run = view.dockerRun;
  const inner = view.inner;
  // Flags for the image's own entrypoint (`IMAGE --model-id M --num-shard 4`) name the model and shape too.
  const args = run?.command ?? [];
  return {
    subject: run ? imageDisplayName(run.image) : null,
    subjectKind: 'image',
    image: run?.image ?? null,
    service: run?.name ?? null,
    model: inner?.model ?? optionValue(args, MODEL_OPTIONS),
    port: inner?.port ?? run?.ports[0] ?? null,
    framework: inner?.framework ?? (run ? frameworkIn(run.image)?.id ?? null : null),
    config: inner?.config ?? (args[0]?.startsWith('-') ? serveShape(args) : null),
  };
}

const PULL_VALUE_OPTIONS = new Set(['--platform', '-n', '--namespace']);

/** Options of serving launchers that name the model, the port and the serving shape. */
const MODEL_OPTIONS = ['--model', '--model-path', '--model-id', '--model_path', '-m'];
const SHAPE_OPTIONS: readonly [string, readonly string[]][] = [
  ['--tp', ['--tp', '--tp-size', '--tensor-parallel-size', '-tp', '--num-shard']],
  ['--pp', ['--pp', '--pp-size', '--pipeline-parallel-size', '-pp']],
  ['--dp', ['--dp', '--dp-size', '--data-parallel-size', '-dp']],
  ['--nnodes', ['--nnodes', '--num-nodes']],
];

/** Launchers with a subcommand, and where the model may follow as a positional argument. */
const SUBCOMMAND_LAUNCHERS: readonly { program: RegExp; sub: string | null; framework: string; modelAfter: number }[] = [
  { program: /^vllm$/, sub: 'serve', framework: 'vllm', modelAfter: 1 },
  { program: /^sglang$/, sub: 'serve', framework: 'sglang', modelAfter: 1 },
  { program: /^trtllm-serve$/, sub: null, framework: 'trtllm', modelAfter: 0 },
  { program: /^lmdeploy$/, sub: 'serve', framework: 'lmdeploy', modelAfter: 2 },
  { program: /^mlc_?llm$/, sub: 'serve', framework: 'mlc', modelAfter: 1 },
];

/** Which launcher a command is, by program and module (`python -m sglang.launch_server`). */
function launcherOf(view: CommandView): { framework: string; modelAfter: number | null; args: readonly string[] } | null {
  if (/^python[\d.]*$/.test(view.program)) {
    const at = view.args.indexOf('-m');
    const module = at === -1 ? '' : (view.args[at + 1] ?? '');
    const args = view.args.slice(at + 2);
    if (/^vllm\.entrypoints\./.test(module)) return { framework: 'vllm', modelAfter: null, args };
    if (/^sglang\.launch_server$/.test(module)) return { framework: 'sglang', modelAfter: null, args };
    if (/^tensorrt_llm\.|^trtllm/.test(module)) return { framework: 'trtllm', modelAfter: null, args };
    return null;
  }
  const names: Record<string, string> = { 'text-generation-launcher': 'tgi', 'llama-server': 'llamacpp', tritonserver: 'triton' };
  if (names[view.program]) return { framework: names[view.program] as string, modelAfter: null, args: view.args };
  if (view.program === 'ollama' && view.args[0] === 'serve') return { framework: 'ollama', modelAfter: null, args: view.args };
  for (const launcher of SUBCOMMAND_LAUNCHERS) {
    if (!launcher.program.test(view.program)) continue;
    if (launcher.sub === null) return { framework: launcher.framework, modelAfter: view.args[0] === 'serve' ? 1 : 0, args: view.args };
    if (view.args[0] === launcher.sub) return { framework: launcher.framework, modelAfter: launcher.modelAfter, args: view.args };
  }
  return null;
}

function serveShape(args: readonly string[]): string | null {
  const parts: string[] = [];
  for (const [label, names] of SHAPE_OPTIONS) {
    const value = optionValue(args, names);
    if (value !== null) parts.push(`${label} ${value}`);
  }
  return parts.length > 0 ? parts.join(' ') : null;
}

function servedModel(args: readonly string[], modelAfter: number | null): string | null {
  const explicit = optionValue(args, MODEL_OPTIONS);
  const positional = modelAfter !== null ? args[modelAfter] : undefined;
  const model = explicit ?? (positional && !positional.startsWith('-') ? positional : null);
  const served = optionValue(args, ['--served-model-name']);
  // A local path tells less than the name it is served under.
  if (model && model.startsWith('/') && served) return served;
  return model ?? served;
}

function healthTarget(view: CommandView): { url: string; host: string | null; port: number | null; path: string } | null {
  for (const arg of view.args) {
    if (arg.startsWith('-')) continue;
    const endpoint = parseEndpoint(arg);
    if (!endpoint) continue;
    if (/\/health\b|\/healthz|\/health_generate|\/v1\/models\b|\/v1\/(?:chat\/)?completions\b|\/generate\b|\/ping\b|\/v2\/health|\/api\/(?:tags|generate|chat)\b|\/ready\b/.test(endpoint.path)) {
      return { url: arg, host: endpoint.host, port: endpoint.port, path: endpoint.path };
    }
  }
  return null;
}

const HTTP_CLIENTS = new Set(['curl', 'wget', 'http', 'https', 'xh']);
const WEIGHT_FILE = /\.(?:safetensors|gguf|bin|pt|pth|onnx|engine|ckpt)(?:\?|$)/;

function hfRepo(url: string): string | null {
  const match = /huggingface\.co\/(?:models\/)?([\w.-]+\/[\w.-]+?)(?:\.git)?(?:\/|$)/.exec(url);
  return match ? (match[1] as string) : null;
}

function pythonDownload(body: string | null): string | null {
  if (!body || !/snapshot_download|hf_hub_download/.test(body)) return null;
  const match = /repo_id\s*=\s*['"]([^'"]+)['"]|(?:snapshot_download|hf_hub_download)\(\s*['"]([^'"]+)['"]/.exec(body);
  return match ? ((match[1] ?? match[2]) as string) : '';
}

export const RUNTIME_RULES: readonly Rule[] = [
  {
    name: 'container-serve',
    kind: 'serve',
    description: '`docker run` of a serving launcher, a detached `docker run -d IMAGE`, or an image run with flags for its own entrypoint (`IMAGE --model-id M`)',
    match: (v) => {
      if (!v.dockerRun) return null;
      const inner = v.inner?.kind;
      const entrypointFlags = !v.dockerRun.entrypoint && (v.dockerRun.command[0] ?? '').startsWith('-');
      if (inner === 'serve' || (v.dockerRun.detached && inner !== 'cluster') || entrypointFlags) return containerRun(v);
      return null;
    },
  },
  {
    name: 'container-cluster',
    kind: 'cluster',
    description: '`docker run … IMAGE ray start …`: a cluster node inside a container',
    match: (v) => (v.dockerRun && v.inner?.kind === 'cluster' ? containerRun(v) : null),
  },
  {
    name: 'container-probe',
    kind: 'probe',
    description: 'a foreground `docker run [--rm] IMAGE CMD` that inspects an image and exits (`python3 -c "import …"`, `--version`)',
    match: (v) => (v.dockerRun && !v.dockerRun.detached ? containerRun(v) : null),
  },
  {
    name: 'container-exec',
    kind: 'inspect',
    description: '`docker exec CONTAINER CMD` / `kubectl exec`: takes the kind of the command it runs (serve, cluster, probe…), inspect otherwise',
    match: (v) => {
      if (!v.execContainer) return null;
      const inner = v.inner;
      return {
        ...(inner ?? {}),
        kind: inner && inner.kind !== 'other' ? inner.kind : 'inspect',
        subject: inner?.kind === 'serve' || inner?.kind === 'probe' || !inner?.subject ? v.execContainer : inner.subject,
        subjectKind: inner?.kind === 'serve' || inner?.kind === 'probe' || !inner?.subject ? 'container' : inner.subjectKind,
        service: v.execContainer,
      };
    },
  },
  {
    name: 'image-pull',
    kind: 'pull',
    description: '`docker|podman|nerdctl pull IMAGE`, `ctr image pull`, `crictl pull`, `enroot import docker://…`, `apptainer pull docker://…`',
    match: (v) => {
      let image: string | undefined;
      if (engineSub(v) === 'pull') image = positionals(v.args.slice(v.args[0] === 'image' ? 2 : 1), PULL_VALUE_OPTIONS)[0];
      else if ((v.program === 'ctr' && /^images?$/.test(positionals(v.args, PULL_VALUE_OPTIONS)[0] ?? '') && positionals(v.args, PULL_VALUE_OPTIONS)[1] === 'pull') || (v.program === 'crictl' && v.args[0] === 'pull')) {
        image = positionals(v.args, PULL_VALUE_OPTIONS).at(-1);
      } else if ((v.program === 'enroot' && v.args[0] === 'import') || (/^(?:apptainer|singularity)$/.test(v.program) && v.args[0] === 'pull')) {
        image = v.args.find((a) => a.startsWith('docker://'))?.slice('docker://'.length).replace(/^([^/#]+)#/, '$1/');
      }
      if (!image) return null;
      return { subject: imageDisplayName(image), subjectKind: 'image', image, framework: frameworkIn(image)?.id ?? null };
    },
  },
  {
    name: 'weights-download',
    kind: 'download',
    description: '`hf download` / `huggingface-cli download`, `git lfs`, `git clone https://huggingface.co/…`, wget/curl of weight files, `ollama pull`, `snapshot_download(…)`',
    match: (v) => {
      if ((v.program === 'hf' || v.program === 'huggingface-cli') && v.args[0] === 'download') {
        const model = positionals(v.args.slice(1), new Set(['--local-dir', '--cache-dir', '--revision', '--include', '--exclude', '--repo-type', '--token', '--max-workers']))[0] ?? null;
        return { subject: model, subjectKind: 'model', model };
      }
      if (v.program === 'modelscope' && v.args[0] === 'download') {
        const model = optionValue(v.args, ['--model']) ?? positionals(v.args.slice(1))[0] ?? null;
        return { subject: model, subjectKind: 'model', model };
      }
      if (v.program === 'git' && v.args[0] === 'lfs' && /^(?:pull|fetch|clone)$/.test(v.args[1] ?? '')) return { subject: v.args[2] ?? null, subjectKind: 'repository' };
      if (v.program === 'git' && v.args[0] === 'clone') {
        const url = positionals(v.args.slice(1), new Set(['-b', '--branch', '--depth']))[0] ?? '';
        const model = hfRepo(url);
        return model ? { subject: model, subjectKind: 'model', model } : null;
      }
      if (v.program === 'ollama' && v.args[0] === 'pull') return { subject: v.args[1] ?? null, subjectKind: 'model', model: v.args[1] ?? null };
      if (HTTP_CLIENTS.has(v.program) || v.program === 'aria2c') {
        const url = v.args.find((a) => /^https?:\/\//.test(a) && WEIGHT_FILE.test(a));
        if (url) return { subject: hfRepo(url) ?? url, subjectKind: hfRepo(url) ? 'model' : 'url', model: hfRepo(url) };
      }
      const pythonModel = pythonDownload(v.pythonBody);
      if (pythonModel !== null) return { subject: pythonModel || null, subjectKind: 'model', model: pythonModel || null };
      return null;
    },
  },
  {
    name: 'weights-copy',
    kind: 'download',
    description: '`rsync` / `scp` / `rclone` of model weights between machines (paths naming models, hub caches or weight files)',
    match: (v) => {
      if (!/^(?:rsync|scp|rclone)$/.test(v.program)) return null;
      const paths = positionals(v.args, new Set(['-e', '-P', '-i', '--exclude', '--include']));
      const weights = paths.find((p) => /models?\/|huggingface|\/hub\/|\.safetensors|\.gguf/i.test(p));
      if (!weights) return null;
      const name = /models?\/(?:models--)?([^/]+)/i.exec(weights)?.[1]?.replace(/--/g, '/') ?? weights;
      return { subject: name, subjectKind: looksLikeModelId(name) ? 'model' : 'path' };
    },
  },
  {
    name: 'serve-launcher',
    kind: 'serve',
    description: '`vllm serve`, `python -m vllm.entrypoints…`, `python -m sglang.launch_server`, `trtllm-serve`, `text-generation-launcher`, `llama-server`, `tritonserver`, `ollama serve`, `lmdeploy serve`',
    match: (v) => {
      const launcher = launcherOf(v);
      if (!launcher) return null;
      const model = servedModel(launcher.args, launcher.modelAfter);
      const port = Number(optionValue(launcher.args, ['--port']) ?? NaN);
      return {
        subject: model,
        subjectKind: 'model',
        model,
        port: Number.isInteger(port) ? port : null,
        framework: launcher.framework,
        config: serveShape(launcher.args),
      };
    },
  },
  {
    name: 'ray-cluster',
    kind: 'cluster',
    description: '`ray start --head`, `ray start --address=…`, `ray status`, `ray list nodes`: the multi-node cluster',
    match: (v) => {
      if (v.program !== 'ray' || !/^(?:start|status|up|list|submit)$/.test(v.args[0] ?? '')) return null;
      const address = optionValue(v.args, ['--address']);
      return { subject: v.args.includes('--head') ? 'ray head' : address ? `ray worker → ${address}` : `ray ${v.args[0] as string}`, subjectKind: 'service', service: 'ray' };
    },
  },
  {
    name: 'health-check',
    kind: 'health',
    description: 'curl/wget of a serving endpoint: /health, /v1/models, /v1/chat/completions, /v1/completions, /generate, /v2/health, /api/tags',
    match: (v) => {
      if (!HTTP_CLIENTS.has(v.program)) return null;
      const target = healthTarget(v);
      if (!target) return null;
      return { subject: target.url, subjectKind: 'url', port: target.port, targetHost: isLocalHost(target.host) ? null : target.host };
    },
  },
];
