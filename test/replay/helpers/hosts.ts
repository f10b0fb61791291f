// The replay tests' view of the SSH harness: starts the two loopback test hosts (127.0.0.2 and
// 127.0.0.3 only) and gives the settings the runner needs to reach them.
import { afterAll } from 'vitest';
import type { SshSettings } from '../../../src/replay/run/live-replay.js';
import { startTestHosts, type HostRole, type StartTestHostsOptions, type TestHosts } from '../../ssh/harness.js';

/** Starts the test hosts for this file and stops them after it. */
export async function useTestHosts(options: StartTestHostsOptions = {}): Promise<TestHosts> {
  const hosts = await startTestHosts({ ...options, sessionEnv: { SPARK_SIM_LOAD_SECONDS: '0', ...options.sessionEnv } });
  afterAll(() => hosts.stop());
  return hosts;
}

/** `user@127.0.0.x:port` of a test host, as a user would pass it to --host. */
export function hostSpec(hosts: TestHosts, role: HostRole): string {
  const host = hosts.host(role);
  return `${host.user}@${host.address}:${host.port}`;
}

/** SSH settings that use only the harness's files (never the user's ~/.ssh). */
export function testSshSettings(hosts: TestHosts, overrides: Partial<SshSettings> = {}): SshSettings {
  return {
    sshConfigPath: '/dev/null',
    knownHostsFile: hosts.knownHostsPath,
    identityFile: hosts.clientKeyPath,
    acceptNew: false,
    keepaliveIntervalMs: 500,
    keepaliveCountMax: 2,
    readyTimeoutMs: 10_000,
    env: { HOME: hosts.rootDir, USER: hosts.hosts[0]?.user ?? 'root' },
    ...overrides,
  };
}
