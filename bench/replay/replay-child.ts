import { spawn } from 'node:child_process';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { readFileSync } from 'node:fs';
import { SshHostExecutor } from '../../src/replay/run/host-executor.js';
import { SshConnection, type ConnectOptions } from '../../src/replay/ssh/connection.js';
import type { ResolvedTarget } from '../../src/replay/ssh/host-target.js';
import { emitResult } from '../lib/child.js';
import { median, percentile } from '../lib/stats.js';

/**
 * `node replay-child.js HOST_JSON STEPS`: the cost of one replay step that does nothing (`true`)
 * on a loopback sshd, four ways, interleaved in blocks so load spikes hit them alike:
 * retrace's runner executor over its persistent ssh2 connection, a bare ssh2 exec on one
 * connection (what the transport itself costs) with and without TCP_NODELAY, `ssh … true` per
 * step, and `ssh` through a ControlMaster socket.
 */
export interface ModeTiming {
  medianMs: number;
  p95Ms: number;
  steps: number;
}

export interface ReplayChildResult {
  connectMs: { ssh2: number; controlMaster: number };
  executor: ModeTiming;
  rawSsh2: ModeTiming;
  /** The bare exec again on a connection with Nagle's algorithm off (TCP_NODELAY), which ssh2 leaves on. */
  rawSsh2NoDelay: ModeTiming;
  openssh: ModeTiming;
  controlMaster: ModeTiming;
}

interface HostInfo {
  address: string;
  port: number;
  user: string;
  clientKeyPath: string;
  knownHostsPath: string;
  dir: string;
}

const [hostJson, stepsText = '60'] = process.argv.slice(2);
if (!hostJson) throw new Error('usage: replay-child.js HOST_JSON [STEPS]');
const host = JSON.parse(hostJson) as HostInfo;
const steps = Number(stepsText);
const BLOCK = 10;

function sshArgs(extra: string[]): string[] {
  return [
    '-F', '/dev/null',
    '-i', host.clientKeyPath,
    '-o', 'IdentitiesOnly=yes',
    '-o', 'BatchMode=yes',
    '-o', `UserKnownHostsFile=${host.knownHostsPath}`,
    '-o', 'GlobalKnownHostsFile=/dev/null',
    '-o', 'StrictHostKeyChecking=yes',
    ...extra,
    '-p', String(host.port),
    `${host.user}@${host.address}`,
    'true',
  ];
}

const controlPath = join(host.dir, 'cm-%C');
const CONTROL = ['-o', 'ControlMaster=auto', '-o', `ControlPath=${controlPath}`, '-o', 'ControlPersist=120'];

function runSsh(extra: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('ssh', sshArgs(extra), { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`ssh exited ${code}: ${stderr.trim()}`))));
  });
}

const target: ResolvedTarget = {
  alias: host.address,
  host: host.address,
  port: host.port,
  user: host.user,
  identityFiles: [host.clientKeyPath],
  identitiesOnly: true,
  knownHostsFiles: [host.knownHostsPath],
  jumps: [],
  keepaliveIntervalS: 15,
  keepaliveCountMax: 3,
  connectTimeoutS: 10,
};
const options: ConnectOptions = {
  knownHostsFiles: [host.knownHostsPath],
  acceptNew: false,
  identityFiles: [host.clientKeyPath],
  agentSocket: null,
  keepaliveIntervalMs: 15_000,
  keepaliveCountMax: 3,
  readyTimeoutMs: 10_000,
};

let t = performance.now();
const connection = await SshConnection.open(target, options);
const ssh2Connect = performance.now() - t;
const executor = new SshHostExecutor('head', connection);

async function rawClient(noDelay: boolean): Promise<InstanceType<typeof ssh2.Client>> {
  const client = new ssh2.Client();
  await new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('error', reject);
    client.connect({ host: host.address, port: host.port, username: host.user, privateKey: readFileSync(host.clientKeyPath) });
  });
  if (noDelay) client.setNoDelay(true);
  return client;
}
const raw = await rawClient(false);
const rawNoDelay = await rawClient(true);

function rawExec(client: InstanceType<typeof ssh2.Client>): Promise<void> {
  return new Promise((resolve, reject) => {
    client.exec('true', (error, stream) => {
      if (error) {
        reject(error);
        return;
      }
      stream.on('data', () => undefined);
      stream.stderr.on('data', () => undefined);
      stream.once('close', () => resolve());
    });
  });
}

t = performance.now();
await runSsh(CONTROL); // starts the master; later steps reuse its socket
const masterConnect = performance.now() - t;

const modes = {
  executor: async () => {
    const outcome = await executor.run('true', { timeoutMs: 30_000, secrets: {} });
    if (outcome.kind !== 'exited' || outcome.exitCode !== 0) throw new Error(`executor step: ${JSON.stringify(outcome)}`);
  },
  rawSsh2: () => rawExec(raw),
  rawSsh2NoDelay: () => rawExec(rawNoDelay),
  openssh: () => runSsh([]),
  controlMaster: () => runSsh(CONTROL),
} as const;
const times: Record<keyof typeof modes, number[]> = { executor: [], rawSsh2: [], rawSsh2NoDelay: [], openssh: [], controlMaster: [] };

// One warm-up step each, not counted.
for (const work of Object.values(modes)) await work();
for (let done = 0; done < steps; done += BLOCK) {
  for (const [name, work] of Object.entries(modes) as [keyof typeof modes, () => Promise<void>][]) {
    for (let i = 0; i < BLOCK; i += 1) {
      const start = performance.now();
      await work();
      times[name].push(performance.now() - start);
    }
  }
}

await new Promise<void>((resolve) => {
  // Same options as the steps, so %C names the same socket.
  const child = spawn('ssh', ['-O', 'exit', ...sshArgs(CONTROL).slice(0, -1)], { stdio: 'ignore' });
  child.once('close', () => resolve());
});
executor.close();
raw.end();
rawNoDelay.end();

const summary = (values: number[]): ModeTiming => ({ medianMs: median(values), p95Ms: percentile(values, 95), steps: values.length });
emitResult({
  connectMs: { ssh2: ssh2Connect, controlMaster: masterConnect },
  executor: summary(times.executor),
  rawSsh2: summary(times.rawSsh2),
  rawSsh2NoDelay: summary(times.rawSsh2NoDelay),
  openssh: summary(times.openssh),
  controlMaster: summary(times.controlMaster),
} satisfies ReplayChildResult);
process.exit(0);
