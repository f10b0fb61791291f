import { compileLinear } from '../../core/regex/linear-regex.js';
import { appleScripts } from './destructive.js';
import { changedDirectory, type Leaf } from './leaves.js';
import { redirectTargets } from './lookups.js';
import type { Unit } from './units.js';

/**
 * What a stop or removal is aimed at, and whether the session itself made that thing: a container
 * it ran, a unit file it wrote, a process it started in the background, a PID one of those printed,
 * a directory it filled. Stopping what the session made is clean-up of an attempt; stopping what
 * was there before (the services that held the GPU) is part of the deployment. Pure.
 */

export type TargetKind = 'container' | 'image' | 'service' | 'process' | 'pid' | 'path' | 'compose' | 'k8s' | 'other';

export interface Target {
  kind: TargetKind;
  name: string;
  host: string | null;
}

const OUTPUT_OPTION = /^--?(?:o|out|output|output[-_]dir|output[-_]path|output[-_]file|local[-_]dir|dest|destination|target[-_]dir|save[-_]dir|engine[-_]dir|checkpoint[-_]dir)$/;

function positionals(argv: readonly string[], from: number): string[] {
  return argv.slice(from).filter((word) => !word.startsWith('-'));
}

function resolve(path: string, cwd: string | null): string {
  return changedDirectory(cwd, path) ?? path;
}

export function targetsOf(leaf: Leaf, host: string | null): Target[] {
  const { program, argv } = leaf.command;
  const at = (kind: TargetKind, names: readonly string[]): Target[] => names.filter(Boolean).map((name) => ({ kind, name, host }));
  if (/^(?:docker|podman|nerdctl)$/.test(program)) {
    const sub = argv[1] === 'container' || argv[1] === 'image' ? argv[2] : argv[1];
    const from = argv[1] === 'container' || argv[1] === 'image' ? 3 : 2;
    if (sub === 'compose' || argv[1] === 'compose') return at('compose', [leaf.cwd ?? '.']);
    if (argv.includes('prune')) return at('image', ['prune']);
    if (sub === 'rmi' || (argv[1] === 'image' && sub === 'rm')) return at('image', positionals(argv, from));
    if (sub === 'rm' || sub === 'stop' || sub === 'kill') return at('container', positionals(argv, from).filter((w) => !/^\d+$/.test(w)));
  }
  if (program === 'docker-compose') return at('compose', [leaf.cwd ?? '.']);
  if (program === 'systemctl') return at('service', positionals(argv, 2).map((name) => name.replace(/\.service$/, '')));
  if (program === 'service') return at('service', [argv[1] ?? '']);
  if (program === 'pkill') return at('process', [argv.slice(1).filter((w) => !w.startsWith('-')).at(-1) ?? '']);
  if (program === 'killall') return at('process', positionals(argv, 1));
  if (program === 'kill') return at('pid', positionals(argv, 1).flatMap((w) => (/^\d+$/.test(w) ? [w] : pidFileOf(w, leaf.cwd))));
  if (program === 'rm' || program === 'rmdir') return at('path', positionals(argv, 1).map((p) => resolve(p, leaf.cwd)));
  if (program === 'osascript') {
    // `tell application "Ollama" to quit` stops a process; `delete login item "Ollama"` what starts it.
    return appleScripts(argv).flatMap((script) => {
      const name = /"([^"]+)"\s*(?:to\s+quit)?\s*$/.exec(script)?.[1] ?? '';
      return name ? [{ kind: /\bquit\b/.test(script) ? 'process' : 'other', name, host } satisfies Target] : [];
    });
  }
  // `ollama stop M` unloads a model from the ollama service; `ollama rm M` deletes a model it had.
  if (program === 'ollama' && argv[1] === 'stop') return at('service', ['ollama']);
  if (program === 'ollama' && argv[1] === 'rm') return at('image', positionals(argv, 2));
  if (program === 'ray' && argv[1] === 'stop') return at('process', ['ray']);
  if (program === 'kubectl' || program === 'helm') return at('k8s', kubernetesObjects(leaf));
  return at('other', positionals(argv, 2));
}

/**
 * What a kubectl or helm command creates or deletes: `-k DIR` / `-f FILE` manifests (by their path),
 * `TYPE NAME` objects, a helm release.
 */
export function kubernetesObjects(leaf: Leaf): string[] {
  const { program, argv } = leaf.command;
  const found: string[] = [];
  for (let i = 1; i < argv.length; i += 1) {
    if ((argv[i] === '-k' || argv[i] === '-f' || argv[i] === '--kustomize' || argv[i] === '--filename') && argv[i + 1]) found.push(`manifest:${resolve(argv[i + 1] as string, leaf.cwd)}`);
  }
  const words: string[] = [];
  for (let i = 1; i < argv.length; i += 1) {
    const word = argv[i] as string;
    if (word.startsWith('-')) {
      if (!word.includes('=') && /^-(?:n|k|f|l|o|c)$|^--(?:namespace|context|kubeconfig|selector|output|filename|kustomize)$/.test(word)) i += 1;
      continue;
    }
    words.push(word);
  }
  const [verb, ...rest] = words;
  if (program === 'helm' && /^(?:install|upgrade|uninstall|delete)$/.test(verb ?? '')) found.push(`release:${rest[0] ?? ''}`);
  if (program === 'kubectl' && /^(?:create|delete)$/.test(verb ?? '') && rest.length > 0) {
    const kind = rest[0] === 'secret' || rest[0] === 'configmap' ? rest[0] : (rest[0] ?? '');
    const name = rest[0] === 'secret' && rest.length > 2 ? rest[2] : rest[1];
    if (name) found.push(`${kind.split('/')[0]}/${name}`);
    else if (kind.includes('/')) found.push(kind);
  }
  return found;
}

/** Paths a command writes into: `--output_dir X`, `-o X`, `--local-dir X`, `mkdir X`, a clone's folder. */
export function outputsOf(leaf: Leaf): string[] {
  const { program, argv } = leaf.command;
  const found: string[] = [];
  for (let i = 1; i < argv.length; i += 1) {
    const word = argv[i] as string;
    const eq = /^(--?[\w-]+)=(.+)$/.exec(word);
    if (eq && OUTPUT_OPTION.test(eq[1] as string)) found.push(eq[2] as string);
    else if (OUTPUT_OPTION.test(word) && argv[i + 1]) found.push(argv[i + 1] as string);
  }
  if (program === 'mkdir') found.push(...positionals(argv, 1));
  // A virtual environment's folder: `python -m venv D`, `virtualenv D`, `uv venv D`, `conda create -p D`.
  if (/^python[\d.]*$/.test(program) && argv[1] === '-m' && (argv[2] === 'venv' || argv[2] === 'virtualenv')) found.push(...positionals(argv, 3).slice(0, 1));
  if (program === 'virtualenv' || (program === 'uv' && argv[1] === 'venv')) found.push(...positionals(argv, program === 'uv' ? 2 : 1).slice(0, 1));
  if (/^(?:conda|mamba|micromamba)$/.test(program) && argv[1] === 'create') {
    const at = argv.findIndex((w) => w === '-p' || w === '--prefix');
    if (at > 0 && argv[at + 1]) found.push(argv[at + 1] as string);
  }
  // `hf download REPO FILE… --local-dir D`: each file under D, so removing one of them later marks this download.
  if ((program === 'hf' || program === 'huggingface-cli') && argv[1] === 'download') {
    const at = argv.findIndex((w) => w === '--local-dir' || w.startsWith('--local-dir='));
    const option = at > 0 ? (argv[at] as string) : '';
    const dir = at > 0 ? (option.includes('=') ? option.slice(option.indexOf('=') + 1) : argv[at + 1]) : undefined;
    const files = positionals(argv, 3).filter((w) => w !== dir && /\.[A-Za-z0-9]+$/.test(w) && !w.includes('*'));
    if (dir) found.push(...files.map((file) => `${dir.replace(/\/$/, '')}/${file}`));
  }
  if (program === 'git' && argv[1] === 'clone') {
    const rest = positionals(argv, 2);
    found.push(rest[1] ?? (rest[0] ?? '').replace(/\.git$/, '').split('/').pop() ?? '');
  }
  return found.filter(Boolean).map((path) => resolve(path, leaf.cwd));
}

/** `$(cat FILE)` (or `"$(< FILE)"`): a PID kept in a file, named by that file. */
function pidFileOf(word: string, cwd: string | null): string[] {
  const file = /^"?\$\((?:cat\s+|<\s*)([^\s()]+)\)"?$/.exec(word)?.[1];
  return file ? [`file:${resolve(file, cwd)}`] : [];
}

/** `echo $! > FILE` in a command line: the PID of what it started in the background, kept in FILE. */
function pidFilesWritten(unit: Unit): string[] {
  return unit.leaves.filter((leaf) => /^(?:echo|printf)$/.test(leaf.command.program) && leaf.command.argv.some((w) => /\$!/.test(w)))
    .flatMap((leaf) => redirectTargets(leaf.command).map((file) => `file:${resolve(file, leaf.cwd)}`));
}

/** PIDs an output shows for a process started in the background: `[1] 4242`, an `echo $!` line. */
function printedPids(output: string): string[] {
  return [...output.matchAll(/^(?:\[\d+\]\s+)?(\d{2,7})\s*$/gm), ...output.matchAll(/\bpid[ =:]+(\d{2,7})\b/gi)].map((m) => m[1] as string);
}

/** A line that is a full container id, as `docker run -d` prints it. */
const CONTAINER_ID_LINE = /^[0-9a-f]{64}$/m;

/**
 * A unit that made a container without naming it on its own line: it printed a new container's id
 * but ran no `docker run` itself (a launcher script, a make target). Which container it was shows
 * only later, when a step uses or removes it by name.
 */
function madeUnseenContainer(unit: Unit): boolean {
  return CONTAINER_ID_LINE.test(unit.call.output) && !unit.leaves.some((leaf) => leaf.command.dockerRun !== null);
}

/** The things units made, in order, for telling clean-up from set-up. */
export class Creations {
  private readonly made: { target: Target; unit: Unit; text?: string }[] = [];
  /** Units that made a container whose name their line does not show (see madeUnseenContainer). */
  private readonly unseen: Unit[] = [];

  /** `units`: every unit of the session in order, to tell whether a name was in use before a launcher ran. */
  constructor(private readonly unitFiles: ReadonlySet<string>, private readonly home: string | null = null, private readonly units: readonly Unit[] = []) {}

  /** The unit made a container it did not name (a launcher script printed its id). */
  madeUnseen(unit: Unit): boolean {
    return this.unseen.includes(unit);
  }

  /**
   * The launcher that made container `name` on `host` before `before`: the latest one there, when
   * nothing on that host named the container before the first launcher ran (else it was there already).
   */
  private unseenMaker(name: string, host: string | null, before: number): Unit | null {
    const launchers = this.unseen.filter((unit) => unit.segment.host === host && unit.order < before);
    const [first] = launchers;
    if (!first) return null;
    const earlier = this.units.filter((unit) => unit.segment.host === host && unit.order < first.order);
    return earlier.some((unit) => namesWord(unit.segment.command, name)) ? null : (launchers.at(-1) ?? null);
  }

  /** Every unit that may have made what a removal of `target` before `before` stops (a container: its run and its launcher). */
  makersOf(target: Target, before = Infinity): Unit[] {
    const maker = this.maker(target, before);
    const launcher = target.kind === 'container' ? this.unseenMaker(target.name, target.host, before) : null;
    return [...new Set([maker, launcher].filter((unit): unit is Unit => unit !== null))];
  }

  /** A command line with `~/` written out, as `ps` and `pkill -f` see it. */
  private expanded(text: string, host: string | null): string {
    return host === null && this.home ? text.replace(/(^|\s)~\//g, `$1${this.home}/`) : text;
  }

  /** Records only the containers and compose projects a unit made (one whose service failed inside them). */
  learnContainers(unit: Unit): void {
    const host = unit.segment.host;
    for (const leaf of unit.changes) {
      const { program, argv, dockerRun } = leaf.command;
      if (dockerRun?.name && dockerRun.detached) this.made.push({ target: { kind: 'container', name: dockerRun.name, host }, unit });
      if ((program === 'docker' && argv[1] === 'compose' && argv.includes('up')) || (program === 'docker-compose' && argv.includes('up'))) {
        this.made.push({ target: { kind: 'compose', name: leaf.cwd ?? '.', host }, unit });
      }
    }
  }

  /** Records what a unit (that ran) made. */
  learn(unit: Unit): void {
    const host = unit.segment.host;
    if (madeUnseenContainer(unit)) this.unseen.push(unit);
    for (const leaf of unit.changes) {
      const run = leaf.command.dockerRun;
      if (run?.name) this.made.push({ target: { kind: 'container', name: run.name, host }, unit });
      const { program, argv } = leaf.command;
      if ((program === 'docker' && argv[1] === 'compose' && argv.includes('up')) || (program === 'docker-compose' && argv.includes('up'))) {
        this.made.push({ target: { kind: 'compose', name: leaf.cwd ?? '.', host }, unit });
      }
      if (leaf.command.background || leaf.command.wrappers.includes('nohup') || leaf.inContainer !== null) {
        const text = this.expanded(leaf.command.argv.join(' '), host);
        this.made.push({ target: { kind: 'process', name: text, host }, unit, text });
        if (leaf.inContainer !== null) this.made.push({ target: { kind: 'container', name: leaf.inContainer, host }, unit });
      }
      for (const path of outputsOf(leaf)) this.made.push({ target: { kind: 'path', name: path, host }, unit });
      if ((program === 'kubectl' && /^(?:apply|create)$/.test(argv.find((w, i) => i > 0 && !w.startsWith('-') && !/^-/.test(argv[i - 1] ?? '')) ?? '')) || (program === 'helm' && /^(?:install|upgrade)$/.test(argv[1] ?? ''))) {
        for (const object of kubernetesObjects(leaf)) this.made.push({ target: { kind: 'k8s', name: object, host }, unit });
      }
    }
    if (unit.leaves.some((leaf) => leaf.command.background || leaf.command.wrappers.includes('nohup'))) {
      for (const pid of [...printedPids(unit.call.output), ...pidFilesWritten(unit)]) this.made.push({ target: { kind: 'pid', name: pid, host }, unit });
    }
  }

  /** The unit that made what this target names, or null when it was there before the session. */
  maker(target: Target, before = Infinity): Unit | null {
    // The latest maker before the removal: a container made twice is removed as its second self.
    const sameHost = this.made.filter((m) => m.target.host === target.host && m.unit.order < before).reverse();
    switch (target.kind) {
      case 'container': {
        // Named by its run (or an exec in it), or made by a launcher script: the later of the two.
        const named = sameHost.find((m) => m.target.kind === 'container' && m.target.name === target.name)?.unit ?? null;
        const launcher = this.unseenMaker(target.name, target.host, before);
        return named && launcher ? (named.order > launcher.order ? named : launcher) : (named ?? launcher);
      }
      case 'compose':
      case 'pid':
      case 'k8s':
        return sameHost.find((m) => m.target.kind === target.kind && m.target.name === target.name)?.unit ?? null;
      case 'service':
        return this.unitFiles.has(`${target.host ?? ''}\u0000${target.name}`) ? (sameHost[0]?.unit ?? null) : null;
      case 'process':
        return sameHost.find((m) => m.target.kind === 'process' && processMatches(target.name, m.text ?? ''))?.unit ?? null;
      case 'path':
        return sameHost.find((m) => m.target.kind === 'path' && (m.target.name === target.name || m.target.name.startsWith(`${target.name}/`)))?.unit ?? null;
      case 'image':
        return null;
      case 'other':
        return sameHost.find((m) => m.unit.segment.command.split(/[\s'"=]+/).includes(target.name))?.unit ?? null;
    }
  }

  /** Units whose output paths a removal of `path` deletes. */
  makersOfPath(path: string, host: string | null, before: number): Unit[] {
    return this.made.filter((m) => m.target.kind === 'path' && m.target.host === host && m.unit.order < before && (m.target.name === path || m.target.name.startsWith(`${path}/`))).map((m) => m.unit);
  }
}

/** `command` has `word` as a whole word (not inside a longer name or path). */
export function namesWord(command: string, word: string): boolean {
  for (let at = command.indexOf(word); at >= 0; at = command.indexOf(word, at + 1)) {
    if (!/[\w.-]/.test(command[at - 1] ?? ' ') && !/[\w.-]/.test(command[at + word.length] ?? ' ')) return true;
  }
  return false;
}

/** Does `pkill -f PATTERN` (an extended regex) match a command line? Literal containment when it cannot be compiled. */
export function processMatches(pattern: string, commandLine: string): boolean {
  if (pattern === '') return false;
  try {
    return compileLinear(pattern).test(commandLine);
  } catch {
    return commandLine.includes(pattern);
  }
}
