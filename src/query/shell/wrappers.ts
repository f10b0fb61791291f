/**
 * Peels what runs a command without being it: `VAR=value` prefixes, `sudo`, `env`, `time`,
 * `nohup`, `timeout 900`, `nice`… so `sudo -E HF_TOKEN=x timeout 60 hf download M` reads as
 * `hf download M` with its environment and privileges on the side.
 */
export interface Peeled {
  argv: string[];
  env: Record<string, string>;
  sudo: boolean;
  /** Names of the wrappers removed, outermost first. */
  wrappers: string[];
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;

/** Options of each wrapper that take a value (so the value is not mistaken for the command). */
const WRAPPER_VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  sudo: new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-T', '-U', '--user', '--group', '--host', '--prompt', '--chdir', '--role', '--type', '--other-user', '--close-from', '--command-timeout']),
  doas: new Set(['-u', '-C']),
  env: new Set(['-u', '--unset', '-C', '--chdir', '-S', '--split-string']),
  time: new Set(['-f', '--format', '-o', '--output']),
  nice: new Set(['-n', '--adjustment']),
  ionice: new Set(['-c', '-n', '-p', '--class', '--classdata']),
  timeout: new Set(['-k', '-s', '--kill-after', '--signal']),
  stdbuf: new Set(['-i', '-o', '-e']),
  runuser: new Set(['-u', '-g', '-G', '--user', '--group']),
  setsid: new Set(),
  nohup: new Set(),
  exec: new Set(['-a']),
  command: new Set(),
  builtin: new Set(),
  unbuffer: new Set(),
  caffeinate: new Set(),
  numactl: new Set(['-C', '-N', '-m', '-p', '--cpunodebind', '--membind', '--physcpubind', '--preferred', '--interleave']),
};

/** Wrappers whose first positional argument is not the command (`timeout 60 cmd`). */
const POSITIONAL_BEFORE_COMMAND: Record<string, number> = { timeout: 1 };

export function basename(program: string): string {
  const slash = program.lastIndexOf('/');
  return slash === -1 ? program : program.slice(slash + 1);
}

export function peelWrappers(words: readonly string[]): Peeled {
  let argv = [...words];
  const env: Record<string, string> = {};
  const wrappers: string[] = [];
  let sudo = false;
  for (let guard = 0; guard < 16 && argv.length > 0; guard++) {
    const assignment = ASSIGNMENT.exec(argv[0] as string);
    if (assignment) {
      env[assignment[1] as string] = assignment[2] as string;
      argv = argv.slice(1);
      continue;
    }
    const name = basename(argv[0] as string);
    const valueOptions = WRAPPER_VALUE_OPTIONS[name];
    if (!valueOptions) break;
    // `env` alone prints the environment; `time` alone is a keyword: keep them as commands.
    if (argv.length === 1) break;
    wrappers.push(name);
    if (name === 'sudo' || name === 'doas' || name === 'runuser') sudo = true;
    let i = 1;
    while (i < argv.length) {
      const arg = argv[i] as string;
      if (arg === '--') {
        i += 1;
        break;
      }
      if (!arg.startsWith('-') || arg === '-') break;
      i += valueOptions.has(arg) ? 2 : 1;
    }
    i += POSITIONAL_BEFORE_COMMAND[name] ?? 0;
    argv = argv.slice(i);
  }
  return { argv, env, sudo, wrappers };
}
