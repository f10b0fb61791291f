import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import ssh2, { type AnyAuthMethod, type AuthenticationType, type ClientChannel, type ConnectConfig, type NextAuthHandler } from 'ssh2';
import { hostKeyCheck, HostKeyRefusedError } from './host-key.js';
import { describeTarget, type ResolvedTarget } from './host-target.js';

const { Client, utils } = ssh2;

/**
 * One SSH connection per host, reused for every step: the only module that touches ssh2.
 * Host keys are checked against known_hosts before authentication; keepalives are always on,
 * so a peer that stops answering is noticed within interval × (count + 1) and reported as lost.
 */

export interface ConnectOptions {
  knownHostsFiles: readonly string[];
  acceptNew: boolean;
  /** Private key files to try, in order, after the agent. */
  identityFiles: readonly string[];
  agentSocket: string | null;
  keepaliveIntervalMs: number;
  keepaliveCountMax: number;
  readyTimeoutMs: number;
  /**
   * Asks for the passphrase of an encrypted key when no ssh-agent is running (a terminal prompt);
   * null (or absent) when nobody can answer: such a key is then refused, saying why.
   */
  askPassphrase?: ((keyPath: string) => Promise<string | null>) | null;
}

export class ConnectError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectError';
  }
}

export type ExecEnd = { kind: 'exit'; code: number | null; signal: string | null } | { kind: 'lost'; reason: string };

export interface RemoteProcess {
  readonly done: Promise<ExecEnd>;
  /** Closes the channel (the remote process is stopped separately, by process group). */
  close(): void;
}

export interface ExecHandlers {
  stdin?: string;
  onStdout?(chunk: string): void;
  onStderr?(chunk: string): void;
}

interface LoadedKey {
  path: string;
  key: Buffer;
  passphrase?: string;
}

const ENCRYPTED = /encrypted|passphrase/i;

/**
 * The key files to log in with, as ssh reads them: a missing one is no error; an encrypted one is
 * unlocked by the agent when there is one (the agent's identities are tried first), else by a
 * passphrase asked on the terminal; with neither, the login fails naming the key and the fixes.
 */
async function loadKeys(paths: readonly string[], options: Pick<ConnectOptions, 'agentSocket' | 'askPassphrase'>): Promise<{ keys: LoadedKey[]; locked: string[] }> {
  const keys: LoadedKey[] = [];
  const locked: string[] = [];
  for (const path of paths) {
    let text: Buffer;
    try {
      text = readFileSync(path);
    } catch {
      continue; // like ssh: a missing default identity is not an error
    }
    const parsed = utils.parseKey(text);
    if (!(parsed instanceof Error)) {
      keys.push({ path, key: text });
      continue;
    }
    if (!ENCRYPTED.test(parsed.message)) continue; // not a private key ssh could read either
    if (options.agentSocket || !options.askPassphrase) {
      locked.push(path);
      continue;
    }
    for (let tries = 0; tries < 3; tries += 1) {
      const passphrase = await options.askPassphrase(path);
      if (passphrase === null) break;
      if (!(utils.parseKey(text, passphrase) instanceof Error)) {
        keys.push({ path, key: text, passphrase });
        break;
      }
      if (tries === 2) throw new ConnectError(`${path}: wrong passphrase (3 tries)`);
    }
  }
  return { keys, locked };
}

function authHandler(user: string, agentSocket: string | null, keys: LoadedKey[]) {
  const attempts: AnyAuthMethod[] = [];
  if (agentSocket) attempts.push({ type: 'agent', username: user, agent: agentSocket });
  for (const { key, passphrase } of keys) attempts.push({ type: 'publickey', username: user, key, ...(passphrase === undefined ? {} : { passphrase }) });
  return (_left: AuthenticationType[], _partial: boolean, next: NextAuthHandler): void => {
    const attempt = attempts.shift();
    if (attempt) next(attempt);
    // @ts-expect-error ssh2 ends authentication on `false`; @types/ssh2 leaves that value out
    else next(false);
  };
}

export class SshConnection {
  private lostReason: string | null = null;
  private readonly lostListeners = new Set<(reason: string) => void>();

  private constructor(
    private readonly client: InstanceType<typeof Client>,
    readonly target: ResolvedTarget,
    private readonly hops: SshConnection[],
  ) {
    client.on('error', (error: Error) => this.markLost(error.message));
    client.on('close', () => this.markLost('connection closed'));
    client.on('end', () => this.markLost('connection closed by the server'));
  }

  /**
   * Connects to `target`, through its ProxyJump hops first. `options` may be a function: each hop
   * then logs in with its own settings (its IdentityFile, its known_hosts), as ssh does.
   */
  static async open(target: ResolvedTarget, options: ConnectOptions | ((hop: ResolvedTarget) => ConnectOptions)): Promise<SshConnection> {
    const optionsFor = typeof options === 'function' ? options : () => options;
    const hops: SshConnection[] = [];
    try {
      let sock: Readable | undefined;
      for (const jump of target.jumps) {
        const hop = await SshConnection.open(jump, optionsFor);
        hops.push(hop);
        sock = await hop.forward(target.host, target.port);
      }
      const client = await connectClient(target, optionsFor(target), sock);
      return new SshConnection(client, target, hops);
    } catch (error) {
      for (const hop of hops) hop.close();
      throw error;
    }
  }

  get display(): string {
    return describeTarget(this.target);
  }

  get lost(): string | null {
    return this.lostReason;
  }

  onLost(listener: (reason: string) => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  private markLost(reason: string): void {
    if (this.lostReason !== null) return;
    this.lostReason = reason;
    for (const listener of this.lostListeners) listener(reason);
  }

  private forward(host: string, port: number): Promise<Readable> {
    return new Promise((resolve, reject) => {
      this.client.forwardOut('127.0.0.1', 0, host, port, (error, stream) => {
        if (error) reject(new ConnectError(`${this.display} could not open a channel to ${host}:${port} (ProxyJump): ${error.message}`, { cause: error }));
        else resolve(stream);
      });
    });
  }

  exec(command: string, handlers: ExecHandlers = {}): RemoteProcess {
    let channel: ClientChannel | null = null;
    let closed = false;
    const done = new Promise<ExecEnd>((resolve) => {
      if (this.lostReason !== null) {
        resolve({ kind: 'lost', reason: this.lostReason });
        return;
      }
      const stopListening = this.onLost((reason) => resolve({ kind: 'lost', reason }));
      this.client.exec(command, (error, stream) => {
        if (error) {
          stopListening();
          resolve({ kind: 'lost', reason: `could not open a channel: ${error.message}` });
          return;
        }
        channel = stream;
        if (closed) stream.close();
        let code: number | null = null;
        let signal: string | null = null;
        stream.on('exit', (exitCode: number | null, exitSignal?: string) => {
          code = exitCode;
          signal = exitSignal ?? null;
        });
        stream.setEncoding('utf8');
        stream.stderr.setEncoding('utf8');
        stream.on('data', (chunk: string) => handlers.onStdout?.(chunk));
        stream.stderr.on('data', (chunk: string) => handlers.onStderr?.(chunk));
        stream.on('close', () => {
          if (code !== null || signal !== null) {
            stopListening();
            resolve({ kind: 'exit', code, signal });
            return;
          }
          // A channel that closes without an exit status while the connection goes down is a loss;
          // give the connection's own close event a moment to say so.
          setTimeout(() => {
            stopListening();
            resolve({ kind: 'lost', reason: this.lostReason ?? 'the channel closed without an exit status' });
          }, 20);
        });
        stream.end(handlers.stdin ?? '');
      });
    });
    return {
      done,
      close: () => {
        closed = true;
        (channel as ClientChannel | null)?.close();
      },
    };
  }

  close(): void {
    this.markLost('closed by retrace');
    this.client.end();
    for (const hop of this.hops.reverse()) hop.close();
  }
}

async function connectClient(target: ResolvedTarget, options: ConnectOptions, sock: Readable | undefined): Promise<InstanceType<typeof Client>> {
  const check = hostKeyCheck(target.host, target.port, { knownHostsFiles: options.knownHostsFiles, acceptNew: options.acceptNew });
  const { keys, locked } = await loadKeys(options.identityFiles, options);
  const name = describeTarget(target);
  const lockedNote = locked.length === 0 || options.agentSocket ? '' : `; ${locked.join(', ')} ${locked.length > 1 ? 'are' : 'is'} encrypted and no ssh-agent is running: add ${locked.length > 1 ? 'them' : 'it'} to one (ssh-add), or run retrace on a terminal to be asked for the passphrase`;
  if (keys.length === 0 && !options.agentSocket) {
    throw new ConnectError(`no identity to log in to ${name} with: no ssh-agent (SSH_AUTH_SOCK) and no readable key file (tried ${options.identityFiles.join(', ') || 'none'})${lockedNote}`);
  }
  return new Promise((resolve, reject) => {
    const client = new Client();
    let refusal: HostKeyRefusedError | null = null;
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      client.end();
      reject(refusal ?? new ConnectError(`cannot connect to ${name}: ${error.message}${/authentication/i.test(error.message) ? lockedNote : ''}`, { cause: error }));
    };
    client.once('ready', () => {
      settled = true;
      // Steps are short request/response exchanges: Nagle's algorithm would hold each one back.
      client.setNoDelay(true);
      client.removeListener('error', fail);
      resolve(client);
    });
    client.on('error', fail);
    client.once('close', () => fail(new Error('the connection closed during the handshake')));
    const config: ConnectConfig = {
      host: target.host,
      port: target.port,
      username: target.user,
      sock,
      readyTimeout: options.readyTimeoutMs,
      keepaliveInterval: options.keepaliveIntervalMs,
      keepaliveCountMax: options.keepaliveCountMax,
      authHandler: authHandler(target.user, options.agentSocket, keys),
      hostVerifier: (presented: Buffer): boolean => {
        try {
          check.verify(presented);
          return true;
        } catch (error) {
          if (error instanceof HostKeyRefusedError) refusal = error;
          else refusal = new HostKeyRefusedError(`cannot check the host key of ${name}: ${String(error)}`, { status: 'unknown', fingerprint: '', keyType: '' });
          return false;
        }
      },
    };
    if (check.algorithms) config.algorithms = { serverHostKey: check.algorithms as NonNullable<ConnectConfig['algorithms']>['serverHostKey'] };
    client.connect(config);
  });
}
