import { frameworkIn, imageDisplayName } from './names.js';
import { envShape, joinShapes, launchOptions, serveShape } from './shape.js';
import { optionValue, positionals, type CommandView, type ComposeService, type Extracted, type Rule } from './view.js';

/**
 * Rules for deployments an orchestrator runs from files: `docker compose` (the image comes from the
 * compose file the session read or wrote) and `kubectl` (from the manifests it applies, or the image
 * it sets). The files are the session's, learned as it goes (see files.ts and context.ts).
 */

const COMPOSE_GLOBAL_WITH_VALUE = new Set(['-f', '--file', '-p', '--project-name', '--env-file', '--profile', '--project-directory', '--ansi', '--progress']);
const COMPOSE_SUB_WITH_VALUE = new Set(['-t', '--timeout', '--tail', '--since', '--until', '--scale', '--pull', '--wait-timeout', '-n', '--index']);

interface ComposeCall {
  sub: string;
  /** Every `-f FILE`, in order: later files override earlier ones (`-f compose.yaml -f compose.gpu.yaml`). */
  files: string[];
  services: string[];
}

/** Every value of one option (`-f a.yaml -f b.yaml`, `--file=c.yaml`). */
export function optionValues(args: readonly string[], names: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (names.includes(arg) && args[i + 1] !== undefined) values.push(args[(i += 1)] as string);
    else {
      const name = names.find((n) => n.startsWith('--') && arg.startsWith(`${n}=`));
      if (name) values.push(arg.slice(name.length + 1));
    }
  }
  return values;
}

function composeCall(v: CommandView): ComposeCall | null {
  const args = v.program === 'docker' && v.args[0] === 'compose' ? v.args.slice(1) : v.program === 'docker-compose' ? v.args : null;
  if (!args) return null;
  let index = 0;
  while (index < args.length && (args[index] as string).startsWith('-')) index += COMPOSE_GLOBAL_WITH_VALUE.has(args[index] as string) ? 2 : 1;
  const sub = args[index];
  if (!sub) return null;
  return { sub, files: optionValues(args.slice(0, index), ['-f', '--file']), services: positionals(args.slice(index + 1), COMPOSE_SUB_WITH_VALUE) };
}

/**
 * The services of several compose files merged as compose merges them: a later file's service of the
 * same name overrides the image, command and ports it sets and adds to the environment (an override
 * file for one host that swaps the image). A file the session never saw adds nothing.
 */
function mergedServices(files: readonly ComposeService[][]): ComposeService[] {
  const merged = new Map<string, ComposeService>();
  for (const services of files) {
    for (const service of services) {
      const before = merged.get(service.name);
      merged.set(service.name, before ? {
        name: service.name,
        image: service.image ?? before.image,
        command: service.command.length > 0 ? service.command : before.command,
        environment: { ...before.environment, ...service.environment },
        ports: service.ports.length > 0 ? service.ports : before.ports,
      } : service);
    }
  }
  return [...merged.values()];
}

/** The service a compose command is about: the one named, else the only one with a serving framework's image, else the first with an image. */
function composeTarget(v: CommandView, call: ComposeCall): ComposeService | null {
  const services = mergedServices(call.files.length > 0 ? call.files.map((file) => v.context?.composeServices(file, v.cwd) ?? []) : [v.context?.composeServices(null, v.cwd) ?? []]);
  const named = call.services.length > 0 ? services.filter((s) => call.services.includes(s.name)) : services;
  const withImage = named.filter((s) => s.image);
  return withImage.find((s) => frameworkIn(s.image as string)?.kind === 'framework') ?? withImage[0] ?? null;
}

function composeServe(service: ComposeService): Extracted {
  const image = service.image as string;
  const framework = frameworkIn(service.command.join(' ')) ?? frameworkIn(image);
  const model = optionValue(service.command, framework?.modelOptions ?? ['--model', '--model-path', '--model-id']);
  return {
    subject: imageDisplayName(image),
    subjectKind: 'image',
    image,
    service: service.name,
    model,
    port: service.ports[0] ?? null,
    framework: framework?.id ?? null,
    config: joinShapes(serveShape(service.command, framework), envShape(service.environment, framework)),
    options: launchOptions(service.command, framework),
  };
}

const KUBECTL_WITH_VALUE = new Set(['-n', '--namespace', '--context', '-c', '--container', '-l', '--selector', '--image', '--overrides', '--kubeconfig', '-o', '--output', '--restart', '--field-selector', '--tail', '--since']);

/** `kubectl` without its global options: the subcommand and the rest. */
function kubectlArgs(v: CommandView): string[] | null {
  if (v.program !== 'kubectl' && v.program !== 'oc') return null;
  const args: string[] = [];
  for (let i = 0; i < v.args.length; i++) {
    const arg = v.args[i] as string;
    if ((arg === '-n' || arg === '--namespace' || arg === '--context' || arg === '--kubeconfig') && args.length === 0) {
      i += 1;
      continue;
    }
    if (args.length === 0 && (arg.startsWith('--namespace=') || arg.startsWith('--context='))) continue;
    args.push(arg);
  }
  return args;
}

function imageServe(image: string, kind: 'serve' | 'probe', service: string | null): Extracted {
  return { kind, subject: imageDisplayName(image), subjectKind: 'image', image, service, framework: frameworkIn(image)?.id ?? null };
}

export const ORCHESTRATION_RULES: readonly Rule[] = [
  {
    name: 'compose-pull',
    kind: 'pull',
    description: '`docker compose pull [SERVICE]`: pulls the image its compose file names',
    match: (v) => {
      const call = composeCall(v);
      if (call?.sub !== 'pull') return null;
      const service = composeTarget(v, call);
      if (!service?.image) return null;
      return { subject: imageDisplayName(service.image), subjectKind: 'image', image: service.image, service: service.name, framework: frameworkIn(service.image)?.id ?? null };
    },
  },
  {
    name: 'compose-serve',
    kind: 'serve',
    description: '`docker compose up|start|restart|run [SERVICE]` of a service whose image the compose file names',
    match: (v) => {
      const call = composeCall(v);
      if (!call || !/^(?:up|start|restart|run|create)$/.test(call.sub)) return null;
      const service = composeTarget(v, call);
      return service?.image ? composeServe(service) : null;
    },
  },
  {
    name: 'compose-logs',
    kind: 'inspect',
    description: '`docker compose logs|ps [SERVICE]`: looking at a service, whose image the compose file names',
    match: (v) => {
      const call = composeCall(v);
      if (!call || !/^(?:logs|ps|top|events)$/.test(call.sub)) return null;
      const service = composeTarget(v, call);
      return service?.image ? { subject: service.name, subjectKind: 'service', service: service.name, image: service.image } : null;
    },
  },
  {
    name: 'manifest-apply',
    kind: 'serve',
    description: '`kubectl apply|create -f FILE` / `-k DIR`: runs the images of the manifests the session wrote there',
    match: (v) => {
      const args = kubectlArgs(v);
      if (!args || !/^(?:apply|create|replace)$/.test(args[0] ?? '')) return null;
      const file = optionValue(args, ['-f', '--filename']);
      const dir = optionValue(args, ['-k', '--kustomize']);
      const target = file ?? dir;
      // `kubectl apply` without -f/-k (a kustomization in the cwd, `--prune`, `view-last-applied`) names no file.
      if (target === null) return null;
      const images = v.context?.manifestImages(target, dir !== null) ?? [];
      if (images.length === 0) return null;
      const image = images.find((i) => frameworkIn(i)?.kind === 'framework') ?? (images[0] as string);
      return imageServe(image, 'serve', null);
    },
  },
  {
    name: 'kubectl-set-image',
    kind: 'serve',
    description: '`kubectl set image deploy/X CONTAINER=IMAGE`: rolls the workload to another image',
    match: (v) => {
      const args = kubectlArgs(v);
      if (!args || args[0] !== 'set' || args[1] !== 'image') return null;
      const assignment = positionals(args.slice(2), KUBECTL_WITH_VALUE).find((a) => a.includes('='));
      const image = assignment?.slice(assignment.indexOf('=') + 1);
      return image ? imageServe(image, 'serve', positionals(args.slice(2), KUBECTL_WITH_VALUE)[0] ?? null) : null;
    },
  },
  {
    name: 'kubectl-run',
    kind: 'probe',
    description: '`kubectl run NAME --image=IMAGE`: a one-off pod (`--rm -i`) probes the image, a lasting one serves it',
    match: (v) => {
      const args = kubectlArgs(v);
      if (!args || args[0] !== 'run') return null;
      const image = optionValue(args, ['--image']);
      if (!image) return null;
      return imageServe(image, args.includes('--rm') ? 'probe' : 'serve', positionals(args.slice(1), KUBECTL_WITH_VALUE)[0] ?? null);
    },
  },
  {
    name: 'workload-inspect',
    kind: 'inspect',
    description: '`kubectl logs|describe` of a workload, `kubectl rollout status`: looking at the image applied last',
    match: (v) => {
      const args = kubectlArgs(v);
      if (!args || !(/^(?:logs|describe)$/.test(args[0] ?? '') || (args[0] === 'rollout' && args[1] === 'status'))) return null;
      if (args[0] === 'describe' && /^(?:nodes?|no|pvc|secrets?|svc|services?)$/.test(args[1] ?? '')) return null;
      const image = v.context?.currentWorkloadImage() ?? null;
      return image ? { subject: imageDisplayName(image), subjectKind: 'image', image } : null;
    },
  },
];
