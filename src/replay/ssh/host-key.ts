import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  decideHostKey,
  hostKeyAlgorithmsFor,
  knownHostsLine,
  knownHostsName,
  knownKeysFor,
  parseKnownHosts,
  type HostKeyDecision,
  type KnownHostsFile,
} from './known-hosts.js';

/**
 * The host-key policy, applied before a single byte of a command is sent: a key known for the
 * host is trusted; an unknown host is refused unless the user passed --accept-new (then its key
 * is added to the first known_hosts file); a changed or revoked key is always refused.
 */

export class HostKeyRefusedError extends Error {
  constructor(
    message: string,
    readonly decision: HostKeyDecision,
  ) {
    super(message);
    this.name = 'HostKeyRefusedError';
  }
}

export function loadKnownHosts(paths: readonly string[]): KnownHostsFile[] {
  return paths.filter((path) => existsSync(path)).map((path) => parseKnownHosts(readFileSync(path, 'utf8'), path));
}

export interface HostKeyPolicy {
  knownHostsFiles: readonly string[];
  acceptNew: boolean;
}

export interface HostKeyCheck {
  /** Host key algorithms to offer (the types already known for this host), or null for any. */
  algorithms: string[] | null;
  /** Judges the key the server presented; throws HostKeyRefusedError when it must be refused. */
  verify(presented: Buffer): HostKeyDecision;
}

export function hostKeyCheck(host: string, port: number, policy: HostKeyPolicy): HostKeyCheck {
  const files = loadKnownHosts(policy.knownHostsFiles);
  const knownTypes = [...new Set(knownKeysFor(files, host, port).map((key) => key.keyType))];
  const name = knownHostsName(host, port);
  return {
    // A key known as `ssh-rsa` is offered as rsa-sha2-512/256 first: OpenSSH ≥ 8.8 no longer signs with SHA-1.
    algorithms: knownTypes.length > 0 ? hostKeyAlgorithmsFor(knownTypes) : null,
    verify(presented) {
      const decision = decideHostKey(files, host, port, presented);
      switch (decision.status) {
        case 'trusted':
          return decision;
        case 'revoked':
          throw new HostKeyRefusedError(
            `the host key of ${name} (${decision.keyType} ${decision.fingerprint}) is marked @revoked in ${decision.matched.file}:${decision.matched.line}; refusing to connect`,
            decision,
          );
        case 'changed': {
          const old = decision.known.map((key) => `${key.file}:${key.line} holds ${key.keyType} ${key.fingerprint}`).join('; ');
          throw new HostKeyRefusedError(
            `HOST KEY CHANGED for ${name}: it presents ${decision.keyType} ${decision.fingerprint}, but ${old}. ` +
              'Someone may be intercepting the connection, or the machine was reinstalled. retrace never connects ' +
              `to a host whose key changed; if the change is expected, remove the old entry (ssh-keygen -R '${name}') and run again.`,
            decision,
          );
        }
        case 'unknown': {
          const target = policy.knownHostsFiles[0];
          if (!policy.acceptNew || !target) {
            throw new HostKeyRefusedError(
              `the host key of ${name} is not known: ${decision.keyType} ${decision.fingerprint}. ` +
                `Compare this fingerprint with the machine's own (ssh-keygen -lf /etc/ssh/ssh_host_${decision.keyType.replace(/^ssh-/, '')}_key.pub), ` +
                `then run again with --accept-new to add it to ${target ?? '~/.ssh/known_hosts'}.`,
              decision,
            );
          }
          mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
          const needsNewline = existsSync(target) && !/(^|\n)$/.test(readFileSync(target, 'utf8'));
          appendFileSync(target, `${needsNewline ? '\n' : ''}${knownHostsLine(host, port, presented)}`, { mode: 0o600 });
          return decision;
        }
      }
    },
  };
}
