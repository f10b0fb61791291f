// Runs commands on the test hosts with the real OpenSSH client, the way an operator would:
// strict host key checking against a given known_hosts file, the throwaway client key only.
import { spawn, type ChildProcess } from 'node:child_process';
import type { HostRole, TestHosts } from './harness.js';

export interface SshResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export interface SshOptions {
  /** Defaults to the harness' plain known_hosts file. */
  knownHostsPath?: string;
  /** Kills the client after this long (the result then has signal SIGKILL). */
  timeoutMs?: number;
  extraOptions?: string[];
}

export function sshArguments(hosts: TestHosts, role: HostRole, command: string, options: SshOptions = {}): string[] {
  const host = hosts.host(role);
  return [
    '-F', '/dev/null', // never the machine's own ~/.ssh/config
    '-i', hosts.clientKeyPath,
    '-o', 'IdentitiesOnly=yes',
    '-o', 'BatchMode=yes',
    '-o', `UserKnownHostsFile=${options.knownHostsPath ?? hosts.knownHostsPath}`,
    '-o', 'GlobalKnownHostsFile=/dev/null',
    '-o', 'StrictHostKeyChecking=yes',
    '-o', 'ConnectTimeout=5',
    ...(options.extraOptions ?? []),
    '-p', String(host.port),
    `${host.user}@${host.address}`,
    command,
  ];
}

/** Starts `ssh … command` and resolves once the client exits. */
export function startSsh(
  hosts: TestHosts,
  role: HostRole,
  command: string,
  options: SshOptions = {},
): { child: ChildProcess; result: Promise<SshResult> } {
  const started = Date.now();
  const child = spawn('ssh', sshArguments(hosts, role, command, options), { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  const result = new Promise<SshResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, durationMs: Date.now() - started });
    });
  });
  return { child, result };
}

export function runSsh(hosts: TestHosts, role: HostRole, command: string, options: SshOptions = {}): Promise<SshResult> {
  return startSsh(hosts, role, command, { timeoutMs: 20_000, ...options }).result;
}
