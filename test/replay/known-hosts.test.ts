import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostKeyCheck, HostKeyRefusedError } from '../../src/replay/ssh/host-key.js';
import {
  decideHostKey,
  hostKeyAlgorithmsFor,
  knownHostsLine,
  parseKnownHosts,
  patternListMatches,
  sha256Fingerprint,
} from '../../src/replay/ssh/known-hosts.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('retrace-known-hosts-');

/** A real key pair from ssh-keygen: its blob, its public line, and ssh-keygen's own fingerprint. */
function makeKey(name: string, type = 'ed25519'): { blob: Buffer; line: string; fingerprint: string } {
  const path = join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', name, '-f', path]);
  const [keyType, base64] = readFileSync(`${path}.pub`, 'utf8').trim().split(/\s+/);
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${path}.pub`], { encoding: 'utf8' }).split(/\s+/)[1] ?? '';
  return { blob: Buffer.from(base64 ?? '', 'base64'), line: `${keyType} ${base64}`, fingerprint };
}

const server = makeKey('server');
const other = makeKey('other');
const rsa = makeKey('rsa', 'rsa');

describe('known_hosts', () => {
  it('computes the fingerprint exactly as ssh-keygen prints it', () => {
    expect(sha256Fingerprint(server.blob)).toBe(server.fingerprint);
    expect(sha256Fingerprint(rsa.blob)).toBe(rsa.fingerprint);
  });

  it('trusts a plain [host]:port entry and refuses the same key on another port', () => {
    const file = parseKnownHosts(`# comment\n[127.0.0.2]:2222 ${server.line}\n`, 'kh');
    expect(decideHostKey([file], '127.0.0.2', 2222, server.blob).status).toBe('trusted');
    expect(decideHostKey([file], '127.0.0.2', 22, server.blob).status).toBe('unknown');
    expect(decideHostKey([file], '127.0.0.3', 2222, server.blob).status).toBe('unknown');
  });

  it('names port 22 hosts without brackets', () => {
    const file = parseKnownHosts(`spark-1,10.1.230.180 ${server.line}\n`);
    expect(decideHostKey([file], '10.1.230.180', 22, server.blob).status).toBe('trusted');
    expect(decideHostKey([file], 'spark-1', 22, server.blob).status).toBe('trusted');
    expect(knownHostsLine('spark-1', 22, server.blob)).toBe(`spark-1 ${server.line}\n`);
    expect(knownHostsLine('127.0.0.2', 2200, server.blob)).toBe(`[127.0.0.2]:2200 ${server.line}\n`);
  });

  it('matches hashed entries written by ssh-keygen -H (HMAC-SHA1 with the salt)', () => {
    const path = join(dir, 'hashed');
    writeFileSync(path, `[127.0.0.2]:2222 ${server.line}\nspark-5be3 ${rsa.line}\n`);
    execFileSync('ssh-keygen', ['-H', '-f', path], { stdio: 'ignore' });
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('127.0.0.2');
    expect(text).toMatch(/^\|1\|/m);
    const file = parseKnownHosts(text, path);
    expect(file.problems).toEqual([]);
    expect(decideHostKey([file], '127.0.0.2', 2222, server.blob).status).toBe('trusted');
    expect(decideHostKey([file], 'spark-5be3', 22, rsa.blob).status).toBe('trusted');
    expect(decideHostKey([file], '127.0.0.2', 2223, server.blob).status).toBe('unknown');
    const changed = decideHostKey([file], '127.0.0.2', 2222, other.blob);
    expect(changed.status).toBe('changed');
  });

  it('calls a different key for a known host changed, and lists what was known', () => {
    const file = parseKnownHosts(`[127.0.0.2]:2222 ${server.line}\n`, 'kh');
    const decision = decideHostKey([file], '127.0.0.2', 2222, other.blob);
    expect(decision).toMatchObject({ status: 'changed', fingerprint: other.fingerprint, known: [{ file: 'kh', line: 1, fingerprint: server.fingerprint }] });
  });

  it('refuses revoked keys whatever host presents them, and ignores cert-authority lines', () => {
    const file = parseKnownHosts(`@revoked * ${server.line}\n[127.0.0.2]:2222 ${server.line}\n@cert-authority * ${other.line}\n`);
    expect(decideHostKey([file], '127.0.0.2', 2222, server.blob).status).toBe('revoked');
    expect(decideHostKey([file], '127.0.0.9', 22, other.blob).status).toBe('unknown');
  });

  it('honours wildcards and negations in host patterns', () => {
    expect(patternListMatches(['*.lab', '!bad.lab'], 'good.lab')).toBe(true);
    expect(patternListMatches(['*.lab', '!bad.lab'], 'bad.lab')).toBe(false);
    expect(patternListMatches(['spark-?'], 'spark-1')).toBe(true);
    expect(patternListMatches(['spark-?'], 'spark-12')).toBe(false);
    expect(patternListMatches(['[127.0.0.2]:*'], '[127.0.0.2]:4000')).toBe(true);
  });

  it('reports malformed lines and keeps the rest', () => {
    const file = parseKnownHosts(`garbage\n[h]:1 ssh-ed25519 AAAA\n@weird h ${server.line}\nh ${server.line}\n`);
    expect(file.problems.map((p) => p.line)).toEqual([1, 2, 3]);
    expect(file.entries).toHaveLength(1);
  });

  it('offers only the key types already known for the host', () => {
    expect(hostKeyAlgorithmsFor(['ssh-ed25519'])).toEqual(['ssh-ed25519']);
    expect(hostKeyAlgorithmsFor(['ssh-rsa', 'ssh-ed25519'])).toEqual(['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa', 'ssh-ed25519']);
  });
});

describe('host key policy', () => {
  it('refuses an unknown host with its fingerprint, and --accept-new appends it once', () => {
    const path = join(dir, 'policy_known_hosts');
    writeFileSync(path, `[127.0.0.3]:2222 ${other.line}`); // no final newline on purpose
    const strict = hostKeyCheck('127.0.0.2', 2222, { knownHostsFiles: [path], acceptNew: false });
    expect(() => strict.verify(server.blob)).toThrow(HostKeyRefusedError);
    expect(() => strict.verify(server.blob)).toThrow(server.fingerprint);
    expect(() => strict.verify(server.blob)).toThrow('--accept-new');

    const accepting = hostKeyCheck('127.0.0.2', 2222, { knownHostsFiles: [path], acceptNew: true });
    expect(accepting.verify(server.blob).status).toBe('unknown');
    const text = readFileSync(path, 'utf8');
    expect(text.split('\n').filter(Boolean)).toEqual([`[127.0.0.3]:2222 ${other.line}`, `[127.0.0.2]:2222 ${server.line}`]);
    expect(hostKeyCheck('127.0.0.2', 2222, { knownHostsFiles: [path], acceptNew: false }).verify(server.blob).status).toBe('trusted');
  });

  it('refuses a changed key even with --accept-new', () => {
    const path = join(dir, 'changed_known_hosts');
    writeFileSync(path, `[127.0.0.2]:2222 ${server.line}\n`);
    const check = hostKeyCheck('127.0.0.2', 2222, { knownHostsFiles: [path], acceptNew: true });
    expect(check.algorithms).toEqual(['ssh-ed25519']);
    expect(() => check.verify(other.blob)).toThrow(/HOST KEY CHANGED/);
    expect(readFileSync(path, 'utf8')).toBe(`[127.0.0.2]:2222 ${server.line}\n`);
  });
});
