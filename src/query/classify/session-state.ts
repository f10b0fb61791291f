import type { ParsedCommand } from '../shell/index.js';
import { SessionContext } from './context.js';
import type { ContainerMap } from './containers.js';
import { frameworkById, frameworks } from './names.js';
import { hostArchitecture, type Architecture } from './platforms.js';
import { joinShapes } from './shape.js';
import type { ActionRecord } from './session.js';

/**
 * The session state the classifier keeps beside the container map, for what one command means
 * to a later one:
 * - files read, written and edited (compose files, manifests, Modelfiles) and `sed -i` on them;
 * - shape variables set for a service (a systemd override, `export`, `kubectl set env`): they hold
 *   for that framework's later launches on that host;
 * - the virtualenv a command runs from (`~/venvs/x/bin/python`, `VIRTUAL_ENV=…`), so a probe run
 *   with that env's Python belongs to what was installed into it;
 * - images committed from a container (`docker commit`), and models created from another
 *   (`ollama create NAME -f Modelfile` with `FROM base`).
 */
const ENV_ASSIGNMENT = /(?:^|[\s"'=;(])([A-Z][A-Z0-9_]*)=(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"';\\)]+))/g;
const SHELL_READ = /^(?:cat|sed)$/;
const FILE_LIKE = /(?:\.ya?ml|\.toml|\.json|\.conf|\.cfg|\.ini|\.env|\.sh|Modelfile[\w.-]*)$/;

function envShapeNames(): Map<string, string> {
  const names = new Map<string, string>();
  for (const framework of frameworks()) for (const [, list] of framework.shapeOptions) for (const name of list) if (/^[A-Z][A-Z0-9_]*$/.test(name)) names.set(name, framework.id);
  return names;
}

/** The root of the virtualenv or conda env a command's program lives in, or that `VIRTUAL_ENV` names. */
export function envRootOf(command: ParsedCommand): string | null {
  const program = command.argv[0] ?? '';
  const inBin = /^(.+?)\/bin\/[^/]+$/.exec(program);
  if (inBin && !/^\/(?:usr|bin|sbin|opt\/homebrew)(?:\/local)?$/.test(inBin[1] as string)) return (inBin[1] as string).replace(/^\/home\/[^/]+\//, '~/');
  const named = command.env['VIRTUAL_ENV'] ?? command.env['CONDA_PREFIX'];
  return named ? named.replace(/^\/home\/[^/]+\//, '~/') : null;
}

export class SessionState {
  readonly context = new SessionContext();
  /** Shape variables per host ('' for local), by framework id. */
  private readonly stickyEnv = new Map<string, Map<string, Map<string, string>>>();
  /** `ollama create NAME` → the model it was made FROM. */
  private readonly modelBases = new Map<string, string>();
  /** The engine a call's docker commands talk to (`DOCKER_HOST=ssh://ml@10.20.6.5`). */
  private dockerHost: string | null = null;

  observeTool(tool: string, input: string, output: string | null): void {
    this.context.files.observeTool(tool, input, output);
  }

  /** Learns from a shell command line before its commands are classified. */
  /** What each host is (`uname -m`): a manifest offering nothing for it is an image that cannot run there. */
  private readonly architectures = new Map<string, Architecture>();

  architectureOf(host: string | null): Architecture | null {
    return this.architectures.get(host ?? '') ?? null;
  }

  observeCommands(commands: readonly ParsedCommand[], text: string, output: string | null, host: string | null): void {
    const arch = hostArchitecture(commands, output);
    if (arch) this.architectures.set(host ?? '', arch);
    const real = commands.filter((c) => c.program !== '' && c.program !== 'cd' && c.program !== 'echo');
    // A whole-file read is the call's only command, or its last one (`ls -la ~/stack && cat ~/stack/compose.yml`):
    // then the output ends with the file, after what the commands before it printed (a compose file's
    // `image:` lines and a Modelfile's FROM are still read from it).
    const reader = real.at(-1);
    const readsAlone = reader !== undefined && (real.length === 1 || !real.slice(0, -1).some((c) => SHELL_READ.test(c.program)));
    // A script read last (`ls /srv; cat ~/run.sh`) is known from its `#!` line on, whatever the commands before it printed.
    const readsScript = reader?.program === 'cat' && reader.argv.length === 2 && /\.sh$/.test(reader.argv[1] ?? '') && /^#!/m.test(output ?? '');
    if (reader && (readsAlone || readsScript) && SHELL_READ.test(reader.program) && reader.pipelinePosition === 0 && reader.redirects.every((r) => !r.op.startsWith('>'))) {
      const files = reader.argv.slice(1).filter((a) => !a.startsWith('-') && FILE_LIKE.test(a));
      if (files.length === 1 && (reader.program === 'cat' || reader.argv.includes('-n'))) this.context.files.observeShellRead(files[0] as string, output);
    }
    if (reader && readsAlone && reader.program === 'grep' && reader.pipelinePosition === 0) {
      const files = reader.argv.slice(2).filter((a) => !a.startsWith('-') && FILE_LIKE.test(a));
      if (files.length === 1 && reader.argv.some((a) => /^-[a-zA-Z]*n/.test(a))) this.context.files.observeGrepLines(files[0] as string, output);
    }
    let cwd: string | null = null;
    for (const command of commands) {
      if (command.program === 'cd' && command.argv[1]) cwd = command.argv[1];
      // A checkout built in place (`cd ~/src/mistral.rs && cargo build --release`): its programs (`./target/release/mistralrs-server`)
      // are that project's, as an installed package's are; the project is called by its folder.
      const project = cwd ? builtProject(command, cwd) : null;
      if (project) for (const name of new Set([project, project.replace(/\./g, '')])) this.context.packageInstalled(name, project);
      // A file written from a here-document (`sudo tee /etc/systemd/system/x.service <<EOF`, `cat > f <<EOF`) is known like one written with a tool.
      if (command.stdin !== null) {
        const target = command.program === 'tee' ? command.argv.slice(1).find((a) => !a.startsWith('-')) : command.program === 'cat' ? command.redirects.find((r) => r.op === '>' || r.op === '>>')?.target : undefined;
        if (target) this.context.files.observeShellRead(target, command.stdin);
      }
      if (command.program === 'sed' && command.argv.some((a) => a === '-i' || a.startsWith('-i'))) {
        // Every script of `sed -i -e 's/a/b/' -e 's/c/d/' FILE`, in order.
        const scripts = command.argv.slice(1).filter((a) => /^s(.).+\1.*\1[gI]*$/.test(a));
        const file = command.argv.at(-1);
        if (file) for (const script of scripts) this.context.files.substitute(file, script);
      }
      if (command.program === 'ollama' && command.argv[1] === 'create' && command.argv[2]) {
        const file = command.argv[command.argv.indexOf('-f') + 1];
        const base = file ? this.context.files.find((p) => p === file || p.endsWith(`/${file.replace(/^~\//, '')}`))[0] : undefined;
        const from = base ? /^\s*FROM\s+(\S+)/im.exec(base.text)?.[1] : undefined;
        if (from) this.modelBases.set(command.argv[2], from);
      }
    }
    this.dockerHost = /DOCKER_HOST=["']?ssh:\/\/(?:[^@\s"']+@)?([^\s:;'"/]+)/.exec(text)?.[1] ?? null;
    const names = envShapeNames();
    // `NAME=value program …` sets the variable for that one command: it holds for no later launch.
    const oneShot = new Set(commands.filter((c) => c.program !== '' && c.program !== 'export').flatMap((c) => Object.entries(c.env).map(([name, value]) => `${name}=${value}`)));
    for (const match of text.matchAll(ENV_ASSIGNMENT)) {
      const name = match[1] as string;
      const framework = names.get(name);
      if (!framework || oneShot.has(`${name}=${(match[2] ?? match[3] ?? match[4]) as string}`)) continue;
      const perHost = this.stickyEnv.get(host ?? '') ?? new Map<string, Map<string, string>>();
      const env = perHost.get(framework) ?? new Map<string, string>();
      env.set(name, (match[2] ?? match[3] ?? match[4]) as string);
      perHost.set(framework, env);
      this.stickyEnv.set(host ?? '', perHost);
    }
  }

  /** What an emitted action owes to the state: its env, an image's origin, a model's base, its shape variables. */
  annotate(action: ActionRecord, command: ParsedCommand | null, containers: ContainerMap): void {
    if (command) action.envRoot = envRootOf(command);
    if (this.dockerHost && action.host === null && /^(?:compose-|container-|image-)/.test(action.rule)) action.dockerHost = this.dockerHost;
    if (action.rule === 'image-commit' && action.service) action.derivedFrom = containers.imageOf(action.host, action.service);
    if (action.model && this.modelBases.has(action.model)) action.baseModel = this.modelBases.get(action.model) ?? null;
    if (action.framework && /^(?:serve|start|cluster|build)$/.test(action.kind)) {
      const env = this.stickyEnv.get(action.host ?? '')?.get(action.framework);
      if (env && frameworkById(action.framework)) {
        const present = action.config ?? '';
        const extra = [...env].filter(([name]) => !present.includes(`${name}=`)).map(([name, value]) => `${name}=${value}`);
        action.config = joinShapes(action.config, extra.join(' '));
      }
    }
    if (action.image && action.kind === 'serve' && /^(?:manifest-apply|kubectl-set-image|kubectl-run|helm-release)$/.test(action.rule)) this.context.rolledTo(action.image);
    // A call that rolls the workload and then reads its logs reads the new image's logs.
    if (action.rule === 'workload-inspect') action.image = this.context.currentWorkloadImage() ?? action.image;
  }
}

/** Build tools that build the project in the current folder. */
const BUILDS_HERE: Readonly<Record<string, RegExp>> = { cargo: /^(?:build|install)$/, make: /^/, cmake: /^--build$/, go: /^build$/, ninja: /^/ };

/** The folder name of the project a build command builds where it runs, or null. */
function builtProject(command: ParsedCommand, cwd: string): string | null {
  const verb = BUILDS_HERE[command.program];
  if (!verb || !verb.test(command.argv[1] ?? '')) return null;
  const name = cwd.replace(/\/+$/, '').split('/').at(-1) ?? '';
  return /^[A-Za-z][\w.-]{2,}$/.test(name) && !/^(?:build|src|target|tmp|home)$/i.test(name) ? name : null;
}
