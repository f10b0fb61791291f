import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A file written in large synchronous chunks: the generator produces hundreds of megabytes, and
 * batching small strings into 4 MB writes keeps it bound by JSON.stringify, not by syscalls.
 */
export class FileSink {
  private readonly fd: number;
  private pending: string[] = [];
  private pendingLength = 0;
  /** Bytes written so far (UTF-8), including what is still buffered. */
  bytes = 0;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'w');
  }

  write(text: string): void {
    this.pending.push(text);
    this.pendingLength += text.length;
    this.bytes += Buffer.byteLength(text);
    if (this.pendingLength > 4 * 1024 * 1024) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    writeSync(this.fd, this.pending.join(''));
    this.pending = [];
    this.pendingLength = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}
