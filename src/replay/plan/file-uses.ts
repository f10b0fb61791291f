import type { KeptUnit } from './choose.js';
import type { FileRecord } from './file-state.js';
import { normalizePath } from './leaves.js';
import { START_KINDS } from './units.js';
import { expandHome } from './workdir.js';

/**
 * Which written files the deployment needs: a file a later kept step names (by path, by a path
 * relative to where it ran, or by a distinctive file name), or reads without naming it: the
 * compose file and the config files beside it for `docker compose` run in that folder, a unit file
 * or drop-in for `systemctl … UNIT`, a file under /etc/SERVICE for a step that runs or restarts
 * SERVICE, a Dockerfile for `docker build` there, a config file in the folder a service starts in
 * (a server started there, or a unit whose WorkingDirectory= it is: `python main.py` reads its
 * config.yml without naming it). Notes and docs are never needed implicitly.
 * A local file that a step copies to a host (`scp F h:DEST`) is needed there, at DEST. Pure.
 */

export interface FilePlacement {
  file: FileRecord;
  /** Where the step writes it: the recorded host and path (a copy's destination for scp). */
  host: string | null;
  path: string;
  /** The first kept step that needs it. */
  before: KeptUnit;
  /** The scp that copied it there, which the file's own step replaces. */
  copiedBy: KeptUnit | null;
}

const DOC = /\.(?:md|markdown|txt|rst|adoc|org)$|(?:^|\/)(?:README|NOTES|CHANGELOG|TODO)[^/]*$/i;
const UNIT_FILE = /\/systemd\/(?:system|user)\/([^/]+?)\.(?:service|timer|socket|target|path|mount)(?:\.d\/[^/]+)?$/;
/** A file a program reads for its settings. */
const CONFIG = /\.(?:ya?ml|json|toml|ini|conf|cfg|env)$|(?:^|\/)\.env$/i;
const LAUNCH_AGENT = /\/Library\/Launch(?:Agents|Daemons)\/([^/]+)\.plist$/;

/** Services by name (a systemd unit, a launchd agent) and the folder each starts in, from the unit files the session wrote. */
export type ServiceDirs = ReadonlyMap<string, string>;

function serviceDirsOf(files: readonly FileRecord[], home: string | null): Map<string, string> {
  const dirs = new Map<string, string>();
  for (const file of files) {
    const name = UNIT_FILE.exec(file.path)?.[1] ?? LAUNCH_AGENT.exec(file.path)?.[1];
    if (!name || file.content === null) continue;
    const dir = /^WorkingDirectory=\s*(\S+)\s*$/m.exec(file.content)?.[1] ?? /<key>WorkingDirectory<\/key>\s*<string>([^<]+)<\/string>/.exec(file.content)?.[1];
    if (dir) dirs.set(name, normalizePath(expandHome(dir, home)));
  }
  return dirs;
}

/** The step starts a service whose folder is `dir`. */
function startsIn(kept: KeptUnit, dir: string, home: string | null, services: ServiceDirs): boolean {
  const { unit } = kept;
  if (!unit.segment.actions.some((a) => START_KINDS.has(a.kind))) return false;
  return unit.changes.some((leaf) => {
    if (leaf.command.program === 'systemctl' || leaf.command.program === 'launchctl') {
      return leaf.command.argv.some((word) => [...services].some(([name, at]) => at === dir && (word === name || word.startsWith(`${name}.`) || word.endsWith(`/${name}.plist`))));
    }
    return leaf.cwd !== null && normalizePath(expandHome(leaf.cwd, home)) === dir && leaf.inContainer === null;
  });
}

function under(path: string, dir: string | null): boolean {
  return dir !== null && (path === dir || path.startsWith(`${dir.replace(/\/$/, '')}/`));
}

function dirOf(path: string): string {
  return path.slice(0, Math.max(1, path.lastIndexOf('/')));
}

function names(path: string, cwd: string | null, home: string | null): string[] {
  const forms = new Set<string>([path]);
  if (home && path.startsWith(`${home}/`)) forms.add(`~${path.slice(home.length)}`);
  if (cwd && under(path, cwd)) forms.add(path.slice(cwd.replace(/\/$/, '').length + 1));
  const base = path.split('/').pop() ?? '';
  if (base.length >= 5 && /[.-]/.test(base)) forms.add(base);
  return [...forms].filter(Boolean);
}

function mentions(command: string, forms: readonly string[]): boolean {
  return forms.some((form) => new RegExp(`(?:^|[\\s'"=:/,(])${form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[\\s'";|&)<>,])`).test(command));
}

/** Does this kept step need the file (at this host and path)? */
export function needs(kept: KeptUnit, path: string, host: string | null, home: string | null, services: ServiceDirs = new Map()): boolean {
  const { unit } = kept;
  if (unit.segment.host !== host && !(host === null && unit.segment.viaDockerHost)) return false;
  const cwd = unit.cwd === null ? null : expandHome(unit.cwd, home);
  if (mentions(kept.command, names(path, cwd, home))) return true;
  if (DOC.test(path)) return false;
  const unitName = UNIT_FILE.exec(path)?.[1];
  const service = /^\/etc\/([^/]+)\//.exec(path)?.[1];
  if (CONFIG.test(path) && !unitName && !LAUNCH_AGENT.test(path) && startsIn(kept, dirOf(path), home, services)) return true;
  return unit.changes.some((leaf) => {
    const { program, argv } = leaf.command;
    const dir = leaf.cwd === null ? null : expandHome(leaf.cwd, home);
    const compose = (program === 'docker' && argv[1] === 'compose') || program === 'docker-compose' || (program === 'podman' && argv[1] === 'compose');
    if (compose && under(path, dir)) return true;
    if (program === 'docker' && /^(?:build|buildx)$/.test(argv[1] ?? '') && dir !== null && dirOf(path) === dir) return true;
    if (unitName && (program === 'systemctl' || program === 'service') && argv.some((word) => word === unitName || word.startsWith(`${unitName}.`))) return true;
    if (service && !unitName && (program === service || argv.some((word) => word === service || word === `${service}.service`))) return true;
    return false;
  });
}

/** `scp SRC [user@]host:DEST` of a written local file: where it lands. */
function copyOf(kept: KeptUnit, file: FileRecord, home: string | null): { host: string; path: string } | null {
  if (file.host !== null) return null;
  const copies = kept.unit.changes.filter((leaf) => leaf.command.program === 'scp' || leaf.command.program === 'rsync');
  for (const leaf of copies) {
    const args = leaf.command.argv.slice(1).filter((word) => !word.startsWith('-'));
    const dest = args.at(-1);
    const remote = dest ? /^(?:[^@\s]+@)?([^:\s]+):(.*)$/.exec(dest) : null;
    if (!remote || args.length < 2) continue;
    const cwd = leaf.cwd === null ? null : expandHome(leaf.cwd, home);
    const sources = args.slice(0, -1).map((src) => expandHome(src.startsWith('/') || src.startsWith('~') || cwd === null ? src : `${cwd}/${src}`, home));
    if (!sources.includes(file.path)) continue;
    const base = file.path.split('/').pop() ?? '';
    const target = remote[2] === '' || remote[2]?.endsWith('/') ? `${remote[2] ?? ''}${base}` : (remote[2] as string);
    return { host: remote[1] as string, path: normalizePath(target.startsWith('/') || target.startsWith('~') ? target : `~/${target}`) };
  }
  return null;
}

export function placeFiles(files: readonly FileRecord[], kept: readonly KeptUnit[], orderOfCall: ReadonlyMap<string, number>, home: string | null): { placements: FilePlacement[]; unused: FileRecord[] } {
  const placements: FilePlacement[] = [];
  const unused: FileRecord[] = [];
  const services = serviceDirsOf(files, home);
  for (const file of files) {
    if (file.deleted) {
      unused.push(file);
      continue;
    }
    const first = Math.min(...file.changedBy.map((c) => orderOfCall.get(c.callId) ?? Infinity));
    const later = kept.filter((k) => (orderOfCall.get(k.unit.call.callId) ?? -1) >= first);
    let placed = false;
    for (const candidate of later) {
      const copy = copyOf(candidate, file, home);
      if (copy) {
        placements.push({ file, host: copy.host, path: copy.path, before: candidate, copiedBy: candidate });
        placed = true;
        break;
      }
      if (needs(candidate, file.path, file.host, home, services)) {
        placements.push({ file, host: candidate.unit.segment.viaDockerHost ? candidate.unit.segment.host : file.host, path: file.path, before: candidate, copiedBy: null });
        placed = true;
        break;
      }
    }
    if (!placed) unused.push(file);
  }
  return { placements, unused };
}
