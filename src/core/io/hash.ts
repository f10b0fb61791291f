import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export interface FileHashes {
  /** sha256 of the whole file. */
  full: string;
  /** sha256 of its first `prefixBytes` bytes, when asked for and the file is that long. */
  prefix: string | null;
}

/** Hashes a file in one streamed pass, optionally also the hash of a prefix of it. */
export async function hashFile(path: string, prefixBytes?: number | null): Promise<FileHashes> {
  const full = createHash('sha256');
  let prefixHash: Hash | null = prefixBytes ? createHash('sha256') : null;
  let prefix: string | null = prefixBytes === 0 ? createHash('sha256').digest('hex') : null;
  let seen = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    full.update(chunk);
    if (prefixHash && prefixBytes) {
      const take = Math.min(chunk.length, prefixBytes - seen);
      if (take > 0) prefixHash.update(chunk.subarray(0, take));
      if (seen + chunk.length >= prefixBytes) {
        prefix = prefixHash.digest('hex');
        prefixHash = null;
      }
    }
    seen += chunk.length;
  }
  return { full: full.digest('hex'), prefix };
}

export function hashStrings(parts: Iterable<string>): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
}
