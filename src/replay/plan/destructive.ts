import { flattenCommands, parseCommandLine } from '../../query/shell/index.js';

/**
 * Whether a command changes what runs on a machine in a way that is hard to undo: stops or kills
 * services and processes, removes containers, images or files, unmounts, reboots. Judged per
 * simple command (so `docker run --rm` is not a removal), including commands nested in
 * `bash -c`, `sudo` and the like.
 */

const ALWAYS = new Set(['kill', 'pkill', 'killall', 'rm', 'rmdir', 'reboot', 'shutdown', 'poweroff', 'halt', 'dd', 'wipefs', 'umount', 'shred', 'truncate']);

const SUBCOMMANDS: Readonly<Record<string, ReadonlySet<string>>> = {
  systemctl: new Set(['stop', 'kill', 'disable', 'mask', 'restart', 'isolate', 'reboot', 'poweroff']),
  service: new Set(['stop', 'restart']),
  docker: new Set(['stop', 'kill', 'rm', 'rmi', 'restart', 'down', 'prune']),
  podman: new Set(['stop', 'kill', 'rm', 'rmi', 'restart', 'prune']),
  'docker-compose': new Set(['down', 'stop', 'kill', 'rm', 'restart']),
  kubectl: new Set(['delete', 'drain', 'cordon', 'scale']),
  ray: new Set(['stop']),
  ollama: new Set(['stop', 'rm']),
  apt: new Set(['remove', 'purge', 'autoremove']),
  'apt-get': new Set(['remove', 'purge', 'autoremove']),
  pip: new Set(['uninstall']),
  pip3: new Set(['uninstall']),
};

/** Subcommand words of `docker container rm`, `docker image prune`, `docker system prune`, `docker compose down`. */
const NESTED_GROUPS = new Set(['container', 'image', 'system', 'volume', 'network', 'compose', 'builder']);

/** Options before the verb that take a value (`kubectl -n llm delete …`, `docker -H h rm …`, `compose -f f down`). */
const VALUE_OPTIONS = new Set(['-n', '--namespace', '--context', '--kubeconfig', '-H', '--host', '-f', '--file', '-p', '--project-name', '-C', '--env-file', '--project-directory']);

function words(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < argv.length; i += 1) {
    const word = argv[i] as string;
    if (word.startsWith('-')) {
      if (!word.includes('=') && VALUE_OPTIONS.has(word)) i += 1;
      continue;
    }
    out.push(word);
  }
  return out;
}

/** The AppleScript an `osascript -e S …` line runs, one script per line. */
export function appleScripts(argv: readonly string[]): string[] {
  return argv.flatMap((word, i) => (i > 0 && argv[i - 1] === '-e' ? [word] : []));
}

/** AppleScript that quits an app or deletes something (a login item): a stop, like `pkill` or `systemctl disable`. */
const APPLESCRIPT_REMOVES = /\bto\s+quit\b|\bquit\s+application\b|\bdelete\b/;

export function isDestructiveArgv(program: string, argv: readonly string[]): boolean {
  if (ALWAYS.has(program) || /^mkfs(\.|$)/.test(program)) return true;
  if (program === 'osascript') return appleScripts(argv).some((script) => APPLESCRIPT_REMOVES.test(script));
  const verbs = SUBCOMMANDS[program];
  if (!verbs) return false;
  const [first, second] = words(argv);
  if (first && verbs.has(first)) return true;
  return Boolean(first && NESTED_GROUPS.has(first) && second && verbs.has(second));
}

export function isDestructive(command: string): boolean {
  return flattenCommands(parseCommandLine(command)).some((row) => isDestructiveArgv(row.program, row.argv));
}
