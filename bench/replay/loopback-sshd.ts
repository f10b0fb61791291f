import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * One throwaway OpenSSH server on a loopback address for the replay figure: its own host key,
 * one authorized client key, nothing read from /etc/ssh, stopped (and its folder removed) after.
 * The bench never connects anywhere else.
 */
export interface LoopbackSshd {
  address: string;
  port: number;
  user: string;
  clientKeyPath: string;
  knownHostsPath: string;
  dir: string;
  stop(): Promise<void>;
}

const run = promisify(execFile);
const SSHD = '/usr/sbin/sshd';

async function freePort(address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, address, () => {
      const info = server.address();
      const port = typeof info === 'object' && info ? info.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForBanner(address: string, port: number, sshd: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (sshd.exitCode !== null) throw new Error(`sshd exited with ${sshd.exitCode}`);
    const banner = await new Promise<string>((resolve) => {
      const socket = connect(port, address);
      socket.setTimeout(500);
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString());
      });
      socket.once('error', () => resolve(''));
      socket.once('timeout', () => {
        socket.destroy();
        resolve('');
      });
    });
    if (banner.startsWith('SSH-')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`sshd on ${address}:${port} did not answer within 10 s`);
}

export async function startLoopbackSshd(address = '127.0.0.2'): Promise<LoopbackSshd> {
  if (!address.startsWith('127.')) throw new Error(`the bench only starts sshd on loopback, not ${address}`);
  const dir = await mkdtemp(join(tmpdir(), 'retrace-bench-sshd-'));
  const hostKey = join(dir, 'host_ed25519');
  const clientKey = join(dir, 'client_ed25519');
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'retrace-bench-host', '-f', hostKey]);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'retrace-bench-client', '-f', clientKey]);
  await writeFile(join(dir, 'authorized_keys'), await readFile(`${clientKey}.pub`));
  const port = await freePort(address);
  const hostPublic = (await readFile(`${hostKey}.pub`, 'utf8')).trim().split(/\s+/).slice(0, 2).join(' ');
  const knownHostsPath = join(dir, 'known_hosts');
  await writeFile(knownHostsPath, `[${address}]:${port} ${hostPublic}\n`);
  const home = join(dir, 'home');
  await mkdir(home);
  const config = join(dir, 'sshd_config');
  await writeFile(config, [
    `ListenAddress ${address}:${port}`,
    `HostKey ${hostKey}`,
    `PidFile ${join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    'PermitRootLogin prohibit-password',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'UsePAM no',
    // The temp folder's ownership is not what StrictModes expects.
    'StrictModes no',
    'PrintMotd no',
    'PrintLastLog no',
    'MaxSessions 100',
    'MaxStartups 200:30:400',
    'LogLevel ERROR',
    // bash started by sshd reads ~/.bashrc even for `ssh host true`; this machine's account's
    // rc files (pyenv init here) cost ~130 ms a step and are no part of any transport. An empty HOME.
    `SetEnv HOME=${home}`,
    '',
  ].join('\n'), { mode: 0o600 });
  // sshd refuses to start without its privilege separation directory, which a fresh boot's /run lacks.
  await mkdir('/run/sshd', { recursive: true, mode: 0o755 }).catch((error: unknown) => {
    throw new Error('cannot create /run/sshd, which sshd needs (run the bench as root)', { cause: error });
  });
  const sshd = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  sshd.stderr?.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  try {
    await waitForBanner(address, port, sshd);
  } catch (error) {
    sshd.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}\n${log}`, { cause: error });
  }
  return {
    address,
    port,
    user: userInfo().username,
    clientKeyPath: clientKey,
    knownHostsPath,
    dir,
    async stop() {
      if (sshd.exitCode === null) {
        const exited = new Promise((resolve) => sshd.once('exit', resolve));
        sshd.kill('SIGTERM');
        const timer = setTimeout(() => sshd.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
