import { patternListMatches } from './known-hosts.js';

/**
 * The part of OpenSSH's client configuration retrace honours: `Host` blocks (patterns with `*`,
 * `?` and `!`), first value wins, `Include` (globs, `~`, paths relative to ~/.ssh, nested up to
 * 16 deep, inside a Host block too: the included options then apply only where that block does),
 * and the keywords that decide where and as whom to connect. `Match` blocks are not evaluated
 * (their options never apply) and are reported so a user knows why an option had no effect.
 * Pure: text in, values out; included files are read through the function the caller passes.
 */

export interface SshConfigBlock {
  /** null for the options before the first Host line, which apply to every host. */
  patterns: string[] | null;
  /** Skipped blocks (`Match`) keep their options for messages only. */
  skipped: boolean;
  options: { key: string; value: string; line: number }[];
}

export interface SshConfig {
  blocks: SshConfigBlock[];
  notes: { line: number; message: string }[];
}

/** Where `Include` finds its files: the paths a (glob) pattern names, in order, with their text. */
export type IncludeReader = (pattern: string) => { path: string; text: string }[];

export interface IncludeContext {
  /** The file being parsed, for messages. */
  file: string;
  /** `~` and relative Include paths (which OpenSSH reads from ~/.ssh). */
  home: string;
  readIncluded: IncludeReader;
}

/** OpenSSH's READCONF_MAX_DEPTH. */
const MAX_INCLUDE_DEPTH = 16;

/** Splits `Key value`, `Key=value` and `Key "quoted value"` into its words. */
function words(text: string): string[] {
  const out: string[] = [];
  const pattern = /"([^"]*)"|(\S+)/g;
  for (const match of text.matchAll(pattern)) out.push(match[1] ?? match[2] ?? '');
  return out;
}

function includePath(word: string, home: string): string {
  if (word === '~' || word.startsWith('~/')) return `${home}${word.slice(1)}`;
  return word.startsWith('/') ? word : `${home}/.ssh/${word}`;
}

export function parseSshConfig(text: string, include?: IncludeContext): SshConfig {
  const blocks: SshConfigBlock[] = [{ patterns: null, skipped: false, options: [] }];
  const notes: SshConfig['notes'] = [];
  const parse = (body: string, file: string | null, depth: number): void => {
    body.split(/\r?\n/).forEach((raw, index) => {
      const line = index + 1;
      const where = file && depth > 0 ? `${file}:${line}: ` : '';
      const trimmed = raw.trim();
      if (trimmed === '' || trimmed.startsWith('#')) return;
      const split = /^([A-Za-z][A-Za-z0-9]*)\s*(?:=\s*|\s+)(.*)$/.exec(trimmed);
      if (!split) {
        notes.push({ line, message: `${where}not "Keyword value": ${trimmed}` });
        return;
      }
      const key = (split[1] ?? '').toLowerCase();
      const value = (split[2] ?? '').trim();
      if (key === 'host') {
        blocks.push({ patterns: words(value), skipped: false, options: [] });
        return;
      }
      if (key === 'match') {
        notes.push({ line, message: `${where}Match blocks are not evaluated; their options are ignored` });
        blocks.push({ patterns: [], skipped: true, options: [] });
        return;
      }
      if (key === 'include') {
        if (!include) {
          notes.push({ line, message: `${where}Include ${value} is not followed (no file to read it from)` });
          return;
        }
        if (depth >= MAX_INCLUDE_DEPTH) {
          notes.push({ line, message: `${where}Include ${value}: nested more than ${MAX_INCLUDE_DEPTH} deep (a loop?); not followed` });
          return;
        }
        const around = blocks.at(-1) ?? { patterns: null, skipped: false, options: [] };
        for (const word of words(value)) {
          const found = include.readIncluded(includePath(word, include.home));
          for (const { path, text: included } of found) parse(included, path, depth + 1);
        }
        // Back in the including file: its lines go on under the block the Include was in.
        if (blocks.at(-1) !== around) blocks.push({ patterns: around.patterns, skipped: around.skipped, options: [] });
        return;
      }
      blocks.at(-1)?.options.push({ key, value, line });
    });
  };
  parse(text, include?.file ?? null, 0);
  return { blocks, notes };
}

export interface HostSettings {
  /** The name to connect to (HostName, with %h expanded), or the alias itself. */
  hostName: string;
  user: string | null;
  port: number | null;
  identityFiles: string[];
  identitiesOnly: boolean;
  /** ProxyJump hops in order (`none` clears it); each `[user@]host[:port]`, itself resolvable. */
  proxyJump: string[];
  userKnownHostsFiles: string[];
  strictHostKeyChecking: string | null;
  serverAliveInterval: number | null;
  serverAliveCountMax: number | null;
  connectTimeout: number | null;
}

const SINGLE_VALUED = [
  'hostname',
  'user',
  'port',
  'identitiesonly',
  'proxyjump',
  'userknownhostsfile',
  'stricthostkeychecking',
  'serveraliveinterval',
  'serveralivecountmax',
  'connecttimeout',
] as const;

function numberOrNull(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

/** Settings for `alias`: every matching block in file order, the first value of each keyword wins. */
export function resolveHost(config: SshConfig, alias: string): HostSettings {
  const first = new Map<string, string>();
  const identityFiles: string[] = [];
  for (const block of config.blocks) {
    if (block.skipped) continue;
    if (block.patterns !== null && !patternListMatches(block.patterns, alias)) continue;
    for (const option of block.options) {
      if (option.key === 'identityfile') identityFiles.push(option.value.replace(/^"(.*)"$/, '$1'));
      else if ((SINGLE_VALUED as readonly string[]).includes(option.key) && !first.has(option.key)) first.set(option.key, option.value);
    }
  }
  const hostName = (first.get('hostname') ?? alias).replace(/%h/g, alias);
  const jump = first.get('proxyjump');
  return {
    hostName,
    user: first.get('user') ?? null,
    port: numberOrNull(first.get('port')),
    identityFiles,
    identitiesOnly: (first.get('identitiesonly') ?? 'no').toLowerCase() === 'yes',
    proxyJump: jump === undefined || jump.toLowerCase() === 'none' ? [] : jump.split(',').map((hop) => hop.trim()).filter(Boolean),
    userKnownHostsFiles: words(first.get('userknownhostsfile') ?? ''),
    strictHostKeyChecking: first.get('stricthostkeychecking')?.toLowerCase() ?? null,
    serverAliveInterval: numberOrNull(first.get('serveraliveinterval')),
    serverAliveCountMax: numberOrNull(first.get('serveralivecountmax')),
    connectTimeout: numberOrNull(first.get('connecttimeout')),
  };
}

export interface TokenContext {
  home: string;
  localUser: string;
  host: string;
  remoteUser: string;
  port: number;
}

/** Expands `~` and the `%` tokens OpenSSH allows in IdentityFile and UserKnownHostsFile. */
export function expandPathTokens(path: string, context: TokenContext): string {
  const withHome = path === '~' ? context.home : path.startsWith('~/') ? `${context.home}${path.slice(1)}` : path;
  return withHome.replace(/%([%dhurp])/g, (_, token: string) => {
    switch (token) {
      case '%':
        return '%';
      case 'd':
        return context.home;
      case 'h':
        return context.host;
      case 'u':
        return context.localUser;
      case 'r':
        return context.remoteUser;
      default:
        return String(context.port);
    }
  });
}
