/**
 * Hand-built zstd frames (RFC 8878) for hostile-input tests: raw and run-length blocks need no
 * entropy coder, so a few bytes can stand for gigabytes, and any header field can be set.
 */
const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
const BLOCK = 128 * 1024;

function blockHeader(type: 0 | 1, size: number, last: boolean): number[] {
  const header = (size << 3) | (type << 1) | (last ? 1 : 0);
  return [header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff];
}

export interface FrameOptions {
  /** Bytes stored as they are (raw blocks) first. */
  prefix?: Buffer;
  /** Then this many run-length blocks of 128 KiB of `fill`. */
  rleBlocks?: number;
  fill?: number;
  /** The window the frame header claims, as windowLog (10–31). */
  windowLog?: number;
}

/** One zstd frame: a window descriptor, raw blocks holding `prefix`, then run-length blocks. */
export function zstdFrame(options: FrameOptions): Buffer {
  const windowLog = options.windowLog ?? 20;
  const bytes: number[] = [...MAGIC, 0x00, (windowLog - 10) << 3];
  const prefix = options.prefix ?? Buffer.alloc(0);
  const rle = options.rleBlocks ?? 0;
  for (let at = 0; at < prefix.length; at += BLOCK) {
    const part = prefix.subarray(at, at + BLOCK);
    bytes.push(...blockHeader(0, part.length, rle === 0 && at + BLOCK >= prefix.length), ...part);
  }
  for (let i = 0; i < rle; i++) bytes.push(...blockHeader(1, BLOCK, i === rle - 1), options.fill ?? 0x61);
  if (prefix.length === 0 && rle === 0) bytes.push(...blockHeader(0, 0, true));
  return Buffer.from(bytes);
}

/** Bytes the frame expands to. */
export function expandedSize(options: FrameOptions): number {
  return (options.prefix?.length ?? 0) + (options.rleBlocks ?? 0) * BLOCK;
}
