import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectHosts, resolveHosts } from '../../src/replay/run/live-replay.js';
import { ConnectError } from '../../src/replay/ssh/connection.js';
import type { TestHosts } from '../ssh/harness.js';
import { generateEd25519Key, readPublicKey } from '../ssh/keys.js';
import { tempDir } from '../helpers/temp.js';
import { testSshSettings, useTestHosts } from './helpers/hosts.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { TmuxTerminal } from '../tui/tmux.js';

// SSH as OpenSSH does, through the path a live run takes (resolveHosts → connectHosts): a
// ProxyJump hop logs in with its own IdentityFile, User and Port; ssh_config's Include is
// followed; an encrypted key without an agent is unlocked by a passphrase asked for, or refused
// saying so. Real sshd test hosts on 127.0.0.2 (the jump host) and 127.0.0.3.
let hosts: TestHosts;
const dir = tempDir('retrace-openssh-');
let jumpKey: string;

beforeAll(async () => {
  hosts = await useTestHosts();
  jumpKey = join(dir, 'jump_ed25519');
  await generateEd25519Key(jumpKey, 'retrace-test-jump');
  // The jump host now takes only its own key: a hop that logged in with the target's key fails.
  writeFileSync(join(hosts.rootDir, 'head', 'authorized_keys'), `${await readPublicKey(`${jumpKey}.pub`)}\n`);
});

async function hostnameVia(alias: string, overrides: Parameters<typeof testSshSettings>[1]): Promise<string> {
  const settings = testSshSettings(hosts, { identityFile: undefined, ...overrides });
  const executors = await connectHosts(resolveHosts({ worker: [{ spec: alias }] }, settings), settings);
  const [executor] = executors.get('worker') ?? [];
  if (!executor) throw new Error('no executor');
  try {
    const outcome = await executor.run('hostname', { timeoutMs: 10_000, secrets: {} });
    return outcome.kind === 'exited' ? outcome.output.trim() : outcome.kind;
  } finally {
    executor.close();
  }
}

describe('SSH as OpenSSH does', () => {
  it('ProxyJump: the hop uses its own IdentityFile, User and Port, from a file the config Includes', async () => {
    const home = join(dir, 'home');
    mkdirSync(join(home, '.ssh', 'conf.d'), { recursive: true });
    const head = hosts.host('head');
    const worker = hosts.host('worker');
    writeFileSync(join(home, '.ssh', 'conf.d', 'jump.conf'), [
      'Host jumpbox', '  HostName 127.0.0.2', `  Port ${head.port}`, `  User ${head.user}`, `  IdentityFile ${jumpKey}`, '  IdentitiesOnly yes', '',
    ].join('\n'));
    const config = join(home, '.ssh', 'config');
    writeFileSync(config, [
      'Include conf.d/*.conf',
      'Host inner', '  HostName 127.0.0.3', `  Port ${worker.port}`, `  User ${worker.user}`, '  ProxyJump jumpbox', `  IdentityFile ${hosts.clientKeyPath}`, '  IdentitiesOnly yes', '',
    ].join('\n'));
    const settings = { sshConfigPath: config, env: { HOME: home, USER: worker.user, SSH_AUTH_SOCK: '' } };
    expect(await hostnameVia('inner', settings)).toBe('spark-5be3');
    // The target's own key does not open the jump host: the hop really used the jump's.
    await expect(hostnameVia(`${head.user}@127.0.0.2:${head.port}`, { ...settings, identityFile: hosts.clientKeyPath })).rejects.toThrow(ConnectError);
  });

  it('an encrypted key without an agent: asks for the passphrase, or fails saying what to do', async () => {
    const locked = join(dir, 'locked_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', 'open sesame', '-C', 'retrace-test-locked', '-f', locked]);
    const authorized = join(hosts.rootDir, 'worker', 'authorized_keys');
    writeFileSync(authorized, `${readFileSync(authorized, 'utf8')}${await readPublicKey(`${locked}.pub`)}\n`);
    const spec = `${hosts.host('worker').user}@127.0.0.3:${hosts.host('worker').port}`;
    const base = { identityFile: locked, sshConfigPath: '/dev/null', env: { HOME: join(dir, 'nohome'), USER: 'nobody', SSH_AUTH_SOCK: '' } };

    await expect(hostnameVia(spec, base)).rejects.toThrow(`${locked} is encrypted and no ssh-agent is running: add it to one (ssh-add), or run retrace on a terminal to be asked for the passphrase`);

    const asked: string[] = [];
    expect(await hostnameVia(spec, { ...base, askPassphrase: async (path) => (asked.push(path), 'open sesame') })).toBe('spark-5be3');
    expect(asked).toEqual([locked]);

    await expect(hostnameVia(spec, { ...base, askPassphrase: async () => 'wrong' })).rejects.toThrow(`${locked}: wrong passphrase (3 tries)`);
  });

  it('asks for the passphrase on a real terminal, never echoing it, and runs the step', { timeout: 60_000 }, async () => {
    const locked = join(dir, 'locked_ed25519');
    const plan = join(dir, 'one-step.yaml');
    writeFileSync(plan, 'version: 1\nsession: { id: ses_tty }\nroles: { worker: {} }\nsteps:\n  - { id: whoami, roles: [worker], command: hostname }\n');
    const spec = `${hosts.host('worker').user}@127.0.0.3:${hosts.host('worker').port}`;
    const tty = new TmuxTerminal('passphrase');
    try {
      await tty.start(120, 30, { HOME: join(dir, 'nohome'), SSH_AUTH_SOCK: '' });
      tty.run(`node ${REPO_ROOT}bin/retrace.js replay ${plan} --live --db ${join(dir, 'tty.duckdb')} --host worker=${spec} --identity ${locked} --known-hosts ${hosts.knownHostsPath} --ssh-config /dev/null; echo "EXIT=$?"`);
      await tty.waitForText(`Enter passphrase for key '${locked}':`, 20_000);
      tty.run('open sesame');
      const screen = await tty.waitFor((text) => /^EXIT=\d+/m.test(text), 'the replay to end', 30_000);
      expect(screen).toContain('EXIT=0');
      expect(screen).toContain('spark-5be3');
      expect(screen).not.toContain('open sesame');
    } finally {
      tty.stop();
    }
  });
});
