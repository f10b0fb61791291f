import { expandPathTokens, resolveHost, type SshConfig } from './ssh-config.js';

/** What a user typed after `--host ROLE=`: `[user@]host[:port]`, IPv6 as `[addr]:port`. */
export interface HostSpec {
  user: string | null;
  host: string;
  port: number | null;
}

export class HostSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostSpecError';
  }
}

export function parseHostSpec(text: string): HostSpec {
  const at = text.lastIndexOf('@');
  const user = at >= 0 ? text.slice(0, at) : null;
  const rest = at >= 0 ? text.slice(at + 1) : text;
  if (user !== null && !/^[A-Za-z0-9._-]+$/.test(user)) throw new HostSpecError(`"${text}": not a user name: "${user}"`);
  let host: string;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(rest);
  if (bracketed) {
    host = bracketed[1] ?? '';
    portText = bracketed[2];
  } else {
    const parts = rest.split(':');
    if (parts.length > 2) throw new HostSpecError(`"${text}": write an IPv6 address as [addr]:port`);
    host = parts[0] ?? '';
    portText = parts[1];
  }
  if (!/^[A-Za-z0-9._:%-]+$/.test(host)) throw new HostSpecError(`"${text}": not a host name or address`);
  let port: number | null = null;
  if (portText !== undefined) {
    port = Number(portText);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new HostSpecError(`"${text}": port must be 1–65535`);
  }
  return { user, host, port };
}

/** `ROLE=[user@]host[:port]` as given to `--host`. */
export function parseRoleAssignment(text: string): { role: string; spec: HostSpec } {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new HostSpecError(`--host ${text}: expected ROLE=[user@]host[:port], e.g. head=aurora@spark-1`);
  return { role: text.slice(0, eq), spec: parseHostSpec(text.slice(eq + 1)) };
}

/** A host to connect to, with everything ssh_config and the command line said about it. */
export interface ResolvedTarget {
  /** What the user named (an alias, a name or an address). */
  alias: string;
  host: string;
  port: number;
  user: string;
  identityFiles: string[];
  identitiesOnly: boolean;
  knownHostsFiles: string[];
  /** Hops to go through first, outermost first. */
  jumps: ResolvedTarget[];
  keepaliveIntervalS: number | null;
  keepaliveCountMax: number | null;
  connectTimeoutS: number | null;
}

export interface ResolveContext {
  config: SshConfig;
  home: string;
  localUser: string;
}

/** Command line wins over ssh_config, which wins over defaults (port 22, the local user). */
export function resolveTarget(spec: HostSpec, context: ResolveContext, depth = 0): ResolvedTarget {
  if (depth > 8) throw new HostSpecError(`ProxyJump chain through ${spec.host} is longer than 8 hops (a loop?)`);
  const settings = resolveHost(context.config, spec.host);
  const user = spec.user ?? settings.user ?? context.localUser;
  const port = spec.port ?? settings.port ?? 22;
  const tokens = { home: context.home, localUser: context.localUser, host: settings.hostName, remoteUser: user, port };
  return {
    alias: spec.host,
    host: settings.hostName,
    port,
    user,
    identityFiles: settings.identityFiles.map((file) => expandPathTokens(file, tokens)),
    identitiesOnly: settings.identitiesOnly,
    knownHostsFiles: settings.userKnownHostsFiles.map((file) => expandPathTokens(file, tokens)),
    jumps: settings.proxyJump.map((hop) => resolveTarget(parseHostSpec(hop), context, depth + 1)),
    keepaliveIntervalS: settings.serverAliveInterval,
    keepaliveCountMax: settings.serverAliveCountMax,
    connectTimeoutS: settings.connectTimeout,
  };
}

/** `user@host:port` as shown to users and stored with each step. */
export function describeTarget(target: Pick<ResolvedTarget, 'user' | 'host' | 'port'>): string {
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  return `${target.user}@${host}:${target.port}`;
}
