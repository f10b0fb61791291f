import type { ParsedCommand } from '../../query/shell/index.js';
import type { Leaf } from './leaves.js';
import { appleScripts } from './destructive.js';

/**
 * Which simple commands only look: inspections (`ls`, `cat`, `docker ps`, `systemctl status`,
 * `git log`), registry and web API queries (`curl` that writes nothing), `--help` and `--version`,
 * and the shell's own glue. Everything not listed here changes something, so an unknown command
 * is kept in a plan rather than lost. Knowledge as data: one table of programs, one of
 * subcommands; a command is judged by what it writes too (a `>` into a file is never a look-up).
 */

export type LeafEffect = 'read' | 'change';

/** Programs that only read (whatever their arguments, except what `writesFiles` catches). */
const READERS = new Set([
  'echo', 'printf', 'sleep', 'true', 'false', ':', 'cd', 'pushd', 'popd', 'export', 'set', 'unset', 'test', '[', '[[', 'wait', 'date', 'time', 'seq',
  'read', 'clear', 'exit', 'return', 'local', 'declare', 'let', 'alias', 'shift', 'break', 'continue', 'source', '.', 'history', 'pwd', 'basename', 'dirname',
  'realpath', 'readlink', 'cat', 'head', 'tail', 'less', 'more', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'jq', 'yq', 'wc', 'sort', 'uniq', 'cut', 'tr', 'column',
  'nl', 'diff', 'cmp', 'comm', 'sha256sum', 'sha1sum', 'md5sum', 'shasum', 'b2sum', 'file', 'stat', 'ls', 'll', 'tree', 'du', 'df', 'free', 'ps', 'pgrep',
  'pidof', 'top', 'htop', 'uptime', 'uname', 'hostnamectl', 'ifconfig', 'ibdev2netdev', 'ibstat', 'ibv_devinfo', 'ibstatus', 'ping', 'traceroute',
  'tracepath', 'mtr', 'ss', 'netstat', 'lsof', 'which', 'whereis', 'type', 'printenv', 'id', 'whoami', 'groups', 'lsblk', 'blkid', 'findmnt', 'dmesg',
  'sensors', 'lscpu', 'nproc', 'lspci', 'lsusb', 'lsmod', 'modinfo', 'nvtop', 'journalctl', 'getent', 'dig', 'nslookup', 'host', 'base64', 'vmstat', 'iostat',
  'mpstat', 'lstopo', 'hwloc-ls', 'nvcc', 'locale', 'whatis', 'man', 'fold', 'fmt', 'strings', 'xxd', 'od', 'hexdump', 'expr', 'bc', 'awk', 'sed', 'ulimit',
  'ldd', 'nm', 'objdump', 'readelf', 'lsattr', 'getfacl', 'namei', 'curl', 'wget', 'http', 'xh', 'nc', 'telnet', 'openssl', 'watch', 'env',
  'rocminfo', 'rocm-smi', 'amd-smi', 'xpu-smi', 'hl-smi', 'nvidia-debugdump', 'dcgmi', 'cuobjdump', 'nvdisasm', 'sw_vers', 'system_profiler', 'memory_pressure',
  'vm_stat', 'ioreg', 'powermetrics', 'diskutil', 'xcode-select', 'xcrun', 'lshw', 'dmidecode', 'inxi', 'numastat', 'lsns', 'ipcs', 'chronyc', 'ntpq',
  // What a machine has: its release, its GPU APIs (Vulkan, OpenCL), the code objects a library carries.
  'lsb_release', 'vulkaninfo', 'clinfo', 'roc-obj-ls', 'glxinfo', 'nvidia-container-cli',
  'systemd-analyze', 'hostid', 'arch', 'getconf', 'tput', 'stty', 'tty', 'logname', 'users', 'who', 'w', 'last', 'finger', 'apropos', 'info', 'cal', 'factor',
  // The shell's own words, where a loop or a test wraps the commands that matter.
  'for', 'do', 'done', 'while', 'until', 'if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'in', 'select', 'function', '{', '}', '!', 'command', 'builtin',
]);

/** Programs whose first word(s) say whether they only read: `docker ps`, `systemctl status`, `git log`. */
const READ_SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  docker: ['ps', 'images', 'image ls', 'image inspect', 'image history', 'inspect', 'logs', 'info', 'version', 'stats', 'top', 'port', 'events', 'search',
    'manifest inspect', 'system df', 'system info', 'network ls', 'network inspect', 'volume ls', 'volume inspect', 'container ls', 'container inspect',
    'container logs', 'container top', 'container port', 'container stats', 'context ls', 'context show', 'buildx ls', 'compose ps', 'compose logs',
    'compose config', 'compose images', 'compose ls', 'compose top', 'compose version', 'compose port', 'history'],
  podman: ['ps', 'images', 'inspect', 'logs', 'info', 'version', 'stats', 'top', 'port', 'search', 'image ls', 'image inspect', 'container ls', 'container inspect'],
  nerdctl: ['ps', 'images', 'inspect', 'logs', 'info', 'version'],
  'docker-compose': ['ps', 'logs', 'config', 'images', 'ls', 'top', 'version', 'port'],
  systemctl: ['status', 'is-active', 'is-enabled', 'is-failed', 'list-units', 'list-unit-files', 'list-timers', 'list-sockets', 'cat', 'show', 'show-environment', 'get-default', '--version'],
  service: ['--status-all'],
  kubectl: ['get', 'describe', 'logs', 'top', 'version', 'explain', 'api-resources', 'api-versions', 'cluster-info', 'config view', 'config get-contexts', 'config current-context', 'auth can-i', 'rollout status', 'rollout history', 'events', 'wait', 'kustomize', 'diff'],
  helm: ['list', 'ls', 'status', 'get', 'history', 'show', 'template', 'version', 'search', 'env', 'lint'],
  pip: ['show', 'list', 'freeze', 'check', 'index', 'debug', 'config list', 'inspect'],
  pip3: ['show', 'list', 'freeze', 'check', 'index', 'debug', 'config list', 'inspect'],
  uv: ['pip show', 'pip list', 'pip freeze', 'pip tree', 'pip check', 'version', 'python list', 'tree'],
  conda: ['list', 'info', 'env list', 'search', 'config --show'],
  mamba: ['list', 'info', 'env list', 'search'],
  apt: ['list', 'show', 'policy', 'search', 'depends', 'rdepends'],
  'apt-cache': ['policy', 'show', 'search', 'depends', 'rdepends', 'madison', 'showpkg'],
  dpkg: ['-l', '-s', '-L', '-S', '--list', '--status', '--print-architecture', '-p'],
  'dpkg-query': ['-l', '-W', '-s', '-L', '-S', '--show'],
  rpm: ['-q', '-qa', '-qi', '-ql'],
  brew: ['list', 'info', 'search', '--prefix', 'config', 'doctor', 'outdated', 'deps', 'services list'],
  snap: ['list', 'info', 'find'],
  launchctl: ['list', 'print', 'print-disabled', 'blame'],
  plutil: ['-lint', '-p'],
  loginctl: ['show-user', 'list-users', 'list-sessions', 'user-status', 'show-session'],
  ollama: ['list', 'ls', 'ps', 'show', '--version', '-v'],
  ray: ['status', 'list', 'summary', 'memory', 'timeline'],
  hf: ['auth whoami', 'whoami', 'env', 'scan-cache', 'cache scan', 'version'],
  'huggingface-cli': ['whoami', 'env', 'scan-cache', 'version'],
  npm: ['ls', 'list', 'view', 'outdated', 'info', 'search', 'config list', 'root', 'prefix', 'doctor'],
  gh: ['pr view', 'pr list', 'pr status', 'pr diff', 'pr checks', 'issue view', 'issue list', 'repo view', 'run list', 'run view', 'release list', 'release view', 'api', 'auth status'],
  nginx: ['-t', '-T', '-v', '-V'],
  apachectl: ['-t', '-S', 'configtest', '-v'],
  certbot: ['certificates', '--version'],
  ufw: ['status'],
  iptables: ['-L', '-S', '-nL', '-nvL', '-vnL', '--list'],
  nft: ['list'],
  sysctl: ['-a', '-n'],
  crontab: ['-l'],
  skopeo: ['inspect', 'list-tags'],
  crane: ['ls', 'manifest', 'digest', 'config', 'catalog'],
  regctl: ['tag ls', 'manifest get', 'image inspect', 'image digest'],
  'nvidia-ctk': ['cdi list', '--version'],
  'clang-offload-bundler': ['--list'],
  lmdeploy: ['check_env'],
  git: ['status', 'log', 'diff', 'show', 'rev-parse', 'describe', 'ls-files', 'ls-remote', 'blame', 'grep', 'shortlog', 'fetch', 'reflog', 'whatchanged', 'config --get', 'config --list', 'config -l', 'remote -v', 'remote show', 'remote get-url', 'lfs version', 'lfs ls-files', 'branch --show-current', 'stash list'],
  timedatectl: ['status', 'show'],
  ip: ['a', 'addr', 'address', 'link', 'route', 'r', 'neigh', 'rule', '-br', '-4', '-6', '-s', '-c', '-j', '-o'],
  tmux: ['ls', 'list-sessions', 'capture-pane', 'list-windows'],
  screen: ['-ls', '-list'],
};

/** Options that make a listed subcommand write after all (`ip addr add`, `git config --global x y`). */
const WRITING_WORDS = /^(?:add|del|delete|set|flush|change|replace|append|--set-upstream-to|--unset)$/;
const HELP = /^(?:--help|-h|--version|-V|-v|help|version)$/;
const PYTHON = /^python[\d.]*$/;
/** A python -c body that writes, removes or runs something. */
const PYTHON_WRITES = /\bopen\([^)]*['"][wax+]|\.write\(|\bdump\(|\bremove\(|\bunlink\(|\brmtree\(|\bmakedirs\(|\bmkdir\(|\brename\(|\bsubprocess\b|\bos\.system\(|\.save\(|\bshutil\.|\bwrite_text\(|\bwrite_bytes\(|\bsnapshot_download\(|\bhf_hub_download\(|\bpip\.main\(/;

/** The subcommand: the first word after the program that is not an option or an option's value (`git -C dir commit`, `kubectl -n ns run`). */
function subcommand(argv: readonly string[]): string | undefined {
  for (let i = 1; i < argv.length; i += 1) {
    const word = argv[i] as string;
    if (word.startsWith('-')) {
      if (/^(?:-[Ccn]|--namespace|--context)$/.test(word)) i += 1;
      continue;
    }
    return word;
  }
  return undefined;
}

function listed(program: string, argv: readonly string[]): boolean {
  const entries = READ_SUBCOMMANDS[program];
  if (!entries) return false;
  const args = argv.slice(1);
  if (args.some((word) => WRITING_WORDS.test(word))) return false;
  return entries.some((entry) => {
    const parts = entry.split(' ');
    // `docker ps -a`, `kubectl -n llm get pods`, `docker compose --env-file x config`: the words in
    // order; options, and the value after an option, may stand between them.
    let at = 0;
    let previous = '';
    for (const word of args) {
      if (word === parts[at]) at += 1;
      else if (word.startsWith('-') || (previous.startsWith('-') && !previous.includes('='))) {
        previous = word;
        continue;
      } else break;
      previous = word;
      if (at === parts.length) return true;
    }
    return at === parts.length;
  });
}

/** Files a command writes through redirections (not /dev/null, not another descriptor). */
export function redirectTargets(command: ParsedCommand): string[] {
  return command.redirects.filter((r) => /^(?:>|>>|>\||&>|&>>)$/.test(r.op) && !/^(?:\/dev\/(?:null|stdout|stderr|tty)|&?\d+)$/.test(r.target)).map((r) => r.target);
}

/** curl/wget that saves a file, sends data somewhere other than this machine, or feeds a shell. */
function fetchWrites(command: ParsedCommand): boolean {
  const args = command.argv.slice(1);
  if (command.program === 'wget') {
    const out = args.findIndex((a) => a === '-O' || a === '--output-document');
    const toStdout = out >= 0 && args[out + 1] === '-';
    return !toStdout && !args.some((a) => /^-(?:q?O-|-spider|qO-)$/.test(a) || a === '--spider');
  }
  if (command.program !== 'curl') return false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if ((arg === '-o' || arg === '--output') && !/^(?:\/dev\/null|-)$/.test(args[i + 1] ?? '')) return true;
    if (/^-[a-zA-Z]*O$/.test(arg) || arg === '--remote-name' || arg === '-J') return true;
  }
  const local = args.some((a) => /^(?:https?:\/\/)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?:[:/]|$)/.test(a));
  const sends = args.some((a) => /^(?:-d|--data(?:-raw|-binary|-urlencode)?|-F|--form|-T|--upload-file)$/.test(a) || /^-X(?:POST|PUT|PATCH|DELETE)?$/.test(a) && a !== '-X');
  const method = args[args.indexOf('-X') + 1];
  const writesMethod = args.includes('-X') && /^(?:PUT|PATCH|DELETE)$/i.test(method ?? '');
  return !local && (sends || writesMethod);
}

/** AppleScript that only asks (`tell application "System Events" to get the name of every login item`). */
const APPLESCRIPT_READS = /^\s*(?:tell\s+application\s+"[^"]*"\s+to\s+)?(?:get|count|exists|return)\b/;

/** A test suite run (`pytest`, `python -m pytest`): judges the code, changes nothing a deployment needs. */
const TEST_RUNNERS = /^(?:pytest|py\.test|unittest)$/;

export function leafEffect(leaf: Leaf): LeafEffect {
  const { command } = leaf;
  const program = command.program;
  if (redirectTargets(command).length > 0) return 'change';
  if (program === '') return 'read';
  if (command.argv.slice(1).some((word) => word === '--help' || word === '--version') || (command.argv.length === 2 && HELP.test(command.argv[1] ?? ''))) return 'read';
  // A pod or container run only to look (`kubectl run … --rm -i`, `docker run --rm img python -c …`).
  if (program === 'kubectl' && subcommand(command.argv) === 'run' && command.argv.includes('--rm')) return 'read';
  if (program === 'docker' || program === 'podman') {
    const sub = command.argv[1] === 'container' ? command.argv[2] : command.argv[1];
    if (sub === 'run' && command.dockerRun && command.dockerRun.remove && !command.dockerRun.detached) {
      // Nothing mounted, nothing published: whatever runs inside goes with the container (a probe).
      const mounts = command.argv.some((word) => /^(?:-v|--volume|--mount)(?:=|$)|^-v./.test(word));
      if (!mounts && command.dockerRun.ports.length === 0 && command.dockerRun.network !== 'host') return 'read';
      const inner = command.children[0];
      return inner ? leafEffect({ command: inner, cwd: null, inContainer: 'container' }) : 'read';
    }
  }
  if (PYTHON.test(program)) {
    if (command.pythonBody !== null) return PYTHON_WRITES.test(command.pythonBody) ? 'change' : 'read';
    const args = command.argv.slice(1);
    if (args[0] === '-m' && (args[1] === 'json.tool' || TEST_RUNNERS.test(args[1] ?? '') || ((args[1] === 'pip' || args[1] === 'pip3') && listed('pip', ['pip', ...args.slice(2)])))) return 'read';
    if (args.length === 1 && HELP.test(args[0] ?? '')) return 'read';
    return 'change';
  }
  if (program === 'osascript') {
    const scripts = appleScripts(command.argv);
    return scripts.length > 0 && scripts.every((script) => APPLESCRIPT_READS.test(script) && !/\b(?:set|make|delete|quit|launch|activate|do shell script)\b/.test(script)) ? 'read' : 'change';
  }
  if (TEST_RUNNERS.test(program)) return 'read';
  if (program === 'sed') return command.argv.some((word) => /^-[a-zA-Z]*i|^--in-place/.test(word)) ? 'change' : 'read';
  if (program === 'awk' || program === 'gawk') return command.argv.some((word) => /inplace/.test(word)) ? 'change' : 'read';
  if (program === 'find') return command.argv.some((word) => /^-(?:delete|exec|execdir|ok|okdir|fprint)$/.test(word)) ? 'change' : 'read';
  if (program === 'env') return command.argv.length === 1 ? 'read' : 'change';
  if (program === 'hostname') return command.argv.length <= 2 && /^(?:-[a-zA-Z]+)?$/.test(command.argv[1] ?? '') ? 'read' : 'change';
  if (program === 'nvidia-smi') return command.argv.some((word) => /^-(?:pm|pl|r|c|ac|rac|mig|lgc|rgc)$|^--(?:persistence-mode|power-limit|gpu-reset|compute-mode|applications-clocks|lock-gpu-clocks)/.test(word)) ? 'change' : 'read';
  if (program === 'rocm-smi') return command.argv.some((word) => /^--(?:set|reset)/.test(word)) ? 'change' : 'read';
  if (program === 'curl' || program === 'wget') return fetchWrites(command) ? 'change' : 'read';
  if (program === 'tee') return command.argv.slice(1).some((word) => !word.startsWith('-') && word !== '/dev/null') ? 'change' : 'read';
  if (program === 'sh' || program === 'bash' || program === 'zsh' || program === 'dash') return 'change';
  if (READERS.has(program)) return 'read';
  if (listed(program, command.argv)) return 'read';
  if (program === 'sysctl') return command.argv.slice(1).every((word) => !word.includes('=') && word !== '-w') ? 'read' : 'change';
  return 'change';
}

/** Only records what was done (notes, commits): not a step of the deployment. */
export function bookkeeping(leaf: Leaf): boolean {
  const { program, argv } = leaf.command;
  return program === 'git' && /^(?:add|commit|push|tag|stash|notes)$/.test(subcommand(argv) ?? '');
}
