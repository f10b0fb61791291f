import { createHash, createHmac } from 'node:crypto';

/**
 * OpenSSH known_hosts, read and matched without OpenSSH: plain names, `[host]:port` for other
 * ports, wildcard and negated patterns, hashed `|1|salt|hash` entries (HMAC-SHA1 of the name,
 * keyed by the salt) and the `@revoked` marker. Pure: text in, decisions out.
 */

export interface KnownHostEntry {
  /** 1-based line in its file, for messages that tell the user what to edit. */
  line: number;
  marker: 'revoked' | 'cert-authority' | null;
  /** Comma-separated patterns, or one hashed name. */
  patterns: string[];
  hashed: { salt: Buffer; hash: Buffer } | null;
  keyType: string;
  key: Buffer;
}

export interface KnownHostsFile {
  path: string;
  entries: KnownHostEntry[];
  /** Lines that are not entries (reported, never fatal: OpenSSH skips them too). */
  problems: { line: number; message: string }[];
}

export function parseKnownHosts(text: string, path = 'known_hosts'): KnownHostsFile {
  const entries: KnownHostEntry[] = [];
  const problems: { line: number; message: string }[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const lineNumber = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const fields = trimmed.split(/\s+/);
    let marker: KnownHostEntry['marker'] = null;
    if (fields[0]?.startsWith('@')) {
      const name = fields.shift();
      if (name === '@revoked') marker = 'revoked';
      else if (name === '@cert-authority') marker = 'cert-authority';
      else {
        problems.push({ line: lineNumber, message: `unknown marker ${name}` });
        return;
      }
    }
    const [names, keyType, keyText] = fields;
    if (!names || !keyType || !keyText) {
      problems.push({ line: lineNumber, message: 'expected "hosts keytype key"' });
      return;
    }
    const key = Buffer.from(keyText, 'base64');
    if (key.length === 0 || keyTypeOfBlob(key) !== keyType) {
      problems.push({ line: lineNumber, message: `the key is not a valid ${keyType} key` });
      return;
    }
    let hashed: KnownHostEntry['hashed'] = null;
    if (names.startsWith('|1|')) {
      const [, , salt, hash] = names.split('|');
      if (!salt || !hash) {
        problems.push({ line: lineNumber, message: 'malformed hashed host name' });
        return;
      }
      hashed = { salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
    }
    entries.push({ line: lineNumber, marker, patterns: hashed ? [] : names.split(','), hashed, keyType, key });
  });
  return { path, entries, problems };
}

/** The type name inside an SSH public key blob (`ssh-ed25519`, `ssh-rsa`, …), or null. */
export function keyTypeOfBlob(blob: Buffer): string | null {
  if (blob.length < 4) return null;
  const length = blob.readUInt32BE(0);
  if (length === 0 || length > 64 || blob.length < 4 + length) return null;
  return blob.subarray(4, 4 + length).toString('latin1');
}

/** "SHA256:…" exactly as `ssh` and `ssh-keygen -l` print it. */
export function sha256Fingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** The name known_hosts files use for a host: `host` on port 22, `[host]:port` otherwise. */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** `*` and `?` globs, case-insensitive as OpenSSH matches host names. */
export function globMatches(pattern: string, name: string): boolean {
  const source = pattern
    .toLowerCase()
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(name.toLowerCase());
}

/** A pattern list matches when some positive pattern does and no negated one does. */
export function patternListMatches(patterns: readonly string[], name: string): boolean {
  let matched = false;
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) {
      if (globMatches(pattern.slice(1), name)) return false;
    } else if (globMatches(pattern, name)) {
      matched = true;
    }
  }
  return matched;
}

function hashedMatches(hashed: NonNullable<KnownHostEntry['hashed']>, name: string): boolean {
  const digest = createHmac('sha1', hashed.salt).update(name).digest();
  return digest.length === hashed.hash.length && digest.equals(hashed.hash);
}

export function entryMatches(entry: KnownHostEntry, name: string): boolean {
  return entry.hashed ? hashedMatches(entry.hashed, name) : patternListMatches(entry.patterns, name);
}

export interface KnownKey {
  file: string;
  line: number;
  keyType: string;
  fingerprint: string;
}

export type HostKeyDecision =
  | { status: 'trusted'; fingerprint: string; matched: KnownKey }
  | { status: 'unknown'; fingerprint: string; keyType: string }
  | { status: 'changed'; fingerprint: string; keyType: string; known: KnownKey[] }
  | { status: 'revoked'; fingerprint: string; keyType: string; matched: KnownKey };

/** Entries that name this host (any key, revoked ones aside), across every file. */
export function knownKeysFor(files: readonly KnownHostsFile[], host: string, port: number): KnownKey[] {
  const name = knownHostsName(host, port);
  const keys: KnownKey[] = [];
  for (const file of files) {
    for (const entry of file.entries) {
      if (entry.marker !== null || !entryMatches(entry, name)) continue;
      keys.push({ file: file.path, line: entry.line, keyType: entry.keyType, fingerprint: sha256Fingerprint(entry.key) });
    }
  }
  return keys;
}

/**
 * What to do with the key a server presented: trusted when an entry for this host holds it,
 * revoked when a `@revoked` line lists it (for any host), changed when entries exist for the
 * host but none holds it, unknown when no entry names the host. `@cert-authority` lines are
 * not honoured: retrace does not verify host certificates, so they trust nothing.
 */
export function decideHostKey(files: readonly KnownHostsFile[], host: string, port: number, presented: Buffer): HostKeyDecision {
  const name = knownHostsName(host, port);
  const fingerprint = sha256Fingerprint(presented);
  const keyType = keyTypeOfBlob(presented) ?? 'unknown';
  const known: KnownKey[] = [];
  for (const file of files) {
    for (const entry of file.entries) {
      const described = { file: file.path, line: entry.line, keyType: entry.keyType, fingerprint: sha256Fingerprint(entry.key) };
      if (entry.marker === 'revoked') {
        if (entry.key.equals(presented)) return { status: 'revoked', fingerprint, keyType, matched: described };
        continue;
      }
      if (entry.marker === 'cert-authority' || !entryMatches(entry, name)) continue;
      if (entry.key.equals(presented)) return { status: 'trusted', fingerprint, matched: described };
      known.push(described);
    }
  }
  return known.length > 0 ? { status: 'changed', fingerprint, keyType, known } : { status: 'unknown', fingerprint, keyType };
}

/** Host key algorithms to offer so the server presents a key of a type we already know. */
export function hostKeyAlgorithmsFor(keyTypes: readonly string[]): string[] {
  const algorithms: string[] = [];
  for (const type of keyTypes) {
    const names = type === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'] : [type];
    for (const name of names) if (!algorithms.includes(name)) algorithms.push(name);
  }
  return algorithms;
}

/** The line `--accept-new` appends: plain (not hashed), like `ssh -o StrictHostKeyChecking=accept-new`. */
export function knownHostsLine(host: string, port: number, presented: Buffer): string {
  const keyType = keyTypeOfBlob(presented);
  if (!keyType) throw new Error('cannot record a host key whose type cannot be read');
  return `${knownHostsName(host, port)} ${keyType} ${presented.toString('base64')}\n`;
}
