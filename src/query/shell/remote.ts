/**
 * The commands that carry another command: `ssh [opts] [user@]host CMD…`, `docker run [opts]
 * IMAGE [CMD…]`, `docker exec [opts] CONTAINER CMD…`, `kubectl exec POD -- CMD…`. Each parser
 * knows which of its options take a value, so the first positional argument is found exactly.
 */

/** Splits `argv` at the first positional argument, skipping options (and their values). */
function firstPositional(
  argv: readonly string[],
  start: number,
  takesValue: (option: string) => boolean,
): { options: string[]; index: number } {
  const options: string[] = [];
  let i = start;
  while (i < argv.length) {
    const arg = argv[i] as string;
    if (arg === '--') return { options, index: i + 1 };
    if (!arg.startsWith('-') || arg === '-') break;
    options.push(arg);
    if (!arg.includes('=') && takesValue(arg)) {
      const value = argv[i + 1];
      if (value !== undefined) options.push(value);
      i += 2;
    } else {
      i += 1;
    }
  }
  return { options, index: i };
}

/** A short-option cluster (`-it`, `-p8000:8000`, `-oBatchMode=yes`) takes a value when its last letter does. */
function shortTakesValue(option: string, shortWithValue: string): boolean {
  if (option.startsWith('--') || option.length < 2) return false;
  const letters = option.slice(1);
  for (let i = 0; i < letters.length; i++) {
    if (shortWithValue.includes(letters[i] as string)) return i === letters.length - 1;
  }
  return false;
}

export interface SshTarget {
  host: string;
  user: string | null;
  port: number | null;
  /** The remote command words (ssh joins them with spaces), empty for an interactive login. */
  command: string[];
}

const SSH_SHORT_WITH_VALUE = 'bcDEeFIiJLlmOoPpQRSWwB';

export function parseSsh(argv: readonly string[]): SshTarget | null {
  const { options, index } = firstPositional(argv, 1, (o) => shortTakesValue(o, SSH_SHORT_WITH_VALUE));
  const destination = argv[index];
  if (!destination) return null;
  let user: string | null = null;
  let port: number | null = null;
  let host = destination;
  const uri = /^ssh:\/\/(?:([^@]+)@)?([^:/]+)(?::(\d+))?/.exec(destination);
  if (uri) {
    user = uri[1] ?? null;
    host = uri[2] as string;
    port = uri[3] ? Number(uri[3]) : null;
  } else if (destination.includes('@')) {
    user = destination.slice(0, destination.lastIndexOf('@'));
    host = destination.slice(destination.lastIndexOf('@') + 1);
  }
  for (let i = 0; i < options.length; i++) {
    const option = options[i] as string;
    const value = options[i + 1];
    if (option === '-l' && value) user = value;
    else if (option.startsWith('-l') && option.length > 2) user = option.slice(2);
    if (option === '-p' && value) port = Number(value);
    else if (option.startsWith('-p') && option.length > 2) port = Number(option.slice(2));
  }
  return { host, user, port: Number.isFinite(port) ? port : null, command: argv.slice(index + 1) };
}

export interface DockerRun {
  engine: string;
  image: string;
  command: string[];
  detached: boolean;
  remove: boolean;
  name: string | null;
  /** Host ports published with -p (the host side). */
  ports: number[];
  network: string | null;
  env: Record<string, string>;
  entrypoint: string | null;
}

const RUN_LONG_WITH_VALUE = new Set([
  '--add-host', '--annotation', '--attach', '--blkio-weight', '--blkio-weight-device', '--cap-add', '--cap-drop',
  '--cgroup-parent', '--cgroupns', '--cidfile', '--cpu-count', '--cpu-percent', '--cpu-period', '--cpu-quota',
  '--cpu-rt-period', '--cpu-rt-runtime', '--cpu-shares', '--cpus', '--cpuset-cpus', '--cpuset-mems', '--detach-keys',
  '--device', '--device-cgroup-rule', '--device-read-bps', '--device-read-iops', '--device-write-bps',
  '--device-write-iops', '--dns', '--dns-opt', '--dns-option', '--dns-search', '--domainname', '--entrypoint', '--env',
  '--env-file', '--expose', '--gpus', '--group-add', '--health-cmd', '--health-interval', '--health-retries',
  '--health-start-interval', '--health-start-period', '--health-timeout', '--hostname', '--ip', '--ip6', '--ipc',
  '--isolation', '--kernel-memory', '--label', '--label-file', '--link', '--link-local-ip', '--log-driver', '--log-opt',
  '--mac-address', '--memory', '--memory-reservation', '--memory-swap', '--memory-swappiness', '--mount', '--name',
  '--net', '--net-alias', '--network', '--network-alias', '--oom-score-adj', '--pid', '--pids-limit', '--platform',
  '--publish', '--pull', '--restart', '--runtime', '--security-opt', '--shm-size', '--stop-signal', '--stop-timeout',
  '--storage-opt', '--sysctl', '--tmpfs', '--ulimit', '--user', '--userns', '--uts', '--volume', '--volume-driver',
  '--volumes-from', '--workdir', '--device-gpus', '--hooks-dir', '--pod', '--replace', '--secret',
]);
const RUN_SHORT_WITH_VALUE = 'acehlmpuvw';

function optionValues(options: readonly string[], long: string, short: string | null): string[] {
  const values: string[] = [];
  for (let i = 0; i < options.length; i++) {
    const option = options[i] as string;
    if (option === long || (short && option === short)) {
      const value = options[i + 1];
      if (value !== undefined) values.push(value);
      i += 1;
    } else if (option.startsWith(`${long}=`)) {
      values.push(option.slice(long.length + 1));
    } else if (short && option.startsWith(short) && !option.startsWith('--') && option.length > 2 && shortTakesValue(short, RUN_SHORT_WITH_VALUE)) {
      values.push(option.slice(2));
    }
  }
  return values;
}

function hasFlag(options: readonly string[], long: string, letter: string | null): boolean {
  return options.some((o) => o === long || o === `${long}=true` || (letter !== null && /^-[a-zA-Z]+$/.test(o) && o.slice(1).includes(letter) && !o.startsWith('--')));
}

/** `docker run …` / `podman run …` / `docker container run …` (argv from the engine name on). */
export function parseDockerRun(argv: readonly string[], start: number): DockerRun | null {
  const { options, index } = firstPositional(argv, start, (o) => (o.startsWith('--') ? RUN_LONG_WITH_VALUE.has(o) : shortTakesValue(o, RUN_SHORT_WITH_VALUE)));
  const image = argv[index];
  if (!image) return null;
  const env: Record<string, string> = {};
  for (const pair of optionValues(options, '--env', '-e')) {
    const eq = pair.indexOf('=');
    if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const ports = optionValues(options, '--publish', '-p')
    .map((spec) => {
      const parts = spec.split('/')[0]?.split(':') ?? [];
      return Number(parts.length >= 2 ? parts[parts.length - 2] : parts[0]);
    })
    .filter((port) => Number.isInteger(port) && port > 0);
  return {
    engine: argv[0] as string,
    image,
    command: argv.slice(index + 1),
    detached: hasFlag(options, '--detach', 'd'),
    remove: hasFlag(options, '--rm', null),
    name: optionValues(options, '--name', null)[0] ?? null,
    ports,
    network: optionValues(options, '--network', null)[0] ?? optionValues(options, '--net', null)[0] ?? null,
    env,
    entrypoint: optionValues(options, '--entrypoint', null)[0] ?? null,
  };
}

export interface ContainerExec {
  container: string;
  command: string[];
  detached: boolean;
  env: Record<string, string>;
  /** The directory the command runs in (`-w DIR`), or null for the container's own. */
  workdir: string | null;
}

const EXEC_LONG_WITH_VALUE = new Set(['--env', '--env-file', '--user', '--workdir', '--detach-keys', '--container', '--namespace', '-n', '-c']);

/** `docker exec [opts] CONTAINER CMD…` (start = index after `exec`). */
export function parseDockerExec(argv: readonly string[], start: number): ContainerExec | null {
  const { options, index } = firstPositional(argv, start, (o) => (o.startsWith('--') ? EXEC_LONG_WITH_VALUE.has(o) : shortTakesValue(o, 'euw')));
  const container = argv[index];
  if (!container) return null;
  const env: Record<string, string> = {};
  for (const pair of optionValues(options, '--env', '-e')) {
    const eq = pair.indexOf('=');
    if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const workdir = optionValues(options, '--workdir', '-w').at(-1) ?? null;
  return { container, command: argv.slice(index + 1), detached: hasFlag(options, '--detach', 'd'), env, workdir };
}

/** `kubectl exec [opts] POD -- CMD…` (start = index after `exec`). */
export function parseKubectlExec(argv: readonly string[], start: number): ContainerExec | null {
  const dashes = argv.indexOf('--', start);
  if (dashes === -1) return null;
  const { index } = firstPositional(argv.slice(0, dashes), start, (o) => EXEC_LONG_WITH_VALUE.has(o) || o === '-c' || o === '-n');
  const pod = argv[index];
  if (!pod || index >= dashes) return null;
  return { container: pod.replace(/^pods?\//, ''), command: argv.slice(dashes + 1), detached: false, env: {}, workdir: null };
}
