import type { Leaf } from './leaves.js';
import { kubernetesObjects } from './removals.js';
import type { Unit } from './units.js';

/**
 * What action a changing command performs, as a key two attempts share: the container it runs
 * (`docker run --name X` twice is one action, retried), the service it (re)starts, the compose
 * project it brings up, the program it leaves running, the package it installs, the image it pulls,
 * or the command's own words where it is none of those. A restart, a re-creation or a reconfigure
 * counts in its last working form; an install, a pull, a download or a clone is done by its first
 * success and a repeat is a no-op. Pure.
 */

export type Mode = 'last' | 'first';

export interface Identity {
  key: string;
  mode: Mode;
  /** It leaves something running: a container, a service, a server. */
  starts: boolean;
}

function words(argv: readonly string[], from: number): string[] {
  return argv.slice(from).filter((word) => !word.startsWith('-'));
}

/** Options of `docker compose` (before or after the verb) that take a value. */
const COMPOSE_VALUE_OPTIONS = new Set(['-f', '--file', '-p', '--project-name', '--env-file', '--profile', '--project-directory', '--ansi', '--progress', '--parallel', '-t', '--timeout', '--scale', '--pull', '--wait-timeout']);

/** The verb and services of a compose command line, without its options and their values. */
export function composeWords(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as string;
    if (word.startsWith('-')) {
      if (!word.includes('=') && COMPOSE_VALUE_OPTIONS.has(word)) i += 1;
      continue;
    }
    out.push(word);
  }
  return out;
}

/**
 * What an unnamed container runs, as its action: `python3 …/convert_checkpoint.py` and
 * `trtllm-build` in one image are two steps, two tries of `convert_checkpoint.py` one.
 */
function innerProgram(command: readonly string[]): string {
  const positional = command.filter((word) => !word.startsWith('-'));
  const base = (word: string | undefined): string => (word ?? '').split('/').pop() ?? '';
  const program = base(positional[0]);
  return /^python[\d.]*$/.test(program) ? `${program} ${base(positional[1])}` : program;
}

function leafIdentity(leaf: Leaf, host: string | null): Identity | null {
  const { program, argv, dockerRun } = leaf.command;
  const at = `${host ?? ''}|`;
  if (dockerRun) return { key: `${at}container:${dockerRun.name ?? `${dockerRun.image}:${innerProgram(dockerRun.command)}`}`, mode: 'last', starts: dockerRun.detached || dockerRun.name !== null };
  if (leaf.inContainer !== null && (leaf.command.background || /serve|server|launch/.test(argv.slice(0, 3).join(' ')))) {
    return { key: `${at}exec:${leaf.inContainer}:${program} ${words(argv, 1)[0] ?? ''}`, mode: 'last', starts: true };
  }
  if (leaf.command.background || leaf.command.wrappers.includes('nohup')) return { key: `${at}process:${program} ${words(argv, 1)[0] ?? ''}`, mode: 'last', starts: true };
  const compose = program === 'docker' && argv[1] === 'compose' ? argv.slice(2) : program === 'docker-compose' ? argv.slice(1) : null;
  if (compose) {
    const positional = composeWords(compose);
    const verb = positional[0] ?? '';
    const services = positional.slice(1).sort().join(',');
    if (/^(?:up|start|restart)$/.test(verb)) return { key: `${at}compose-up:${leaf.cwd ?? ''}:${services}`, mode: 'last', starts: true };
    if (verb === 'pull') return { key: `${at}compose-pull:${leaf.cwd ?? ''}:${services}`, mode: 'first', starts: false };
    return { key: `${at}compose-${verb}:${leaf.cwd ?? ''}:${services}`, mode: 'last', starts: false };
  }
  if (program === 'systemctl' || program === 'launchctl') {
    const [verb, ...units] = words(argv, 1);
    const unit = units.map((u) => u.replace(/\.service$/, '')).sort().join(',');
    const user = argv.includes('--user') ? 'user:' : '';
    if (/^(?:start|restart|reload|enable|load|bootstrap|kickstart)$/.test(verb ?? '')) return { key: `${at}service:${user}${unit || verb}`, mode: 'last', starts: true };
    return { key: `${at}service-${verb}:${user}${unit}`, mode: 'last', starts: false };
  }
  if ((program === 'kubectl' || program === 'helm') && argv.some((w) => /^(?:apply|create|install|upgrade)$/.test(w))) {
    return { key: `${at}k8s:${kubernetesObjects(leaf).join(',') || words(argv, 1).join(' ')}`, mode: 'last', starts: true };
  }
  if (/^(?:docker|podman|nerdctl)$/.test(program) && argv[1] === 'pull') return { key: `${at}pull:${words(argv, 2)[0] ?? ''}`, mode: 'first', starts: false };
  const pip = /^pip[\d.]*$/.test(program) ? argv.slice(1) : /^python[\d.]*$/.test(program) && argv[1] === '-m' && /^pip/.test(argv[2] ?? '') ? argv.slice(3) : program === 'uv' && argv[1] === 'pip' ? argv.slice(2) : null;
  if (pip && pip[0] === 'install') return { key: `${at}install:${words(pip, 1).filter((w) => !/^https?:/.test(w)).sort().join(' ')}`, mode: 'first', starts: false };
  if (/^(?:apt|apt-get|dnf|yum|brew|apk|snap|conda|mamba|pipx)$/.test(program) && argv.includes('install')) return { key: `${at}install:${words(argv, argv.indexOf('install') + 1).sort().join(' ')}`, mode: 'first', starts: false };
  if (/^(?:hf|huggingface-cli|ollama)$/.test(program) && /^(?:download|pull)$/.test(argv[1] ?? '')) return { key: `${at}download:${words(argv, 2).join(' ')}`, mode: 'first', starts: false };
  if (program === 'git' && argv[1] === 'clone') return { key: `${at}clone:${words(argv, 2)[0] ?? ''}`, mode: 'first', starts: false };
  if (program === 'mkdir' || program === 'ln' || program === 'chmod' || program === 'chown' || program === 'useradd' || program === 'usermod') {
    return { key: `${at}${leaf.cwd ?? ''}:${argv.join(' ')}`, mode: 'first', starts: false };
  }
  return { key: `${at}${leaf.cwd ?? ''}:${program} ${words(argv, 1).join(' ')}`, mode: 'last', starts: false };
}

/**
 * A server is the port it listens on: `mlc_llm serve A --port 8080` and a later `nohup mlc_llm
 * serve B --port 8080 &` are two tries of one service, whatever model or wrapper each used.
 */
function listening(unit: Unit): { port: number; program: string } | null {
  const serve = unit.segment.actions.find((a) => a.kind === 'serve' && a.port !== null);
  if (!serve || serve.port === null) return null;
  const program = (serve.command.split(/\s+/)[0] ?? '').split('/').pop() ?? '';
  return { port: serve.port, program };
}

export function identitiesOf(unit: Unit): Identity[] {
  const found = new Map<string, Identity>();
  const server = listening(unit);
  if (server) found.set(`${unit.segment.host ?? ''}|listen:${server.port}`, { key: `${unit.segment.host ?? ''}|listen:${server.port}`, mode: 'last', starts: true });
  for (const leaf of unit.changes) {
    // The server itself is its port (above); a container that carries it keeps its own name too.
    if (server && !leaf.command.dockerRun && (leaf.command.program === server.program || leaf.command.argv.join(' ').includes(`${server.program} `))) continue;
    const identity = leafIdentity(leaf, unit.segment.host);
    if (identity && !found.has(identity.key)) found.set(identity.key, identity);
  }
  return [...found.values()];
}

/** Every action of `earlier` is one `later` performs again. */
export function coveredBy(earlier: readonly Identity[], later: readonly Identity[]): boolean {
  if (earlier.length === 0 || later.length === 0) return false;
  const keys = new Set(later.map((i) => i.key));
  return earlier.every((identity) => keys.has(identity.key));
}

export function modeOf(identities: readonly Identity[]): Mode {
  return identities.some((identity) => identity.mode === 'last') ? 'last' : 'first';
}

export function startsSomething(identities: readonly Identity[]): boolean {
  return identities.some((identity) => identity.starts);
}
