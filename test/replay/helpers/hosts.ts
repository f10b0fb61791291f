// The replay tests' view of the SSH harness: starts the two loopback test hosts (127.0.0.2 and
// 127.0.0.3 only) and gives the settings the runner needs to reach them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll } from 'vitest';
import type { SshSettings } from '../../../src/replay/run/live-replay.js';
import { startTestHosts, type HostRole, type StartTestHostsOptions, type TestHosts } from '../../ssh/harness.js';

const started: TestHosts[] = [];
// Registered once, when a test file imports this module: vitest never runs an `afterAll` that is
// registered inside `beforeAll`, where the hosts are started.
afterAll(async () => {
  await Promise.all(started.splice(0).map((hosts) => hosts.stop()));
});

/** Starts the test hosts for this file and stops them after it. */
export async function useTestHosts(options: StartTestHostsOptions = {}): Promise<TestHosts> {
  const hosts = await startTestHosts({ ...options, sessionEnv: { SPARK_SIM_LOAD_SECONDS: '0', ...options.sessionEnv } });
  started.push(hosts);
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

/**
 * The model downloads (`hf download … Qwen3.5…`) running on these test hosts, told apart by the
 * HOME of their session: other test files may download the same model on their own hosts at once.
 */
export function downloadsRunningOn(hosts: TestHosts): string[] {
  const homes = hosts.hosts.map((host) => `HOME=${host.homeDir}`);
  const listed = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
  return listed.filter((line) => line.includes('hf download') && line.includes('Qwen3.5') && homes.some((home) => environmentOf(Number(line.trim().split(' ')[0])).includes(home)));
}

function environmentOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  } catch {
    return []; // gone meanwhile
  }
}
