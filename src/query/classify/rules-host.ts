import { frameworkIn, frameworkOfPackage, packageName } from './names.js';
import { NOT_AN_ACTION, optionValue, positionals, type CommandView, type Rule } from './view.js';

/**
 * Rules for the rest: web tools, the noise that is not an action, stopping and starting services,
 * installs, environment probes, builds, inspection and fetches.
 */

const FILTERS = new Set(['tail', 'head', 'grep', 'egrep', 'fgrep', 'rg', 'awk', 'sed', 'sort', 'uniq', 'wc', 'cut', 'tr', 'tee', 'jq', 'yq', 'column', 'less', 'more', 'cat', 'xargs', 'python', 'python3', 'nl', 'fold', 'fmt', 'base64', 'gzip', 'zstd', 'sha256sum', 'md5sum']);
const NOISE = new Set(['', 'echo', 'printf', 'sleep', 'cd', 'pushd', 'popd', 'true', 'false', ':', 'export', 'set', 'unset', 'source', '.', 'read', 'test', '[', '[[', 'wait', 'trap', 'clear', 'exit', 'return', 'alias', 'shift', 'local', 'declare', 'let', 'break', 'continue', 'exec', 'eval', 'time', 'seq', 'date']);
const INSPECTORS = new Set([
  'nvidia-smi', 'df', 'du', 'ls', 'free', 'cat', 'head', 'tail', 'less', 'grep', 'egrep', 'rg', 'find', 'ps', 'top', 'htop', 'uptime', 'uname', 'lscpu',
  'nproc', 'hostname', 'hostnamectl', 'ip', 'ifconfig', 'ibdev2netdev', 'ibstat', 'ibv_devinfo', 'ibstatus', 'ping', 'ss', 'netstat', 'lsof', 'which', 'whereis',
  'type', 'env', 'printenv', 'lsblk', 'mount', 'dmesg', 'sensors', 'stat', 'wc', 'pgrep', 'nvcc', 'nvtop', 'journalctl', 'id', 'whoami', 'lspci', 'nvidia-ctk',
  'skopeo', 'crane', 'regctl', 'tree', 'file', 'dpkg', 'rpm', 'getent', 'traceroute', 'mtr', 'iperf3', 'ethtool', 'lsmod', 'modinfo', 'docker-compose',
]);
const STOP_SYSTEMCTL = /^(?:stop|disable|kill|mask)$/;
const START_SYSTEMCTL = /^(?:start|restart|reload|enable)$/;
const PIP_VALUE_OPTIONS = new Set(['-r', '--requirement', '-c', '--constraint', '-i', '--index-url', '--extra-index-url', '-t', '--target', '--prefix', '-f', '--find-links', '--root', '--python-version', '--platform', '--cache-dir', '-e', '--editable', '--trusted-host', '--upgrade-strategy']);
const CARGO_VALUE_OPTIONS = new Set(['--git', '--branch', '--tag', '--rev', '--version', '--features', '-F', '--root', '--path', '--bin', '-j', '--jobs', '--target']);

const isPython = (program: string): boolean => /^python[\d.]*$/.test(program);

function pipArgs(v: CommandView): readonly string[] | null {
  if (/^pip[\d.]*$/.test(v.program)) return v.args;
  if (isPython(v.program) && v.args[0] === '-m' && /^pip[\d.]*$/.test(v.args[1] ?? '')) return v.args.slice(2);
  if (v.program === 'uv' && v.args[0] === 'pip') return v.args.slice(1);
  return null;
}

function names(list: readonly string[]): string | null {
  return list.length > 0 ? list.join(' ') : null;
}

function importedModules(body: string): string[] {
  const modules = new Set<string>();
  for (const match of body.matchAll(/(?:^|[;\n]|\btry:)\s*(?:from\s+([\w.]+)\s+import|import\s+([\w., ]+))/g)) {
    const list = match[1] ? [match[1]] : (match[2] ?? '').split(',');
    for (const name of list) {
      const top = name.trim().split(/\s+/)[0]?.split('.')[0];
      if (top) modules.add(top);
    }
  }
  return [...modules];
}

/** Tried first: tools that are not shell commands, and the shell glue that is not a step. */
export const GLUE_RULES: readonly Rule[] = [
  {
    name: 'web-search-tool',
    kind: 'search',
    description: 'web search tools: opencode `exa_web_search_exa`/`websearch`, Claude `WebSearch`, Codex `web_search_call`',
    match: (v) => (v.program === '' && /web_?search|search_exa|websearch|google_search|brave_search|tavily_search|perplexity/i.test(v.tool)
      ? { subject: /"query"\s*:\s*"([^"]*)"/.exec(v.input)?.[1] ?? null, subjectKind: 'query' }
      : null),
  },
  {
    name: 'web-fetch-tool',
    kind: 'fetch',
    description: 'web fetch tools: opencode `exa_web_fetch_exa`/`webfetch`, Claude `WebFetch`, MCP fetchers',
    match: (v) => (v.program === '' && /web_?fetch|fetch_exa|^fetch$|fetch_url|crawl|read_url|scrape/i.test(v.tool)
      ? { subject: /"urls?"\s*:\s*\[?\s*"([^"]*)"/.exec(v.input)?.[1] ?? null, subjectKind: 'url' }
      : null),
  },
  {
    name: 'pipe-filter',
    kind: null,
    description: 'a filter after `|` (`tail -3`, `grep`, `jq`, `python3 -m json.tool`): shapes output, is not a step',
    match: (v) => (v.pipelinePosition > 0 && FILTERS.has(v.program) ? NOT_AN_ACTION : null),
  },
  {
    name: 'shell-noise',
    kind: null,
    description: 'shell built-ins and glue (`echo`, `sleep`, `cd`, `export`, `[ … ]`, bare `VAR=$(…)`): not steps',
    match: (v) => (NOISE.has(v.program) && !v.dockerRun ? NOT_AN_ACTION : null),
  },
];

/** Tried after the runtime rules: what happens on hosts around a deployment. */
export const HOST_RULES: readonly Rule[] = [
  {
    name: 'service-stop',
    kind: 'stop',
    description: '`systemctl stop`, `docker stop|kill|rm`, `docker compose down`, `pkill`/`kill`, `ray stop`, `kubectl delete`',
    match: (v) => {
      if (v.program === 'systemctl' && STOP_SYSTEMCTL.test(positionals(v.args)[0] ?? '')) {
        return { subject: names(positionals(v.args).slice(1)), subjectKind: 'service', service: names(positionals(v.args).slice(1)) };
      }
      if (v.program === 'service' && v.args[1] === 'stop') return { subject: v.args[0] ?? null, subjectKind: 'service', service: v.args[0] ?? null };
      const sub = v.args[0] === 'container' ? v.args[1] : v.args[0];
      if (/^(?:docker|podman|nerdctl)$/.test(v.program) && /^(?:stop|kill|rm)$/.test(sub ?? '')) {
        const targets = positionals(v.args.slice(v.args[0] === 'container' ? 2 : 1), new Set(['-t', '--time', '-s', '--signal']));
        return { subject: names(targets), subjectKind: 'container', service: names(targets) };
      }
      if ((v.program === 'docker' && v.args[0] === 'compose') || v.program === 'docker-compose') {
        const args = v.program === 'docker' ? v.args.slice(1) : v.args;
        if (positionals(args, new Set(['-f', '--file', '-p', '--project-name']))[0]?.match(/^(?:down|stop|kill|rm)$/)) return { subject: 'compose', subjectKind: 'service' };
        return null;
      }
      if (/^(?:pkill|killall)$/.test(v.program)) return { subject: positionals(v.args).join(' ') || null, subjectKind: 'service' };
      if (v.program === 'kill') return { subject: positionals(v.args).join(' ') || null, subjectKind: 'service' };
      if (v.program === 'ray' && v.args[0] === 'stop') return { subject: 'ray', subjectKind: 'service', service: 'ray' };
      if (v.program === 'kubectl' && v.args[0] === 'delete') return { subject: positionals(v.args.slice(1)).join('/') || null, subjectKind: 'service' };
      return null;
    },
  },
  {
    name: 'service-start',
    kind: 'start',
    description: '`systemctl start|restart|enable`, `docker start|restart`, `docker compose up`',
    match: (v) => {
      if (v.program === 'systemctl' && START_SYSTEMCTL.test(positionals(v.args)[0] ?? '')) {
        return { subject: names(positionals(v.args).slice(1)), subjectKind: 'service', service: names(positionals(v.args).slice(1)) };
      }
      if (v.program === 'service' && /^(?:start|restart)$/.test(v.args[1] ?? '')) return { subject: v.args[0] ?? null, subjectKind: 'service', service: v.args[0] ?? null };
      const sub = v.args[0] === 'container' ? v.args[1] : v.args[0];
      if (/^(?:docker|podman|nerdctl)$/.test(v.program) && /^(?:start|restart)$/.test(sub ?? '')) {
        const targets = positionals(v.args.slice(v.args[0] === 'container' ? 2 : 1));
        return { subject: names(targets), subjectKind: 'container', service: names(targets) };
      }
      if ((v.program === 'docker' && v.args[0] === 'compose') || v.program === 'docker-compose') {
        const args = v.program === 'docker' ? v.args.slice(1) : v.args;
        if (/^(?:up|start|restart)$/.test(positionals(args, new Set(['-f', '--file', '-p', '--project-name']))[0] ?? '')) return { subject: 'compose', subjectKind: 'service' };
      }
      return null;
    },
  },
  {
    name: 'package-install',
    kind: 'install',
    description: 'pip / `python -m pip` / uv / pipx / conda install, apt / apt-get / dnf / yum / apk / brew install, `cargo install`, `npm install -g`',
    match: (v) => {
      const pip = pipArgs(v);
      let packages: string[] | null = null;
      // An editable install (`pip install -e .`) builds a source tree: a source build, not a package.
      if (pip && pip[0] === 'install' && optionValue(pip, ['-e', '--editable']) !== null) return null;
      if (pip && pip[0] === 'install') packages = positionals(pip.slice(1), PIP_VALUE_OPTIONS);
      else if ((v.program === 'pipx' || v.program === 'conda' || v.program === 'mamba' || v.program === 'micromamba') && v.args[0] === 'install') packages = positionals(v.args.slice(1), new Set(['-c', '--channel', '-n', '--name']));
      else if (v.program === 'uv' && v.args[0] === 'add') packages = positionals(v.args.slice(1));
      else if (/^(?:apt|apt-get|dnf|yum|zypper|brew|snap)$/.test(v.program) && v.args.includes('install')) packages = positionals(v.args.slice(v.args.indexOf('install') + 1));
      else if (v.program === 'apk' && v.args[0] === 'add') packages = positionals(v.args.slice(1));
      else if (v.program === 'cargo' && v.args[0] === 'install') packages = positionals(v.args.slice(1), CARGO_VALUE_OPTIONS);
      // A global npm install puts a program on the PATH; a project's `npm install` only fetches its dependencies.
      else if (/^(?:npm|pnpm)$/.test(v.program) && /^(?:install|i|add)$/.test(v.args[0] ?? '') && v.args.some((a) => a === '-g' || a === '--global')) packages = positionals(v.args.slice(1));
      if (!packages) return null;
      const framework = packages.map(frameworkOfPackage).find((f) => f !== null) ?? null;
      return { subject: names(packages), subjectKind: 'package', packages, framework: framework?.id ?? null };
    },
  },
  {
    name: 'env-probe',
    kind: 'probe',
    description: 'asking an environment what it has: `python3 -c "import …"`, `pip show X`, `pip list|freeze`, `<framework> --version`',
    match: (v) => {
      const pip = pipArgs(v);
      if (pip && /^(?:show|list|freeze)$/.test(pip[0] ?? '')) {
        const packages = positionals(pip.slice(1));
        const framework = packages.map(frameworkOfPackage).find((f) => f !== null) ?? null;
        return { subject: names(packages) ?? `pip ${pip[0] as string}`, subjectKind: 'package', packages, framework: framework?.id ?? null };
      }
      if (v.pythonBody !== null && /\bimport\b/.test(v.pythonBody) && v.pipelinePosition === 0) {
        const modules = importedModules(v.pythonBody);
        const framework = modules.map((m) => frameworkOfPackage(m)).find((f) => f !== null) ?? null;
        return { subject: names(modules.slice(0, 4)), subjectKind: 'package', packages: modules, framework: framework?.id ?? null };
      }
      const framework = frameworkIn(v.program);
      if (framework && (v.args.includes('--version') || v.args[0] === 'version')) return { subject: packageName(v.program), subjectKind: 'package', framework: framework.id };
      return null;
    },
  },
  {
    name: 'source-build',
    kind: 'build',
    description: '`docker build -t TAG`, `docker buildx build`, `git clone` of source, `make`, `cmake --build`, `python setup.py`, `pip wheel`',
    match: (v) => {
      const sub = v.args[0] === 'buildx' || v.args[0] === 'image' ? v.args[1] : v.args[0];
      if (/^(?:docker|podman|nerdctl|buildah)$/.test(v.program) && (sub === 'build' || sub === 'bud')) {
        const tag = optionValue(v.args, ['-t', '--tag']);
        return { subject: tag, subjectKind: 'image', image: tag, framework: tag ? frameworkIn(tag)?.id ?? null : null };
      }
      if (v.program === 'git' && v.args[0] === 'clone') {
        const url = positionals(v.args.slice(1), new Set(['-b', '--branch', '--depth', '--reference']))[0] ?? '';
        const repository = /([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(url)?.[1] ?? url;
        return { subject: repository || null, subjectKind: 'repository', framework: frameworkIn(repository)?.id ?? null };
      }
      const pip = pipArgs(v);
      const editable = pip?.[0] === 'install' ? optionValue(pip, ['-e', '--editable']) : null;
      if (v.program === 'make' || v.program === 'cmake' || (isPython(v.program) && /^(?:\.\/)?(?:[\w.-]+\/)*(?:setup|build[\w-]*)\.py$/.test(v.args[0] ?? '')) || pip?.[0] === 'wheel' || editable !== null) {
        // The framework is named by the source tree built: the folder the command ran in, `-S`/`-C DIR`, or `pip install -e DIR`.
        const tree = [editable, optionValue(v.args, ['-S', '-C', '--directory']), v.cwd].filter((d): d is string => d !== null && d !== '.').join(' ');
        const framework = tree ? frameworkIn(tree) : null;
        // A configure step's defines (`-DCMAKE_CUDA_ARCHITECTURES=87`) are what a rebuild changes.
        const defines = v.program === 'cmake' ? v.args.filter((a) => /^-D[A-Z]/.test(a) && !/=[~/]/.test(a)).join(' ') : '';
        return { subject: null, subjectKind: null, framework: framework?.id ?? null, options: defines || null };
      }
      return null;
    },
  },
  {
    name: 'image-commit',
    kind: 'build',
    description: '`docker commit CONTAINER IMAGE`: an image made from what was built inside a container (the same candidate as the image it ran)',
    match: (v) => {
      if (!/^(?:docker|podman|nerdctl)$/.test(v.program) || !(v.args[0] === 'commit' || (v.args[0] === 'container' && v.args[1] === 'commit'))) return null;
      const [container, image] = positionals(v.args.slice(v.args[0] === 'commit' ? 1 : 2), new Set(['-a', '--author', '-m', '--message', '-c', '--change']));
      if (!container || !image) return null;
      return { subject: image, subjectKind: 'image', image, service: container, framework: frameworkIn(image)?.id ?? null };
    },
  },
  {
    name: 'registry-listing',
    kind: 'inspect',
    description: 'reading a registry: `docker manifest inspect`, `docker images`, curl of hub.docker.com / `/v2/…/tags/list` / huggingface.co/api / NGC catalog',
    match: (v) => {
      const sub = v.args[0];
      if (/^(?:docker|podman|nerdctl)$/.test(v.program) && (sub === 'manifest' || sub === 'images' || (sub === 'image' && v.args[1] === 'ls') || sub === 'search')) {
        const image = sub === 'manifest' ? positionals(v.args.slice(2))[0] ?? null : null;
        return { subject: image, subjectKind: image ? 'image' : null, image, framework: image ? (frameworkIn(image)?.id ?? null) : null };
      }
      if (/^(?:curl|wget|http|xh)$/.test(v.program)) {
        const url = v.args.find((a) => /hub\.docker\.com|\/v2\/[^\s]*\/(?:tags\/list|manifests\/)|huggingface\.co\/api\/|catalog\.ngc\.nvidia\.com|api\.ngc\.nvidia\.com|ghcr\.io\/v2/.test(a));
        return url ? { subject: url, subjectKind: 'url' } : null;
      }
      return null;
    },
  },
  {
    name: 'inspect',
    kind: 'inspect',
    description: 'looking without changing: nvidia-smi, df, ls, free, ip, ibdev2netdev, ping, docker ps/inspect/logs, systemctl status/cat/list-units, journalctl…',
    match: (v) => {
      if (INSPECTORS.has(v.program)) return { subject: null, subjectKind: null };
      if (/^(?:docker|podman|nerdctl)$/.test(v.program) && /^(?:ps|inspect|logs|info|version|stats|top|port|system|network|volume)$/.test(v.args[0] ?? '')) {
        const target = v.args[0] === 'logs' || v.args[0] === 'inspect' ? positionals(v.args.slice(1), new Set(['--tail', '-n', '--since', '-f', '--format'])).at(-1) ?? null : null;
        return { subject: target, subjectKind: target ? 'container' : null, service: target };
      }
      if (/^(?:docker|podman|nerdctl)$/.test(v.program) && v.args.includes('--version')) return { subject: null, subjectKind: null };
      if (v.program === 'systemctl' || v.program === 'service') {
        const target = positionals(v.args).slice(1).join(' ') || null;
        return { subject: target, subjectKind: target ? 'service' : null, service: target };
      }
      if (pipArgs(v) !== null || (isPython(v.program) && (v.args.includes('--version') || v.args.includes('-V')))) return { subject: null, subjectKind: null };
      if (v.program === 'kubectl' && /^(?:get|describe|logs|top)$/.test(v.args[0] ?? '')) return { subject: null, subjectKind: null };
      return null;
    },
  },
  {
    name: 'http-fetch',
    kind: 'fetch',
    description: 'curl/wget of a web page or API that is not a health check, a registry or weights',
    match: (v) => {
      if (!/^(?:curl|wget|http|xh)$/.test(v.program)) return null;
      const url = v.args.find((a) => /^https?:\/\//.test(a) || /^[\w.-]+\.[a-z]{2,}\//.test(a));
      return url ? { subject: url, subjectKind: 'url' } : null;
    },
  },
];

/** The last resort: a command no rule claims is still recorded, as `other`. */
export const FALLBACK_RULE: Rule = {
  name: 'other',
  kind: 'other',
  description: 'any other command',
  match: (v) => ({ subject: v.program || null, subjectKind: null }),
};
