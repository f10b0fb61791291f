// Real OpenSSH servers on loopback for the replay tests: head on 127.0.0.2 and worker on
// 127.0.0.3 by default, and on request hosts as distributions ship them differently: one known
// only by an RSA host key (127.0.0.4), one only by ECDSA (127.0.0.5), one whose login shell is
// dash (127.0.0.6), and three more workers for a fleet (127.0.0.7–9). Each has its own throwaway host key, temp HOME and simulated DGX Spark
// toolset (test/spark-sim/bin) first on the session PATH, on a free port picked per start (two
// test files, or two checkouts, never collide). Nothing else is ever bound or contacted.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { hostSetPrefix, killHostSetSync, reapOrphanedHostSets, trackHostSet, type LiveHostSet } from './cleanup.js';
import { generateEd25519Key, generateHostKey, knownHostsName, readPublicKey, sha256Fingerprint, writeHashedKnownHosts, type HostKeyType } from './keys.js';
import { findFreePort, waitForSshBanner } from './ports.js';
import { connectionProcessesOf, descendantsOf, signalAll } from './processes.js';
import { renderLoginProfile, renderSessionStartScript, renderSshConfig, renderSshdConfig } from './sshd-config.js';

export type HostRole = 'head' | 'worker' | 'rsa' | 'ecdsa' | 'dash' | 'worker-2' | 'worker-3' | 'worker-4';

export interface TestHost {
  role: HostRole;
  address: string;
  port: number;
  user: string;
  /** The simulated machine's name (`SPARK_SIM_HOSTNAME`), as in the recorded session. */
  hostname: string;
  /** The `Host` alias of this machine in `sshConfigPath`. */
  alias: string;
  /** `SPARK_SIM_STATE`: images, containers, services of this host's simulated toolset. */
  stateDir: string;
  /** The session's HOME (and working directory); `~/.cache/huggingface` lives here. */
  homeDir: string;
  /** "SHA256:…" of the current host key; changes after `rotateHostKey`. */
  hostKeyFingerprint: string;
}

export interface StartTestHostsOptions {
  /** sshd ClientAliveInterval in seconds; 0 (the default) sends no server keepalives. */
  clientAliveInterval?: number;
  clientAliveCountMax?: number;
  /** More session environment, e.g. `{ SPARK_SIM_LOAD_SECONDS: '1' }` to tune the simulation. */
  sessionEnv?: Readonly<Record<string, string>>;
  /** Which hosts to start (default head and worker). */
  roles?: readonly HostRole[];
  /** Programs of the simulated toolset left off a role's PATH (`{ worker: ['docker'] }`: a host without docker). */
  withoutTools?: Partial<Record<HostRole, readonly string[]>>;
  /** The folder the host set is made in (default hostsBaseDir(): /var/tmp when writable, else the temp dir). */
  baseDir?: string;
}

export interface TestHosts {
  hosts: TestHost[];
  host(role: HostRole): TestHost;
  rootDir: string;
  /** `SPARK_SIM_CLUSTER`: the Ray cluster state the two hosts share. */
  clusterDir: string;
  clientKeyPath: string;
  knownHostsPath: string;
  /** The same entries as `knownHostsPath`, hashed (`|1|salt|hash`) by `ssh-keygen -H`. */
  hashedKnownHostsPath: string;
  /** A ~/.ssh/config-style file with `Host spark-head` and `Host spark-worker`. */
  sshConfigPath: string;
  /** New host key and a restarted sshd on the same port; known_hosts files are left stale on purpose. */
  rotateHostKey(role: HostRole): Promise<string>;
  /** SIGKILLs the per-connection sshd processes: live connections drop. Returns how many were killed. */
  killSessions(role: HostRole): number;
  /** SIGSTOPs the per-connection sshd processes: the peer stops answering but the TCP stays up. */
  freeze(role: HostRole): number;
  thaw(role: HostRole): number;
  stop(): Promise<void>;
}

interface HostSpec {
  role: HostRole;
  address: string;
  hostname: string;
  alias: string;
  hostKeyType: HostKeyType;
  /** The shell sshd runs commands with (the account's login shell on a real host). */
  loginShell: string | null;
  /** What the simulated toolset takes the machine for (`SPARK_SIM_ROLE`): head, or a worker. */
  simRole?: 'head' | 'worker';
}

const HOST_SPECS: readonly HostSpec[] = [
  { role: 'head', address: '127.0.0.2', hostname: 'spark-1a32', alias: 'spark-head', hostKeyType: 'ed25519', loginShell: null },
  { role: 'worker', address: '127.0.0.3', hostname: 'spark-5be3', alias: 'spark-worker', hostKeyType: 'ed25519', loginShell: null },
  { role: 'rsa', address: '127.0.0.4', hostname: 'spark-rsa', alias: 'spark-rsa', hostKeyType: 'rsa', loginShell: null },
  { role: 'ecdsa', address: '127.0.0.5', hostname: 'spark-ecdsa', alias: 'spark-ecdsa', hostKeyType: 'ecdsa', loginShell: null },
  { role: 'dash', address: '127.0.0.6', hostname: 'spark-dash', alias: 'spark-dash', hostKeyType: 'ed25519', loginShell: '/bin/dash' },
  { role: 'worker-2', address: '127.0.0.7', hostname: 'spark-w2', alias: 'spark-worker-2', hostKeyType: 'ed25519', loginShell: null, simRole: 'worker' },
  { role: 'worker-3', address: '127.0.0.8', hostname: 'spark-w3', alias: 'spark-worker-3', hostKeyType: 'ed25519', loginShell: null, simRole: 'worker' },
  { role: 'worker-4', address: '127.0.0.9', hostname: 'spark-w4', alias: 'spark-worker-4', hostKeyType: 'ed25519', loginShell: null, simRole: 'worker' },
];

const SSHD_PATH = '/usr/sbin/sshd';
const runFile = promisify(execFile);
const SIM_BIN_DIR = fileURLToPath(new URL('../spark-sim/bin', import.meta.url));
const SIM_SEED = fileURLToPath(new URL('../spark-sim/seed', import.meta.url));
export const SESSION_PATH = `${SIM_BIN_DIR}:/usr/local/bin:/usr/bin:/bin`;

interface RunningHost {
  info: TestHost;
  dir: string;
  configPath: string;
  hostKeyPath: string;
  logPath: string;
  sshd: ChildProcess | undefined;
  sessionPath: string;
  hostKeyType: HostKeyType;
  sessionStartPath: string;
  loginShell: string | null;
  simRole: string;
}

/** sshd refuses to start without its privilege separation directory. */
function ensurePrivilegeSeparationDir(): void {
  try {
    mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  } catch (error) {
    throw new Error('cannot create /run/sshd, which sshd needs (run the tests as root)', { cause: error });
  }
}

async function launchSshd(host: RunningHost, render: (port: number) => string): Promise<void> {
  let lastError: unknown;
  // Another process may take the free port between our probe and sshd's bind: try a few.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = host.info.port || (await findFreePort(host.info.address));
    await writeFile(host.configPath, render(port), { mode: 0o600 });
    const logFd = openSync(host.logPath, 'a');
    const sshd = spawn(SSHD_PATH, ['-D', '-e', '-f', host.configPath], { stdio: ['ignore', logFd, logFd] });
    closeSync(logFd);
    let exited = false;
    sshd.once('exit', () => {
      exited = true;
    });
    try {
      await waitForSshBanner(host.info.address, port, { isStillStarting: () => !exited });
      host.sshd = sshd;
      host.info.port = port;
      return;
    } catch (error) {
      lastError = error;
      sshd.kill('SIGKILL');
      if (host.info.port) break; // a restart must keep its port: do not wander off
    }
  }
  const log = readFileSync(host.logPath, 'utf8').split('\n').slice(-10).join('\n');
  throw new Error(`sshd for ${host.info.role} (${host.info.address}) did not start:\n${log}`, { cause: lastError });
}

async function stopSshd(host: RunningHost): Promise<void> {
  const sshd = host.sshd;
  host.sshd = undefined;
  if (!sshd || sshd.exitCode !== null || sshd.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => sshd.once('exit', () => resolve()));
  sshd.kill('SIGTERM');
  const timer = setTimeout(() => sshd.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
}

/**
 * SIGKILLs a listener's sessions and waits (briefly) until it has reaped them: a listener that
 * exits first leaves them as zombies to a pid 1 that may never reap them.
 */
async function endSessions(host: RunningHost): Promise<void> {
  const pid = host.sshd?.pid;
  if (pid === undefined) return;
  signalAll(descendantsOf(pid).map((entry) => entry.pid), 'SIGKILL');
  const deadline = Date.now() + 1_000;
  while (connectionProcessesOf(pid).length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function listenerPid(host: RunningHost): number {
  const pid = host.sshd?.pid;
  if (pid === undefined) throw new Error(`the ${host.info.role} sshd is not running`);
  return pid;
}

/** Host key, HOME with a login profile, seeded simulation state: everything but the sshd. */
/**
 * One bin folder standing for the whole session PATH (the simulated toolset, then the system's
 * folders) without the programs in `left`: a host where they are missing, even when this machine
 * has them installed itself.
 */
async function toolsetWithout(dir: string, left: readonly string[]): Promise<string> {
  const bin = join(dir, 'bin-without');
  await mkdir(bin);
  const linked = new Set<string>(left);
  for (const folder of SESSION_PATH.split(':')) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      if (linked.has(name)) continue;
      linked.add(name);
      await symlink(join(folder, name), join(bin, name));
    }
  }
  return bin;
}

async function prepareHost(spec: HostSpec, rootDir: string, clusterDir: string, authorizedKey: string, withoutTools: readonly string[]): Promise<RunningHost> {
  const dir = join(rootDir, spec.role);
  const homeDir = join(dir, 'home');
  const stateDir = join(dir, 'state');
  await mkdir(homeDir, { recursive: true });
  await mkdir(stateDir);
  await writeFile(join(dir, 'authorized_keys'), `${authorizedKey}\n`);
  const sessionPath = withoutTools.length > 0 ? await toolsetWithout(dir, withoutTools) : SESSION_PATH;
  for (const profile of ['.bash_profile', '.profile']) {
    await writeFile(join(homeDir, profile), renderLoginProfile(sessionPath));
  }
  const hostKeyPath = join(dir, `ssh_host_${spec.hostKeyType}_key`);
  await generateHostKey(hostKeyPath, spec.hostKeyType, `retrace-test-${spec.role}`);
  await runFile(SIM_SEED, [], {
    env: {
      PATH: sessionPath,
      HOME: homeDir,
      SPARK_SIM_STATE: stateDir,
      SPARK_SIM_CLUSTER: clusterDir,
      SPARK_SIM_HOSTNAME: spec.hostname,
      SPARK_SIM_ROLE: spec.simRole ?? spec.role,
    },
  });
  return {
    dir,
    hostKeyPath,
    configPath: join(dir, 'sshd_config'),
    logPath: join(dir, 'sshd.log'),
    sshd: undefined,
    sessionPath,
    hostKeyType: spec.hostKeyType,
    sessionStartPath: join(dir, 'session-start.sh'),
    loginShell: spec.loginShell,
    simRole: spec.simRole ?? spec.role,
    info: {
      role: spec.role,
      address: spec.address,
      port: 0,
      user: userInfo().username,
      hostname: spec.hostname,
      alias: spec.alias,
      stateDir,
      homeDir,
      hostKeyFingerprint: await sha256Fingerprint(`${hostKeyPath}.pub`),
    },
  };
}

export async function startTestHosts(options: StartTestHostsOptions = {}): Promise<TestHosts> {
  reapOrphanedHostSets();
  ensurePrivilegeSeparationDir();

  const rootDir = await mkdtemp(hostSetPrefix(options.baseDir));
  await writeFile(join(rootDir, 'owner.pid'), String(process.pid));
  let hosts: RunningHost[] = [];
  const live: LiveHostSet = { rootDir, listenerPids: () => hosts.map((host) => host.sshd?.pid) };
  trackHostSet(live);

  try {
    const clientDir = join(rootDir, 'client');
    const clusterDir = join(rootDir, 'cluster');
    await Promise.all([mkdir(clientDir), mkdir(clusterDir)]);
    const clientKeyPath = join(clientDir, 'id_ed25519');
    await generateEd25519Key(clientKeyPath, 'retrace-test-client');
    const authorizedKey = await readPublicKey(`${clientKeyPath}.pub`);

    const wanted = options.roles ?? ['head', 'worker'];
    const specs = HOST_SPECS.filter((spec) => wanted.includes(spec.role));
    hosts = await Promise.all(specs.map((spec) => prepareHost(spec, rootDir, clusterDir, authorizedKey, options.withoutTools?.[spec.role] ?? [])));
    for (const host of hosts) {
      await writeFile(host.sessionStartPath, renderSessionStartScript(host.loginShell));
      await chmod(host.sessionStartPath, 0o755);
    }
    const renderFor = (host: RunningHost) => (port: number) =>
      renderSshdConfig({
        address: host.info.address,
        port,
        hostKeyPath: host.hostKeyPath,
        authorizedKeysPath: join(host.dir, 'authorized_keys'),
        pidFilePath: join(host.dir, 'sshd.pid'),
        sessionStartPath: host.sessionStartPath,
        clientAliveInterval: options.clientAliveInterval ?? 0,
        clientAliveCountMax: options.clientAliveCountMax ?? 3,
        environment: {
          PATH: host.sessionPath,
          HOME: host.info.homeDir,
          SPARK_SIM_STATE: host.info.stateDir,
          SPARK_SIM_CLUSTER: clusterDir,
          SPARK_SIM_HOSTNAME: host.info.hostname,
          SPARK_SIM_ROLE: host.simRole,
          ...options.sessionEnv,
        },
      });
    await Promise.all(hosts.map((host) => launchSshd(host, renderFor(host))));

    const knownHostsPath = join(clientDir, 'known_hosts');
    const hashedKnownHostsPath = join(clientDir, 'known_hosts.hashed');
    const knownHostsLines = await Promise.all(
      hosts.map(async (host) => {
        const name = knownHostsName(host.info.address, host.info.port);
        return `${name} ${await readPublicKey(`${host.hostKeyPath}.pub`)}\n`;
      }),
    );
    await writeFile(knownHostsPath, knownHostsLines.join(''));
    await writeHashedKnownHosts(knownHostsPath, hashedKnownHostsPath);
    const sshConfigPath = join(clientDir, 'ssh_config');
    await writeFile(sshConfigPath, renderSshConfig(hosts.map((host) => host.info), clientKeyPath, knownHostsPath));

    const byRole = (role: HostRole): RunningHost => {
      const host = hosts.find((candidate) => candidate.info.role === role);
      if (!host) throw new Error(`no test host with role ${role}`);
      return host;
    };
    const signalConnections = (role: HostRole, signal: NodeJS.Signals): number =>
      signalAll(
        connectionProcessesOf(listenerPid(byRole(role))).map((entry) => entry.pid),
        signal,
      );

    return {
      hosts: hosts.map((host) => host.info),
      host: (role) => byRole(role).info,
      rootDir,
      clusterDir,
      clientKeyPath,
      knownHostsPath,
      hashedKnownHostsPath,
      sshConfigPath,
      async rotateHostKey(role) {
        const host = byRole(role);
        await stopSshd(host);
        await generateHostKey(host.hostKeyPath, host.hostKeyType, `retrace-test-${role}-rotated`);
        await launchSshd(host, renderFor(host));
        host.info.hostKeyFingerprint = await sha256Fingerprint(`${host.hostKeyPath}.pub`);
        return host.info.hostKeyFingerprint;
      },
      killSessions: (role) => signalConnections(role, 'SIGKILL'),
      freeze: (role) => signalConnections(role, 'SIGSTOP'),
      thaw: (role) => signalConnections(role, 'SIGCONT'),
      async stop() {
        // Sessions first, while their listener still tells which they are (SIGKILL works on
        // frozen ones too); then the listeners; then what the simulation left, and the folder.
        await Promise.all(hosts.map((host) => endSessions(host)));
        await Promise.all(hosts.map((host) => stopSshd(host)));
        killHostSetSync(live);
      },
    };
  } catch (error) {
    killHostSetSync(live);
    throw error;
  }
}
