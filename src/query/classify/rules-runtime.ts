import { INSTALLED_RULES } from './rules-installed.js';
import { HELM_RULES } from './rules-helm.js';
import { ORCHESTRATION_RULES } from './rules-orchestration.js';
import { frameworkById, frameworkIn, frameworks, imageDisplayName, isLocalHost, looksLikeModelId, parseEndpoint, type Framework } from './names.js';
import type { CompiledLauncher } from '../rules/compile.js';
import { envShape, joinShapes, launchOptions, serveShape } from './shape.js';
import { optionValue, positionals, type CommandView, type Extracted, type Rule, type RuleMatch } from './view.js';

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
  const framework = inner?.framework ? frameworkById(inner.framework) : run ? frameworkIn(run.image) : null;
  const flags = inner?.config ?? (args[0]?.startsWith('-') ? serveShape(args, framework) : null);
  const shapeFramework = inner?.framework ? frameworkById(inner.framework) : framework;
  return {
    subject: run ? imageDisplayName(run.image) : null,
    subjectKind: 'image',
    image: run?.image ?? null,
    service: run?.name ?? null,
    model: inner?.model ?? optionValue(args, modelOptions(framework)),
    port: inner?.port ?? run?.ports[0] ?? null,
    framework: inner?.framework ?? framework?.id ?? null,
    config: joinShapes(flags, envShape(run?.env ?? {}, shapeFramework)),
    options: inner?.framework ? (inner.options ?? null) : args[0]?.startsWith('-') ? launchOptions(args, framework) : null,
  };
}

const PULL_VALUE_OPTIONS = new Set(['--platform', '-n', '--namespace']);

/** Model options of a framework, or of every framework when the image's framework is unknown. */
function modelOptions(framework: Framework | null): readonly string[] {
  return framework ? framework.modelOptions : [...new Set(frameworks().flatMap((f) => f.modelOptions))];
}

interface Launch {
  framework: Framework;
  modelAfter: number | null;
  args: readonly string[];
  /** The program, module or script that matched (`trtllm-build`, `quantize.py`). */
  step: string;
}

/** What a launch, build or probe was run with: its serving shape (flags and variables) and its other options. */
function launchSettings(launch: Launch, env: CommandView['env']): Pick<RuleMatch, 'config' | 'options'> {
  return { config: joinShapes(serveShape(launch.args, launch.framework), envShape(env, launch.framework)), options: launchOptions(launch.args, launch.framework) };
}

/** Which launcher (or build step) of the rule files a command is, by program, subcommand, module (`python -m sglang.launch_server`) or script. */
function launcherOf(view: CommandView, pick: (framework: Framework) => readonly CompiledLauncher[] = (f) => f.launchers): Launch | null {
  const python = /^python[\d.]*$/.test(view.program);
  const moduleAt = python ? view.args.indexOf('-m') : -1;
  const module = moduleAt === -1 ? null : (view.args[moduleAt + 1] ?? '');
  const script = python && moduleAt === -1 ? (positionals(view.args)[0] ?? null) : null;
  // `cd ~/tabbyAPI && python main.py`: a relative script or program is read in the directory the command changed to.
  const inCwd = (path: string): string[] => (view.cwd && !/^[/~]/.test(path) ? [path, `${view.cwd.replace(/\/+$/, '')}/${path.replace(/^\.\//, '')}`] : [path]);
  for (const framework of frameworks()) {
    for (const launcher of pick(framework)) {
      let args: readonly string[] | null = null;
      let step = view.program;
      if (launcher.module && module !== null && launcher.module.test(module)) [args, step] = [view.args.slice(moduleAt + 2), module];
      else if (launcher.script && script !== null && inCwd(script).some((p) => launcher.script?.test(p))) [args, step] = [view.args.slice(view.args.indexOf(script) + 1), script.split('/').at(-1) ?? script];
      else if (launcher.program && [view.program, ...inCwd(view.argv[0] ?? view.program)].some((p) => launcher.program?.test(p))) args = view.args;
      if (args === null) continue;
      // `vllm.entrypoints.cli.main bench serve`: a benchmark subcommand runs a client against a server, it serves nothing.
      if (/^bench(?:mark)?$/.test(args[0] ?? '')) continue;
      if (launcher.subcommand !== null && args[0] !== launcher.subcommand) continue;
      // Asking a launcher for its help or version (`lmdeploy serve api_server --help`) starts nothing.
      if (args.some((a) => a === '--version' || a === '--help' || a === '-h')) continue;
      return { framework, modelAfter: launcher.modelPosition, args, step };
    }
  }
  return null;
}

function servedModel(args: readonly string[], launch: Launch): string | null {
  const explicit = optionValue(args, launch.framework.modelOptions);
  const positional = launch.modelAfter !== null ? args[launch.modelAfter] : undefined;
  const model = explicit ?? (positional && !positional.startsWith('-') ? positional : null);
  const served = launch.framework.servedNameOptions.length > 0 ? optionValue(args, launch.framework.servedNameOptions) : null;
  if (model && served && servedNameTellsMore(model, served)) return served;
  return model ?? served;
}

/**
 * A local path tells less than the name it is served under when that name is a repository id
 * (`/models/L` served as `meta/L-70B`) or the path's folder names no model (`/models/model`); a
 * folder named for its weights (`/home/sam/models/MythoMax-L2-13B-GPTQ` served as `mythomax`) tells more.
 */
function servedNameTellsMore(model: string, served: string): boolean {
  if (!/^[/~]/.test(model)) return false;
  const folder = model.replace(/\/+$/, '').split('/').at(-1) ?? '';
  return served.includes('/') || !/\d/.test(folder);
}

/** The port a launch listens on: its port option (`--bind 0.0.0.0:8000` counts), else none. */
function servedPort(args: readonly string[], framework: Framework): number | null {
  const value = optionValue(args, framework.portOptions);
  if (value === null) return null;
  const port = Number(/(\d+)$/.exec(value)?.[1] ?? NaN);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
}

/** Endpoints any OpenAI-style server answers; the rule files add their frameworks' own (`health.paths`). */
const GENERIC_HEALTH_PATH = /\/health\b|\/healthz|\/v1\/models\b|\/v1\/(?:chat\/)?completions\b|\/generate\b|\/ping\b|\/ready\b/;

function frameworkHealthPath(path: string): boolean {
  const clean = path.replace(/\/+$/, '');
  return clean !== '' && frameworks().some((f) => f.healthPaths.some((p) => p !== '/' && (clean === p || clean.startsWith(`${p}/`))));
}

function healthTarget(view: CommandView): { url: string; host: string | null; port: number | null; path: string } | null {
  for (const arg of view.args) {
    if (arg.startsWith('-')) continue;
    const endpoint = parseEndpoint(arg);
    if (!endpoint) continue;
    if (GENERIC_HEALTH_PATH.test(endpoint.path) || frameworkHealthPath(endpoint.path)) {
      return { url: arg, host: endpoint.host, port: endpoint.port, path: endpoint.path };
    }
  }
  return null;
}

const HTTP_CLIENTS = new Set(['curl', 'wget', 'http', 'https', 'xh']);

/** An image that is an HTTP client (`curlimages/curl:8.11.1`): its arguments are curl's. */
const HTTP_CLIENT_IMAGE = /(?:^|\/)(?:curl|wget|httpie)(?:[:@]|$)/;

/** The HTTP client's arguments of a one-off pod (`kubectl run c --rm -i --image=curlimages/curl -- -s URL`, `… --image=busybox -- wget -qO- URL`). */
function podHttpClientArgs(v: CommandView): string[] | null {
  if ((v.program !== 'kubectl' && v.program !== 'oc') || !v.args.includes('run')) return null;
  const image = optionValue(v.args, ['--image']);
  const dashes = v.args.indexOf('--');
  if (!image || dashes === -1) return null;
  const after = v.args.slice(dashes + 1);
  if (HTTP_CLIENTS.has(after[0] ?? '')) return after.slice(1);
  return HTTP_CLIENT_IMAGE.test(image.toLowerCase()) ? after : null;
}

/** Load generators that send requests to a running server (they serve nothing themselves). */
const BENCHMARK_MODULE = /(?:^|[._])bench(?:mark)?_serving$/;
const BENCHMARK_SCRIPT = /(?:^|\/)bench(?:mark)?_serving\.py$/;
const BENCHMARK_PROGRAMS = new Set(['genai-perf', 'guidellm', 'llmperf']);

function servingBenchmark(v: CommandView): boolean {
  // `--help` asks the client what it takes; it sends nothing.
  if (v.args.some((a) => a === '--help' || a === '-h')) return false;
  if (BENCHMARK_PROGRAMS.has(v.program)) return true;
  const python = /^python[\d.]*$/.test(v.program);
  const moduleAt = python ? v.args.indexOf('-m') : -1;
  if (moduleAt !== -1) return BENCHMARK_MODULE.test(v.args[moduleAt + 1] ?? '');
  if (python) return BENCHMARK_SCRIPT.test(positionals(v.args)[0] ?? '');
  // `vllm bench serve`, `sglang bench serve`: a framework's own benchmark subcommand.
  return v.args[0] === 'bench' && v.args[1] === 'serve' && frameworks().some((f) => f.launchers.some((l) => l.program?.test(v.program)));
}
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
      // `docker run --rm IMAGE --help` asks the entrypoint what it takes: a probe of the image, not a launch.
      const asksUsage = v.dockerRun.command.some((a) => a === '--help' || a === '-h' || a === '--version');
      const entrypointFlags = !v.dockerRun.entrypoint && (v.dockerRun.command[0] ?? '').startsWith('-') && !asksUsage;
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
    name: 'container-build',
    kind: 'build',
    description: 'a foreground `docker run [--rm] IMAGE` of a build step of its framework (`trtllm-build`, `quantize.py`, `mlc_llm compile`): an engine or a checkpoint built in the image',
    match: (v) => (v.dockerRun && !v.dockerRun.detached && v.inner?.kind === 'build' ? { ...containerRun(v), step: v.inner.step ?? null } : null),
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
      if (v.program === 'ollama' && v.args[0] === 'pull') return { subject: v.args[1] ?? null, subjectKind: 'model', model: v.args[1] ?? null, framework: frameworkIn(v.program)?.id ?? null };
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
    name: 'engine-build',
    kind: 'build',
    description: 'a build step of a framework in the rule files (`build:`): `trtllm-build`, TensorRT-LLM\'s `quantize.py`, `mlc_llm convert_weight`…',
    match: (v) => {
      const build = launcherOf(v, (f) => f.builders);
      if (!build) return null;
      // A build that makes a model named by position (`ollama create llama3.1-32k -f Modelfile`) names it there.
      const positional = build.modelAfter !== null ? build.args[build.modelAfter] : undefined;
      const model = optionValue(build.args, [...build.framework.modelOptions, '--model_dir', '--checkpoint_dir']) ?? (positional && !positional.startsWith('-') ? positional : null);
      return { subject: model, subjectKind: 'model', model, framework: build.framework.id, ...launchSettings(build, v.env), step: build.step };
    },
  },
  {
    name: 'framework-probe',
    kind: 'probe',
    description: 'a program of a framework in the rule files that runs the model once without serving it (`probe:`): `llama-bench`, `llama-cli`',
    match: (v) => {
      const probe = launcherOf(v, (f) => f.probers);
      if (!probe) return null;
      const model = servedModel(probe.args, probe);
      return { subject: model, subjectKind: 'model', model, framework: probe.framework.id, ...launchSettings(probe, v.env) };
    },
  },
  {
    name: 'pod-http-check',
    kind: 'health',
    description: '`kubectl run NAME --rm -i --image=curlimages/curl -- -s URL` (or a pod running curl/wget): a request from inside the cluster to a serving endpoint',
    match: (v) => {
      const args = podHttpClientArgs(v);
      if (!args) return null;
      const target = healthTarget({ ...v, args });
      if (!target) return null;
      return { subject: target.url, subjectKind: 'url', port: target.port, targetHost: isLocalHost(target.host) ? null : target.host };
    },
  },
  ...ORCHESTRATION_RULES,
  ...HELM_RULES,
  {
    name: 'serve-launcher',
    kind: 'serve',
    description: 'a launcher of a framework in the rule files (`launch:`): `vllm serve`, `python -m sglang.launch_server`, `trtllm-serve`, `text-generation-launcher`, `llama-server`, `tritonserver`, `ollama serve`, `lmdeploy serve`, uvicorn…',
    match: (v) => {
      const launch = launcherOf(v);
      if (!launch) return null;
      const model = servedModel(launch.args, launch);
      return {
        subject: model,
        subjectKind: 'model',
        model,
        port: servedPort(launch.args, launch.framework),
        framework: launch.framework.id,
        ...launchSettings(launch, v.env),
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
    name: 'api-client',
    kind: 'health',
    description: 'a Python client asking a server for a completion (`OpenAI(base_url="http://localhost:8000/v1").chat.completions.create(…)`, `requests.post("…/v1/chat/completions")`): a working chat',
    match: (v) => {
      const body = v.pythonBody;
      if (body === null || !/\.(?:chat\.)?completions\.create\(|\b(?:requests|httpx|session|client)\.(?:post|get)\(|\burlopen\(/.test(body)) return null;
      for (const url of body.match(/https?:\/\/[^\s'"`)]+/g) ?? []) {
        const endpoint = parseEndpoint(url);
        if (!endpoint || !(endpoint.path === '/v1' || endpoint.path === '/v1/' || GENERIC_HEALTH_PATH.test(endpoint.path) || frameworkHealthPath(endpoint.path))) continue;
        return { subject: url, subjectKind: 'url', port: endpoint.port, targetHost: isLocalHost(endpoint.host) ? null : endpoint.host };
      }
      return null;
    },
  },
  {
    name: 'serving-benchmark',
    kind: 'health',
    description: 'a benchmark client run against a server (`python -m sglang.bench_serving`, `vllm bench serve`, `benchmark_serving.py`, `genai-perf profile`, `guidellm`): its requests answered are the server answering',
    match: (v) => {
      if (!servingBenchmark(v)) return null;
      const url = optionValue(v.args, ['--base-url', '--url', '--target', '--endpoint-url', '-u']);
      const endpoint = url ? parseEndpoint(url) : null;
      const portValue = optionValue(v.args, ['--port']);
      const port = endpoint?.port ?? (portValue && /^\d+$/.test(portValue) ? Number(portValue) : null);
      const host = endpoint?.host ?? optionValue(v.args, ['--host']);
      return { subject: url ?? `${host ?? 'localhost'}:${port ?? ''}`, subjectKind: 'url', port, targetHost: isLocalHost(host) ? null : host };
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
  ...INSTALLED_RULES,
];
