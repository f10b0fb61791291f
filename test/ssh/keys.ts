// Throwaway keys and known_hosts files, made with the real ssh-keygen so their formats are
// exactly what OpenSSH (and ssh2) meet in the field.
import { execFile } from 'node:child_process';
import { copyFile, readFile, rm } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Writes `path` (private, mode 600) and `path.pub`, replacing any previous pair. */
export async function generateEd25519Key(path: string, comment: string): Promise<void> {
  await rm(path, { force: true });
  await rm(`${path}.pub`, { force: true });
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', path]);
}

export type HostKeyType = 'ed25519' | 'rsa' | 'ecdsa';

/** A host key of the given type (RSA 3072, ECDSA P-256, as ssh-keygen makes them by default). */
export async function generateHostKey(path: string, type: HostKeyType, comment: string): Promise<void> {
  await rm(path, { force: true });
  await rm(`${path}.pub`, { force: true });
  await run('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', comment, '-f', path]);
}

/** "ssh-ed25519 AAAA…" without the comment. */
export async function readPublicKey(publicKeyPath: string): Promise<string> {
  const [type, key] = (await readFile(publicKeyPath, 'utf8')).trim().split(/\s+/);
  if (!type || !key) throw new Error(`${publicKeyPath}: not an OpenSSH public key`);
  return `${type} ${key}`;
}

/** "SHA256:…" as `ssh` prints it when it refuses a key. */
export async function sha256Fingerprint(publicKeyPath: string): Promise<string> {
  const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', publicKeyPath]);
  const fingerprint = stdout.split(/\s+/).find((field) => field.startsWith('SHA256:'));
  if (!fingerprint) throw new Error(`ssh-keygen -l printed no SHA256 fingerprint for ${publicKeyPath}: ${stdout}`);
  return fingerprint;
}

/** The known_hosts name of a host on a non-default port: "[127.0.0.2]:40123". */
export function knownHostsName(address: string, port: number): string {
  return port === 22 ? address : `[${address}]:${port}`;
}

/** Copies `plainPath` to `hashedPath` and hashes its host names ("|1|salt|hash") with `ssh-keygen -H`. */
export async function writeHashedKnownHosts(plainPath: string, hashedPath: string): Promise<void> {
  await copyFile(plainPath, hashedPath);
  await run('ssh-keygen', ['-H', '-f', hashedPath]);
  await rm(`${hashedPath}.old`, { force: true }); // ssh-keygen keeps the unhashed original there
}
