import { frameworkById, frameworkOfPackage, frameworks, imageDisplayName, homeRelative, imageKey, signatureNamed } from '../classify/index.js';
import { addApproaches } from './approaches.js';
import type { UserAsk } from './user-asks.js';
import { hostCandidateName, sourceBuildName } from './naming.js';
import type { CandidateKind, TreeAction } from './types.js';
import { requestedService } from './requested-service.js';
import { servedAsUnknownStack } from './unknown-stack.js';
import { looseName } from '../classify/names.js';

/**
 * The candidates a session actually tried, read off its actions: every image of a serving stack
 * pulled, probed or run; every framework installed, built from source or probed on a host; and,
 * when one candidate was served in more than one shape (`--tp 8` then `--tp 16 --nnodes 2`), each
 * shape as an approach. Health checks belong to whatever was serving on that host and port when they
 * ran. Only serving stacks are candidates: an image no framework is known by (`python:3.11-slim`
 * running the tests) or a plain HTTP service is a tool, not something that can serve the model.
 */
export interface TriedCandidate {
  key: string;
  name: string;
  kind: CandidateKind;
  framework: string | null;
  parentKey: string | null;
  actions: TreeAction[];
}

/** Rules whose actions run or fetch a candidate (research about it, like a manifest listing, does not). */
const RUNNING_RULES = new Set([
  'image-pull', 'container-serve', 'container-cluster', 'container-build', 'container-probe', 'container-exec', 'source-build', 'engine-build', 'serve-launcher', 'env-probe', 'package-install',
  'framework-probe', 'compose-pull', 'compose-serve', 'compose-logs', 'manifest-apply', 'helm-release', 'kubectl-set-image', 'kubectl-run', 'workload-inspect', 'image-commit', 'installed-serve',
]);
const HOST_KINDS = new Set(['install', 'probe', 'serve', 'build', 'cluster']);
/** Steps that run a candidate on its host (an install or a pull only fetches it). */
const RAN_KINDS = new Set(['probe', 'serve', 'build', 'cluster']);

interface Serving {
  host: string | null;
  port: number | null;
  candidate: TriedCandidate;
  /** The file the launch wrote its log to. */
  logFile: string | null;
  /** The launch failed (`docker compose up` refused): it listens on nothing once something else was launched after it. */
  failed: boolean;
}

/** Two spellings of one file: `~/vllm.log` and `/home/me/vllm.log`, or a relative `vllm.log` read in the launch's directory. */
function sameFile(a: string, b: string): boolean {
  const norm = (path: string): string => homeRelative(path).replace(/^\.\//, '');
  const [x, y] = [norm(a), norm(b)];
  return x === y || (!/^[/~]/.test(x) && y.endsWith(`/${x}`)) || (!/^[/~]/.test(y) && x.endsWith(`/${y}`));
}

function frameworkSpec(action: TreeAction): string | null {
  return action.packages.find((p) => frameworkOfPackage(p)?.id === action.framework) ?? null;
}


function isServingStack(framework: string | null): boolean {
  return frameworkById(framework)?.kind === 'framework';
}

class Collector {
  readonly byKey = new Map<string, TriedCandidate>();
  private readonly serving: Serving[] = [];
  /** What last ran on each host (served, probed, built, clustered): a failure read in the host's logs afterwards is its failure. */
  private readonly lastRun = new Map<string, TriedCandidate>();
  /** Image candidates in the order they were run or pulled, with the host they ran on. */
  private readonly hostImages: { host: string | null; candidate: TriedCandidate }[] = [];
  /** The candidate whose image runs as each named container (`docker run --name widget IMAGE`). */
  private readonly containers = new Map<string, TriedCandidate>();
  /** The framework candidate most recently installed, built or probed on each host, per framework. */
  private readonly hostFramework = new Map<string, TriedCandidate>();
  /** The virtualenv each candidate was first installed into or run from. */
  private readonly envOf = new Map<TriedCandidate, string>();
  /** What was installed into each virtualenv: per framework, and the latest. */
  private readonly envOwners = new Map<string, Map<string, TriedCandidate>>();
  /** A source checkout per host (`git clone …/llama.cpp`): a candidate once something is built or served from it on the host. */
  private readonly checkouts = new Map<string, TreeAction>();
  /** Images committed from a container: the key of the candidate they came from. */
  private readonly imageAliases = new Map<string, string>();
  /** Models made from another in the session (`ollama create NAME` with a Modelfile FROM BASE): NAME → BASE. */
  private readonly derived = new Map<string, string>();
  /** Installs of packages no framework is known by, per spec and host: a candidate's first step once their program serves. */
  private readonly unlistedInstalls = new Map<string, TreeAction>();
  /** For frameworks whose candidates are models (Ollama): the model last pulled on each host. */
  private readonly pulledModel = new Map<string, string>();

  candidate(key: string, name: string, kind: CandidateKind, framework: string | null): TriedCandidate {
    let found = this.byKey.get(key);
    if (!found) {
      found = { key, name, kind, framework, parentKey: null, actions: [] };
      this.byKey.set(key, found);
    }
    return found;
  }

  add(action: TreeAction): void {
    if (action.superseded) return;
    if (action.kind === 'health') return this.health(action);
    // Logs and inspections of a container belong to the image it runs.
    if (!action.image && action.kind === 'inspect' && action.service && this.containers.has(action.service) && (action.hits.length > 0 || action.facts.length > 0)) {
      (this.containers.get(action.service) as TriedCandidate).actions.push(action);
      return;
    }
    // A read of the log a launch wrote (`nohup vllm serve … > ~/vllm.log &`, then `tail ~/vllm.log`) that shows a failure, any failure, belongs to that launch.
    const logFile = action.logFile ?? null;
    if (!action.image && action.kind === 'inspect' && logFile && action.hits.some((h) => h.effect === 'failure')) {
      const writer = this.serving.filter((s) => s.logFile !== null && s.host === (action.dockerHost ?? action.host) && sameFile(s.logFile, logFile)).at(-1);
      if (writer) {
        writer.candidate.actions.push(action);
        return;
      }
    }
    // A log read on a host (`tail server.log`, `dmesg`) that shows a failure belongs to what last ran there: a server, or a
    // compile in a throwaway container that the OOM killer took after the server before it was left running.
    if (!action.image && !action.service && action.kind === 'inspect' && action.hits.some((h) => h.effect === 'failure' && !signatureNamed(h.name)?.generic)) {
      this.lastRun.get(action.dockerHost ?? action.host ?? '')?.actions.push(action);
      return;
    }
    if (action.kind === 'download' && action.model && frameworkById(action.framework)?.candidateByModel) {
      this.pulledModel.set(`${action.framework}@${action.host ?? ''}`, action.model);
      return;
    }
    // A registry read (`docker manifest inspect`) that shows the image cannot run on its host tried that image, as a failed pull does.
    const unfit = action.rule === 'registry-listing' && action.image !== null && action.hits.some((h) => h.effect === 'failure');
    if ((!RUNNING_RULES.has(action.rule) && !unfit) || action.kind === 'stop') return;
    if (action.rule === 'package-install' && action.framework === null) {
      for (const spec of action.packages) this.unlistedInstalls.set(`${looseName(spec)}@${action.host ?? ''}`, action);
      return;
    }
    const owner = action.image ? this.imageOwner(action) : action.rule === 'installed-serve' ? this.packageOwner(action) : (this.execOwner(action) ?? this.hostOwner(action));
    if (!owner) return;
    if (action.image) this.hostImages.push({ host: action.dockerHost ?? action.host, candidate: owner });
    owner.actions.push(action);
    if (action.image && action.service && (action.kind === 'serve' || action.kind === 'cluster')) this.containers.set(action.service, owner);
    // A sidecar container (a proxy, a chat UI: a service's image) serves no model: a check through it reaches the server behind it.
    const sidecar = action.image !== null && frameworkById(action.framework)?.kind === 'service';
    if (action.kind === 'serve' && !sidecar) this.serving.push({ host: action.dockerHost ?? action.host, port: action.port, candidate: owner, logFile: action.logFile ?? null, failed: action.outcome === 'failed' });
    if (RAN_KINDS.has(action.kind) && !sidecar) this.lastRun.set(action.dockerHost ?? action.host ?? '', owner);
  }

  /**
   * `docker exec CONTAINER …` runs inside an image: the one that container was started from, or,
   * for a container a script started (`run_cluster.sh`), the last image of the same framework run
   * or pulled on that host.
   */
  private execOwner(action: TreeAction): TriedCandidate | null {
    const container = action.rule === 'container-exec' ? action.service : action.container;
    if (!container) return null;
    const started = this.containers.get(container);
    if (started) return started;
    const host = action.dockerHost ?? action.host;
    return this.hostImages.filter((i) => i.host === host && action.framework !== null && i.candidate.framework === action.framework).at(-1)?.candidate ?? null;
  }

  private health(action: TreeAction): void {
    // A check run inside a container (`docker exec srv vllm bench serve …`) against its own localhost checks that container.
    const inside = action.container && action.targetHost === null ? this.containers.get(action.container) : undefined;
    if (inside) {
      inside.actions.push(action);
      return;
    }
    const host = action.targetHost ?? action.host;
    const matches = this.serving.filter((s) => s.host === host && (s.port === action.port || s.port === null || action.port === null));
    // A check that names no port matches no launch exactly: the last server on the host is the one it reached.
    // A launch on that port that failed listens on nothing when another launch on the host came after it (of no known port).
    const superseded = (s: Serving): boolean => s.failed && matches.indexOf(s) < matches.length - 1;
    const exact = action.port === null ? [] : matches.filter((s) => s.port === action.port && !superseded(s));
    const reached = (exact.length > 0 ? exact : matches.length > 0 ? matches : this.behindProxy(action)).at(-1);
    const target = reached?.candidate;
    // A request to a runtime whose candidates are its models (`"model":"llama3.1-32k"` to Ollama's API) tries that model,
    // on a server started in the session or one already running.
    const runtime = modelRuntime(action);
    const model = runtime ? requestedModel(action.command) : null;
    if (runtime && model && (!target || target.key.startsWith('model:'))) {
      // Through a proxy (`https://llm.lab.internal`), the model is the one on the host behind it, not a second one on the proxy.
      this.modelCandidate(runtime.id, this.derived.get(model) ?? model, (reached ? reached.host : host) ?? '').actions.push(action);
      return;
    }
    target?.actions.push(action);
  }

  private modelCandidate(framework: string, model: string, host: string): TriedCandidate {
    return this.candidate(`model:${framework}:${model}@${host}`, `${(frameworkById(framework)?.label ?? framework).toLowerCase()} ${model}`, 'framework', framework);
  }

  /**
   * A check that reaches no server directly goes through a reverse proxy (nginx, a TLS front) to
   * what was served behind it: on port 80/443 of a host that serves on another port, or of a
   * host (by name or address) where nothing was served, to the last server started.
   */
  private behindProxy(action: TreeAction): Serving[] {
    const host = action.targetHost ?? action.host;
    const webPort = action.port === 80 || action.port === 443 || action.port === null;
    if (!webPort) return [];
    const onHost = this.serving.filter((s) => s.host === host);
    if (onHost.length > 0) return onHost;
    // A front by name (`llm.lab.internal`) or by address (the nginx box `10.8.0.10`) where nothing was served itself.
    const remote = host !== null && !/^(?:localhost|127\.|\[?::1)/.test(host) && (host.includes('.') || host.includes(':'));
    return remote && !this.serving.some((s) => s.host === host) ? this.serving.slice(-1) : [];
  }

  /** A package no framework is known by, launched as a server: the candidate is the package as installed, its install its first step. */
  private packageOwner(action: TreeAction): TriedCandidate | null {
    const spec = action.packages[0];
    if (!spec) return null;
    const key = `${looseName(spec)}@${action.host ?? ''}`;
    const owner = this.candidate(`pkg:${key}`, spec, 'framework', null);
    const install = this.unlistedInstalls.get(key);
    if (install && !owner.actions.includes(install)) owner.actions.unshift(install);
    return owner;
  }

  private imageOwner(action: TreeAction): TriedCandidate | null {
    const image = action.image as string;
    if (action.rule === 'image-commit') {
      const from = action.derivedFrom ? (this.imageAliases.get(imageKey(action.derivedFrom)) ?? `image:${imageKey(action.derivedFrom)}`) : null;
      const source = from ? this.byKey.get(from) : undefined;
      if (source) this.imageAliases.set(imageKey(image), source.key);
      return source ?? null;
    }
    const key = this.imageAliases.get(imageKey(image)) ?? `image:${imageKey(image)}`;
    const owner = this.byKey.get(key) ?? this.candidate(key, imageDisplayName(image), action.rule === 'source-build' ? 'framework' : 'image', action.framework);
    owner.framework ??= action.framework;
    if (action.kind === 'inspect' && action.hits.length === 0 && action.facts.length === 0) return null;
    return owner;
  }

  private hostOwner(action: TreeAction): TriedCandidate | null {
    const host = action.host ?? '';
    const root = action.envRoot ?? null;
    if (action.rule === 'source-build' && action.subject && action.framework) {
      this.checkouts.set(`${action.framework}@${host}`, action);
      return null;
    }
    const inEnv = root ? this.envOwners.get(root) : undefined;
    const framework = action.framework ?? (inEnv ? [...inEnv.values()].at(-1)?.framework ?? null : null) ?? (action.kind === 'build' ? this.latestCheckout(host)?.framework ?? null : null);
    if (!framework || !HOST_KINDS.has(action.kind)) return null;
    const hostKey = `${framework}@${host}`;
    const byModel = frameworkById(framework)?.candidateByModel ?? false;
    let owner: TriedCandidate | undefined;
    const spec = action.kind === 'install' ? frameworkSpec(action) : null;
    if (byModel) {
      // A model served, or made from another (`ollama create NAME`), is the candidate; anything else on the host goes to the one last pulled.
      // A model derived from another (`ollama create qwen-32k` FROM qwen2.5:32b) is a way of running its base: the base is the candidate.
      const model = action.baseModel ?? (action.kind === 'serve' || action.kind === 'build' ? action.model : null) ?? this.pulledModel.get(hostKey) ?? null;
      if (action.kind === 'build' && action.model && action.baseModel) this.derived.set(action.model, action.baseModel);
      if (!model) return this.hostFramework.get(hostKey) ?? null;
      owner = this.modelCandidate(framework, model, host);
    } else if (spec) {
      owner = this.candidate(`pkg:${looseName(spec)}@${host}`, spec, 'framework', framework);
    } else {
      // A run from another env than the one the host's install went into, on a host with a checkout of the framework, runs the
      // checkout's build (a CUDA wheel in ~/venvs/a, then a ROCm source build installed into ~/venvs/b).
      const hostOne = this.hostFramework.get(hostKey);
      const elsewhere = hostOne !== undefined && root !== null && this.checkouts.has(hostKey) && this.envOf.has(hostOne) && this.envOf.get(hostOne) !== root;
      owner = inEnv?.get(framework) ?? (elsewhere ? undefined : hostOne);
      const checkout = this.checkouts.get(hostKey);
      if (!owner && checkout) {
        // One checkout built on several hosts (the head and an RPC worker, two nodes) is one candidate, as one image run on both is.
        const key = `src:${framework}:${checkout.subject as string}`;
        owner = this.candidate(key, checkout.subject as string, 'framework', framework);
        if (!owner.actions.includes(checkout)) owner.actions.push(checkout);
      }
      owner ??= this.candidate(`host:${hostKey}`, '', 'framework', framework);
    }
    this.hostFramework.set(hostKey, owner);
    if (root) {
      if (!this.envOf.has(owner)) this.envOf.set(owner, root);
      const owners = this.envOwners.get(root) ?? new Map<string, TriedCandidate>();
      owners.delete(framework);
      owners.set(framework, owner);
      this.envOwners.set(root, owners);
    }
    return owner;
  }

  private latestCheckout(host: string): TreeAction | undefined {
    return [...this.checkouts.entries()].filter(([key]) => key.endsWith(`@${host}`)).map(([, action]) => action).at(-1);
  }
}

/** The runtime whose candidates are its models that a request goes to: by its port or one of its own API paths. */
function modelRuntime(action: TreeAction): ReturnType<typeof frameworkById> {
  return frameworks().find((f) => f.candidateByModel && ((f.defaultPort !== null && action.port === f.defaultPort) || f.healthPaths.some((p) => action.command.includes(p)))) ?? null;
}

/** The model a request's JSON body asks for (`-d '{"model":"llama3.1-32k",…}'`). */
function requestedModel(command: string): string | null {
  return /\\?"model\\?"\s*:\s*\\?"([\w.:/-]+)\\?"/.exec(command)?.[1] ?? null;
}

/**
 * Candidates that are the models of one runtime (Ollama) are called by the runtime and the model
 * (`ollama llama3.3:70b`) beside other stacks; in a session that tried no other stack they are its
 * models, called by their names (`llama3.1-32k`).
 */
function modelNames(tried: TriedCandidate[]): TriedCandidate[] {
  const byModel = tried.filter((c) => c.key.startsWith('model:'));
  if (byModel.length === 0 || tried.some((c) => !c.key.startsWith('model:') || c.framework !== byModel[0]?.framework)) return tried;
  const prefix = `${(frameworkById(byModel[0]?.framework ?? null)?.label ?? '').toLowerCase()} `;
  return tried.map((c) => (c.name.startsWith(prefix) ? { ...c, name: c.name.slice(prefix.length) } : c));
}

/** `pip show vllm`, `pip list`, `conda list`: what an environment holds, read, not run. */
const LISTS_PACKAGES = /(?:^|\/)(?:pip3?|uv pip|conda|mamba)\s+(?:show|list|freeze)\b/;

/**
 * A candidate the session only found listed in an environment (`~/venv/bin/pip show vllm` printing its version) was
 * looked up, never tried. A listing that finds it missing (`Package(s) not found: vllm`) still rejects it there.
 */
function onlyListed(candidate: TriedCandidate): boolean {
  return candidate.actions.every((a) => a.rule === 'env-probe' && LISTS_PACKAGES.test(a.command) && a.outcome === 'positive');
}

/** The actions no candidate took: what a session read around its candidates (`pip list`, `nvidia-smi`). */
function unowned(actions: readonly TreeAction[], candidates: Iterable<TriedCandidate>): TreeAction[] {
  const owned = new Set<TreeAction>();
  for (const candidate of candidates) for (const action of candidate.actions) owned.add(action);
  return actions.filter((a) => !owned.has(a));
}

/** `prose`: what the assistant wrote, which names an approach by the option it talks about; `slowAt`: where it judged a run too slow; `asks`: the user's messages. */
export function collectTried(actions: readonly TreeAction[], prose = '', slowAt: readonly number[] = [], asks: readonly UserAsk[] = []): TriedCandidate[] {
  const collector = new Collector();
  for (const action of actions) collector.add(action);
  // What the session read around its candidates, found only when a candidate on a host needs a name from it.
  let looking: TreeAction[] | null = null;
  const tried = [...collector.byKey.values()]
    // A candidate only looked up (an inspect that showed nothing) was never tried; a tool image is no candidate,
    // but an image or package of no known framework that was run as a model server is (unknown-stack.ts), and so is a
    // sidecar the user asked for (requested-service.ts).
    .filter((c) => c.actions.length > 0 && !onlyListed(c) && (isServingStack(c.framework) || servedAsUnknownStack(c) || requestedService(c, asks)))
    .map((c) => (c.name === '' ? { ...c, name: hostCandidateName(c, (looking ??= unowned(actions, collector.byKey.values()))) } : c))
    // A checkout built on a second host joins its candidate after that candidate's later steps: in the order they ran.
    .map((c) => ({ ...c, actions: [...c.actions].sort((a, b) => a.seq - b.seq) }));
  return addApproaches(modelNames(tried.map((c) => ({ ...c, name: sourceBuildName(c, tried) }))), prose, slowAt, asks);
}
