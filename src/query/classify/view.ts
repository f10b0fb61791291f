import type { DockerRun } from '../shell/index.js';
import type { ActionKind } from './kinds.js';

/** What a rule sees of one command (or of a tool call that is not a shell command). */
export interface CommandView {
  /** The tool that ran it (`bash`, `Bash`, `shell`, `exec_command`, `exa_web_search_exa`, `WebFetch`…). */
  tool: string;
  /** The tool's input JSON, for tools that are not shell commands. */
  input: string;
  program: string;
  argv: readonly string[];
  args: readonly string[];
  text: string;
  env: Readonly<Record<string, string>>;
  pythonBody: string | null;
  pipelinePosition: number;
  dockerRun: DockerRun | null;
  carrier: string | null;
  /** The container a `docker exec` runs in. */
  execContainer: string | null;
  /** How the command carried by `docker run` / `docker exec` was classified. */
  inner: RuleMatch | null;
  /** The directory an earlier `cd` in the same call moved to. */
  cwd: string | null;
  /** What the session has learned so far (compose files, manifests), when the classifier has it. */
  context: ClassifyContext | null;
}

/** A compose service as its file declares it. */
export interface ComposeService {
  name: string;
  image: string | null;
  command: string[];
  environment: Record<string, string>;
  /** Host ports it publishes (`"8001:8000"` → 8001). */
  ports: number[];
}

/** Session knowledge a rule may consult: the files the session wrote or read. */
export interface ClassifyContext {
  /** The services of the compose file a `docker compose` command means (`-f FILE`, or the one in `cwd`). */
  composeServices(file: string | null, cwd: string | null): ComposeService[];
  /** The text of the latest known file of one of these names (in `cwd` first), or null: a config file a launch reads. */
  configFileText(names: readonly string[], cwd: string | null): string | null;
  /** The command a service the session wrote or read starts, by unit name or property list: a systemd unit's last `ExecStart=`, a launchd plist's `ProgramArguments`. */
  unitCommand(unit: string): string | null;
  /** The commands of a shell script the session read or wrote (from its `#!` line on), by the path it is run by, or null. */
  scriptText(path: string, cwd: string | null): string | null;
  /** The images the manifests at a path (`kubectl apply -f FILE` / `-k DIR`) run. */
  manifestImages(path: string, directory: boolean): string[];
  /** The image of the workload a `kubectl logs|describe` looks at (the one applied or set last). */
  currentWorkloadImage(): string | null;
  /** The spec of a package of no known framework installed earlier in the session whose program or module this is (`fastllm-serve` → `fastllm-serve==1.4.0`). */
  installedPackage(program: string): string | null;
}

export type SubjectKind = 'image' | 'model' | 'service' | 'container' | 'host' | 'url' | 'query' | 'package' | 'repository' | 'path';

/** What a rule extracted: the subject and the names around it. */
export interface RuleMatch {
  kind: ActionKind;
  rule: string;
  subject: string | null;
  subjectKind: SubjectKind | null;
  image?: string | null;
  model?: string | null;
  service?: string | null;
  port?: number | null;
  /** For health checks: the host the URL names, when it is not the machine the command ran on. */
  targetHost?: string | null;
  framework?: string | null;
  /** Serving shape flags (`--tp 16 --nnodes 2`): what tells two launches of one image apart. */
  config?: string | null;
  /** A launch's or build's other options (`--max-model-len 16384`, `-DCMAKE_CUDA_ARCHITECTURES=87`): an approach when they change between launches. */
  options?: string | null;
  /** For a build step: the program, module or script it ran (`trtllm-build`, `quantize.py`), to tell a rebuild from the next step. */
  step?: string | null;
  packages?: string[];
}

export type Extracted = Omit<RuleMatch, 'kind' | 'rule'> & { kind?: ActionKind };

/** A named, tested rule: first match in table order wins; `kind: null` means "not an action". */
export interface Rule {
  name: string;
  kind: ActionKind | null;
  description: string;
  match: (view: CommandView) => Extracted | null;
}

/** The value of an option given as `--name value`, `--name=value` or `-n value`. */
export function optionValue(args: readonly string[], names: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    for (const name of names) {
      if (arg === name) return args[i + 1] ?? null;
      if (name.startsWith('--') && arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
    }
  }
  return null;
}

/** Positional arguments, skipping options and the values of the options listed as taking one. */
export function positionals(args: readonly string[], withValue: ReadonlySet<string> = new Set()): string[] {
  const found: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      found.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('-') && arg !== '-') {
      if (!arg.includes('=') && withValue.has(arg)) i += 1;
      continue;
    }
    found.push(arg);
  }
  return found;
}

export const NOT_AN_ACTION: Extracted = { subject: null, subjectKind: null };
