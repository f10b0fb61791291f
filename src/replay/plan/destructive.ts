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
  apt: new Set(['remove', 'purge', 'autoremove']),
  'apt-get': new Set(['remove', 'purge', 'autoremove']),
  pip: new Set(['uninstall']),
  pip3: new Set(['uninstall']),
};

/** Subcommand words of `docker container rm`, `docker image prune`, `docker system prune`, `docker compose down`. */
const NESTED_GROUPS = new Set(['container', 'image', 'system', 'volume', 'network', 'compose', 'builder']);

function words(argv: readonly string[]): string[] {
  return argv.slice(1).filter((word) => !word.startsWith('-'));
}

export function isDestructiveArgv(program: string, argv: readonly string[]): boolean {
  if (ALWAYS.has(program) || /^mkfs(\.|$)/.test(program)) return true;
  const verbs = SUBCOMMANDS[program];
  if (!verbs) return false;
  const [first, second] = words(argv);
  if (first && verbs.has(first)) return true;
  return Boolean(first && NESTED_GROUPS.has(first) && second && verbs.has(second));
}

export function isDestructive(command: string): boolean {
  return flattenCommands(parseCommandLine(command)).some((row) => isDestructiveArgv(row.program, row.argv));
}
