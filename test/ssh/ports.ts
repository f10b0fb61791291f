// Loopback ports for the test sshd: pick a free one, then wait until sshd answers on it.
import { createConnection, createServer } from 'node:net';

/** A port the kernel just gave us on `address`; closed again so sshd can bind it. */
export function findFreePort(address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: address, port: 0, exclusive: true }, () => {
      const bound = server.address();
      const port = typeof bound === 'object' && bound !== null ? bound.port : undefined;
      server.close(() => (port === undefined ? reject(new Error(`no port bound on ${address}`)) : resolve(port)));
    });
  });
}

/** Connects once and resolves with the server's identification line ("SSH-2.0-…"), or rejects. */
function readBanner(address: string, port: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: address, port });
    let received = '';
    const finish = (error: Error | undefined, banner?: string): void => {
      socket.destroy();
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(banner ?? '');
    };
    const timer = setTimeout(() => finish(new Error(`no SSH banner from ${address}:${port} in ${timeoutMs} ms`)), timeoutMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      const line = received.split(/\r?\n/).find((candidate) => candidate.startsWith('SSH-'));
      if (line) finish(undefined, line);
    });
    socket.on('error', (error) => finish(error));
    socket.on('close', () => finish(new Error(`${address}:${port} closed before its SSH banner`)));
  });
}

/**
 * Polls until `address:port` answers with an SSH banner. `isStillStarting` lets the caller stop
 * waiting as soon as the server process died (a bind failure, a config error).
 */
export async function waitForSshBanner(
  address: string,
  port: number,
  { timeoutMs = 10_000, isStillStarting = () => true }: { timeoutMs?: number; isStillStarting?: () => boolean } = {},
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (!isStillStarting()) throw new Error(`sshd for ${address}:${port} exited while starting`, { cause: lastError });
    try {
      return await readBanner(address, port, Math.max(100, deadline - Date.now()));
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  throw new Error(`sshd on ${address}:${port} did not answer within ${timeoutMs} ms`, { cause: lastError });
}
