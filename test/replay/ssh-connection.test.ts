import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderTemplate } from '../../src/replay/plan/template.js';
import { SshHostExecutor } from '../../src/replay/run/host-executor.js';
import { connectOptionsFor, resolveHostSpec } from '../../src/replay/run/live-replay.js';
import { SshConnection } from '../../src/replay/ssh/connection.js';
import { HostKeyRefusedError } from '../../src/replay/ssh/host-key.js';
import type { TestHosts } from '../ssh/harness.js';
import { hostSpec, testSshSettings, useTestHosts } from './helpers/hosts.js';
import { tempDir } from '../helpers/temp.js';

let hosts: TestHosts;
const dir = tempDir('retrace-ssh-');

beforeAll(async () => {
  hosts = await useTestHosts();
});

async function open(role: 'head' | 'worker', overrides: Parameters<typeof testSshSettings>[1] = {}, spec = hostSpec(hosts, role)): Promise<SshConnection> {
  const settings = testSshSettings(hosts, overrides);
  const target = resolveHostSpec(spec, settings);
  return SshConnection.open(target, connectOptionsFor(target, settings));
}

describe('host keys against the real test sshd', () => {
  it('connects with a plain and with a hashed known_hosts', async () => {
    for (const knownHostsFile of [hosts.knownHostsPath, hosts.hashedKnownHostsPath]) {
      const connection = await open('head', { knownHostsFile });
      const executor = new SshHostExecutor('head', connection);
      const outcome = await executor.run('hostname; echo oops >&2; exit 3', { timeoutMs: 10_000, secrets: {} });
      expect(outcome).toEqual({ kind: 'exited', exitCode: 3, output: 'spark-1a32\noops\n' });
      connection.close();
    }
  });

  it('refuses an unknown host with its SHA256 fingerprint; --accept-new records it', async () => {
    const empty = join(dir, 'empty_known_hosts');
    writeFileSync(empty, '');
    const refused = await open('worker', { knownHostsFile: empty }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HostKeyRefusedError);
    expect(String((refused as Error).message)).toContain(hosts.host('worker').hostKeyFingerprint);
    expect(readFileSync(empty, 'utf8')).toBe('');

    const connection = await open('worker', { knownHostsFile: empty, acceptNew: true });
    connection.close();
    expect(readFileSync(empty, 'utf8')).toContain(`[127.0.0.3]:${hosts.host('worker').port} ssh-ed25519 `);
    (await open('worker', { knownHostsFile: empty })).close();
  });

  it('logs in through ssh-agent when no key file is given', async () => {
    const socket = join(dir, 'agent.sock');
    const agent = spawn('ssh-agent', ['-D', '-a', socket], { stdio: 'ignore' });
    try {
      for (let i = 0; i < 50 && !existsSync(socket); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      execFileSync('ssh-add', [hosts.clientKeyPath], { env: { ...process.env, SSH_AUTH_SOCK: socket }, stdio: 'ignore' });
      const settings = testSshSettings(hosts, { identityFile: undefined });
      const connection = await open('head', { identityFile: undefined, env: { ...settings.env, SSH_AUTH_SOCK: socket } });
      expect((await new SshHostExecutor('head', connection).run('echo via-agent', { timeoutMs: 10_000, secrets: {} })).output).toBe('via-agent\n');
      connection.close();
      await expect(open('head', { identityFile: undefined })).rejects.toThrow(/no identity/);
    } finally {
      agent.kill('SIGTERM');
    }
  });

  it('follows ssh_config aliases (HostName, Port, User, IdentityFile) and ProxyJump', async () => {
    const viaAlias = await open('worker', { sshConfigPath: hosts.sshConfigPath, identityFile: undefined }, 'spark-worker');
    expect(viaAlias.display).toBe(`${hosts.host('worker').user}@127.0.0.3:${hosts.host('worker').port}`);
    viaAlias.close();

    const config = join(dir, 'jump_config');
    writeFileSync(config, `${readFileSync(hosts.sshConfigPath, 'utf8')}\nHost worker-via-head\n  HostName 127.0.0.3\n  Port ${hosts.host('worker').port}\n  ProxyJump spark-head\n  IdentityFile ${hosts.clientKeyPath}\n`);
    const jumped = await open('worker', { sshConfigPath: config }, 'worker-via-head');
    const outcome = await new SshHostExecutor('worker', jumped).run('hostname', { timeoutMs: 10_000, secrets: {} });
    expect(outcome).toMatchObject({ kind: 'exited', exitCode: 0, output: 'spark-5be3\n' });
    jumped.close();
  });
});

describe('commands over one persistent connection', () => {
  it('passes secrets on stdin into the environment, never on the command line, and scrubs them from output', async () => {
    const connection = await open('head');
    const executor = new SshHostExecutor('head', connection);
    const token = 'hf_testSECRETvalue0123456789abcdefXYZ';
    const outcome = await executor.run('[ "$HF_TOKEN" = hf_testSECRETvalue0123456789abcdefXYZ ] && echo match; echo "token=${HF_TOKEN}"; ps -eo args | grep -c hf_testSECRET', {
      timeoutMs: 10_000,
      secrets: { HF_TOKEN: token },
    });
    expect(outcome.kind).toBe('exited');
    expect(outcome.output).toContain('match\n');
    expect(outcome.output).toContain('token=[REDACTED:env:HF_TOKEN]');
    expect(outcome.output).not.toContain(token);
    connection.close();
  });

  it('a timeout kills the remote process group, not only the channel', async () => {
    const connection = await open('head');
    const executor = new SshHostExecutor('head', connection);
    const marker = `sleep 37.${process.pid}`;
    const started = Date.now();
    const outcome = await executor.run(`bash -c '${marker}'; echo never`, { timeoutMs: 800, secrets: {} });
    expect(outcome.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(8_000);
    const survivors = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(marker) && !line.includes('ps -eo'));
    expect(survivors).toEqual([]);
    connection.close();
  });

  it('property: arbitrary substituted values arrive byte for byte on the test host, with no injection', async () => {
    const connection = await open('worker');
    const executor = new SshHostExecutor('worker', connection);
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 30 }).filter((v) => !v.includes('\0') && !v.includes('\r')), async (value) => {
        const outcome = await executor.run(renderTemplate(`printf '%s' {{ v }} | od -An -tx1 | tr -d ' \\n'; echo; printf '%s' "<{{ v }}>" | wc -c`, { v: value }), {
          timeoutMs: 10_000,
          secrets: {},
        });
        const [hex, count] = outcome.output.split('\n');
        expect(hex ?? '').toBe(Buffer.from(value, 'utf8').toString('hex'));
        expect(Number(count)).toBe(Buffer.byteLength(value, 'utf8') + 2);
      }),
      { numRuns: 40 },
    );
    connection.close();
  });

  it('runs many steps over the one persistent connection (the per-step overhead: npm run bench)', async () => {
    const connection = await open('head');
    const executor = new SshHostExecutor('head', connection);
    await executor.run('true', { timeoutMs: 10_000, secrets: {} });
    const rounds = 30;
    const started = process.hrtime.bigint();
    for (let i = 0; i < rounds; i += 1) expect((await executor.run('true', { timeoutMs: 10_000, secrets: {} })).kind).toBe('exited');
    const perStepMs = Number(process.hrtime.bigint() - started) / 1e6 / rounds;
    expect(perStepMs).toBeGreaterThan(0);
    connection.close();
  });
});

describe('faults', () => {
  it('a killed sshd session mid-step is `lost` (unknown), at once', async () => {
    const connection = await open('worker');
    const executor = new SshHostExecutor('worker', connection);
    const running = executor.run('sleep 20', { timeoutMs: 30_000, secrets: {} });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    expect(hosts.killSessions('worker')).toBeGreaterThan(0);
    const outcome = await running;
    expect(outcome.kind).toBe('lost');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a frozen peer (blackhole) is detected by keepalive within interval × count + slack', async () => {
    const intervalMs = 300;
    const countMax = 2;
    const connection = await open('head', { keepaliveIntervalMs: intervalMs, keepaliveCountMax: countMax });
    const executor = new SshHostExecutor('head', connection);
    const running = executor.run('sleep 20', { timeoutMs: 30_000, secrets: {} });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    expect(hosts.freeze('head')).toBeGreaterThan(0);
    try {
      const outcome = await running;
      const elapsed = Date.now() - started;
      expect(outcome.kind).toBe('lost');
      expect(outcome.kind === 'lost' && outcome.reason).toMatch(/keepalive/i);
      expect(elapsed).toBeLessThan(intervalMs * (countMax + 1) + 1_000);
    } finally {
      hosts.thaw('head');
    }
  });

  it('refuses a changed host key, even with --accept-new', async () => {
    const known = join(dir, 'rotated_known_hosts');
    copyFileSync(hosts.knownHostsPath, known);
    const rotated = await hosts.rotateHostKey('head');
    const refused = await open('head', { knownHostsFile: known, acceptNew: true }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HostKeyRefusedError);
    expect((refused as Error).message).toContain('HOST KEY CHANGED');
    expect((refused as Error).message).toContain(rotated);
    expect(readFileSync(known, 'utf8')).toBe(readFileSync(hosts.knownHostsPath, 'utf8'));
  });
});
