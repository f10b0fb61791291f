import { describe, expect, it } from 'vitest';
import { describeTarget, parseHostSpec, parseRoleAssignment, resolveTarget } from '../../src/replay/ssh/host-target.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandPathTokens, parseSshConfig, resolveHost } from '../../src/replay/ssh/ssh-config.js';
import { readIncludedFiles } from '../../src/replay/ssh/ssh-config-files.js';
import { tempDir } from '../helpers/temp.js';

const CONFIG = `
# global options apply to every host, but only where nothing earlier set them
ServerAliveInterval 30

Host spark-head
  HostName 127.0.0.2
  User aurora
  Port 2201
  IdentityFile ~/.ssh/spark_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile ~/.ssh/known_hosts.sparks "/etc/ssh/with space"

Host spark-* !spark-bastion
  User fallback
  Port 2299
  IdentityFile %d/.ssh/id_%r_%h

Host spark-worker
  HostName=127.0.0.3
  ProxyJump spark-head

Match host spark-head
  User matched

Host spark-bastion
  ProxyJump none

Host *.lab
  HostName %h.example
  ConnectTimeout 7

Include ~/.ssh/config.d/*
Host *
  User everyone
  ServerAliveCountMax 5
`;

describe('ssh_config', () => {
  const config = parseSshConfig(CONFIG);

  it('applies every matching block in file order; the first value of a keyword wins', () => {
    const head = resolveHost(config, 'spark-head');
    expect(head).toMatchObject({ hostName: '127.0.0.2', user: 'aurora', port: 2201, identitiesOnly: true, serverAliveInterval: 30, serverAliveCountMax: 5 });
    expect(head.identityFiles).toEqual(['~/.ssh/spark_ed25519', '%d/.ssh/id_%r_%h']);
    expect(head.userKnownHostsFiles).toEqual(['~/.ssh/known_hosts.sparks', '/etc/ssh/with space']);
  });

  it('takes values from later blocks only for keywords still unset (Key=value too)', () => {
    const worker = resolveHost(config, 'spark-worker');
    expect(worker).toMatchObject({ hostName: '127.0.0.3', user: 'fallback', port: 2299, proxyJump: ['spark-head'] });
  });

  it('skips a block whose negated pattern matches, and never applies Match blocks', () => {
    const bastion = resolveHost(config, 'spark-bastion');
    expect(bastion.user).toBe('everyone');
    expect(bastion.port).toBeNull();
    expect(bastion.proxyJump).toEqual([]);
    expect(config.notes.map((note) => note.message)).toEqual([
      'Match blocks are not evaluated; their options are ignored',
      'Include ~/.ssh/config.d/* is not followed (no file to read it from)',
    ]);
  });

  it('expands %h in HostName, matches host names case-insensitively', () => {
    expect(resolveHost(config, 'Gpu1.LAB')).toMatchObject({ hostName: 'Gpu1.LAB.example', connectTimeout: 7 });
    expect(resolveHost(config, 'unlisted')).toMatchObject({ hostName: 'unlisted', user: 'everyone', identityFiles: [] });
  });

  it('expands ~ and % tokens in paths', () => {
    const context = { home: '/home/me', localUser: 'me', host: 'h.example', remoteUser: 'aurora', port: 22 };
    expect(expandPathTokens('~/.ssh/id_%r@%h:%p%%', context)).toBe('/home/me/.ssh/id_aurora@h.example:22%');
    expect(expandPathTokens('%d/k_%u', context)).toBe('/home/me/k_me');
  });
});

describe('host specs', () => {
  it('parses [user@]host[:port], IPv6 in brackets, and refuses junk', () => {
    expect(parseHostSpec('aurora@10.1.230.180:2222')).toEqual({ user: 'aurora', host: '10.1.230.180', port: 2222 });
    expect(parseHostSpec('spark-head')).toEqual({ user: null, host: 'spark-head', port: null });
    expect(parseHostSpec('root@[::1]:2200')).toEqual({ user: 'root', host: '::1', port: 2200 });
    expect(() => parseHostSpec('a@b:0')).toThrow('port');
    expect(() => parseHostSpec('::1')).toThrow('IPv6');
    expect(() => parseHostSpec('host;rm -rf /')).toThrow('not a host');
    expect(parseRoleAssignment('worker=127.0.0.3')).toEqual({ role: 'worker', spec: { user: null, host: '127.0.0.3', port: null } });
    expect(() => parseRoleAssignment('127.0.0.3')).toThrow('ROLE=');
  });

  it('lets the command line win over ssh_config, and resolves ProxyJump hops with their own settings', () => {
    const config = parseSshConfig(CONFIG);
    const context = { config, home: '/home/me', localUser: 'me' };
    const worker = resolveTarget(parseHostSpec('spark-worker'), context);
    expect(describeTarget(worker)).toBe('fallback@127.0.0.3:2299');
    expect(worker.identityFiles).toEqual(['/home/me/.ssh/id_fallback_127.0.0.3']);
    expect(worker.jumps.map(describeTarget)).toEqual(['aurora@127.0.0.2:2201']);
    expect(worker.jumps[0]?.knownHostsFiles).toEqual(['/home/me/.ssh/known_hosts.sparks', '/etc/ssh/with space']);
    const overridden = resolveTarget(parseHostSpec('root@spark-head:22'), context);
    expect(describeTarget(overridden)).toBe('root@127.0.0.2:22');
    expect(describeTarget(resolveTarget(parseHostSpec('[::1]:2200'), context))).toBe('everyone@[::1]:2200');
  });

  it('stops a ProxyJump loop', () => {
    const loop = parseSshConfig('Host a\n  ProxyJump b\nHost b\n  ProxyJump a\n');
    expect(() => resolveTarget(parseHostSpec('a'), { config: loop, home: '/h', localUser: 'u' })).toThrow(/loop/);
  });

  it('follows Include: globs in ~/.ssh, sorted, in place (inside a Host block only where it applies), nested, loops cut', () => {
    const home = tempDir('retrace-ssh-include-');
    mkdirSync(join(home, '.ssh', 'config.d'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'config.d', '20-lab'), 'Host lab-*\n  User labuser\n  Port 2202\n  Include nested.conf\n');
    writeFileSync(join(home, '.ssh', 'config.d', '10-gpu'), 'Host gpu1\n  HostName 127.0.0.9\n  ProxyJump lab-jump\n');
    writeFileSync(join(home, '.ssh', 'nested.conf'), 'IdentityFile ~/.ssh/lab_key\n');
    writeFileSync(join(home, '.ssh', 'loop.conf'), 'Include loop.conf\n');
    writeFileSync(join(home, '.ssh', 'only-for-db'), 'User dbadmin\n');
    const text = ['Include config.d/*', 'Host db', '  Include only-for-db', '  Port 5022', 'Host *', '  User everyone', 'Include loop.conf'].join('\n');
    const config = parseSshConfig(text, { file: join(home, '.ssh', 'config'), home, readIncluded: readIncludedFiles });
    expect(resolveHost(config, 'gpu1')).toMatchObject({ hostName: '127.0.0.9', proxyJump: ['lab-jump'], user: 'everyone' });
    expect(resolveHost(config, 'lab-jump')).toMatchObject({ user: 'labuser', port: 2202, identityFiles: ['~/.ssh/lab_key'] });
    // The Include inside `Host db` applies to db only; the line after it still belongs to db.
    expect(resolveHost(config, 'db')).toMatchObject({ user: 'dbadmin', port: 5022 });
    expect(resolveHost(config, 'other')).toMatchObject({ user: 'everyone', port: null });
    expect(config.notes.map((n) => n.message)).toEqual([expect.stringMatching(/loop\.conf:1: Include loop\.conf: nested more than 16 deep/)]);
    expect(readIncludedFiles(join(home, '.ssh', 'absent*'))).toEqual([]);
  });
});
