/**
 * Reads the structure of a zstd stream (frame headers, block headers, skippable frames) ahead
 * of the decoder, for two bounds the decoder does not keep by itself:
 *
 * - fzstd allocates, and rewrites on every block, a buffer of the window size a frame header
 *   claims (up to 2 GB): a 66 KB file can claim that much. Frames wanting a window over
 *   WINDOW_LIMIT are refused, as the reference `zstd` refuses them without `--memory`.
 * - fzstd decodes every complete block of what it is given at once: 64 KB of run-length blocks
 *   expand to GBs. The input is cut at block boundaries, so one push yields at most one block
 *   (≤ 128 KiB) and the caller can stop when it has enough.
 *
 * Format: RFC 8878, sections 3.1.1 (frames) and 3.1.2 (skippable frames).
 */

/** zstd's default decompression window limit (windowLog 27). */
export const WINDOW_LIMIT = 128 * 1024 * 1024;
const BLOCK_MAXIMUM = 128 * 1024;
const SKIPPABLE_MAGIC_HIGH = [0x2a, 0x4d, 0x18];

export class ZstdFormatError extends Error {
  constructor(detail: string, offset: number) {
    super(`corrupt or oversized zstd: ${detail} (at compressed byte ${offset})`);
    this.name = 'ZstdFormatError';
  }
}

type Step = 'magic' | 'descriptor' | 'frame-header' | 'block-header' | 'block' | 'checksum' | 'skippable-size' | 'skippable';

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MiB`;
}

export class ZstdFrameGuard {
  private offset = 0;
  private step: Step = 'magic';
  /** Bytes still wanted by the current step: collected into `header`, or skipped over. */
  private wanted = 4;
  private collect = true;
  private header: number[] = [];
  private descriptor = 0;
  private checksum = false;
  private lastBlock = false;

  constructor(private readonly windowLimit = WINDOW_LIMIT) {}

  /** True between frames: the stream may end here. */
  get atFrameBoundary(): boolean {
    return this.step === 'magic' && this.header.length === 0;
  }

  /** Compressed bytes read so far. */
  get position(): number {
    return this.offset;
  }

  /**
   * Checks `chunk` and cuts it into pieces that each end at most one block: pushing one piece to
   * the decoder decodes at most one block. Throws ZstdFormatError at the first byte that is wrong.
   */
  cut(chunk: Uint8Array): Uint8Array[] {
    const pieces: Uint8Array[] = [];
    let start = 0;
    let at = 0;
    while (at < chunk.length) {
      const take = Math.min(this.wanted, chunk.length - at);
      if (this.collect) for (let i = 0; i < take; i++) this.header.push(chunk[at + i] as number);
      at += take;
      this.offset += take;
      this.wanted -= take;
      if (this.wanted > 0) break;
      if (this.advance()) {
        pieces.push(chunk.subarray(start, at));
        start = at;
      }
    }
    if (start < chunk.length) pieces.push(chunk.subarray(start));
    return pieces;
  }

  /** Throws when the stream stopped inside a frame (a file cut short). */
  finish(): void {
    if (!this.atFrameBoundary) throw new ZstdFormatError('the file ends inside a frame', this.offset);
  }

  private next(step: Step, wanted: number, collect: boolean): void {
    this.step = step;
    this.wanted = wanted;
    this.collect = collect;
    this.header = [];
  }

  /** Moves past a completed step; true when a block (or a skippable frame) just ended. */
  private advance(): boolean {
    const bytes = this.header;
    switch (this.step) {
      case 'magic':
        if (bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd) this.next('descriptor', 1, true);
        else if (((bytes[0] as number) & 0xf0) === 0x50 && SKIPPABLE_MAGIC_HIGH.every((b, i) => bytes[i + 1] === b)) this.next('skippable-size', 4, true);
        else throw new ZstdFormatError('no zstd frame starts here', this.offset - 4);
        return false;
      case 'descriptor': {
        this.descriptor = bytes[0] as number;
        if (this.descriptor & 0x08) throw new ZstdFormatError('a reserved bit is set in the frame header', this.offset - 1);
        this.checksum = Boolean(this.descriptor & 0x04);
        // Never empty: a window descriptor, or a single segment's content size, always follows.
        this.next('frame-header', this.frameHeaderRest(), true);
        return false;
      }
      case 'frame-header':
        this.checkWindow(bytes);
        return false;
      case 'block-header': {
        const header = (bytes[0] as number) | ((bytes[1] as number) << 8) | ((bytes[2] as number) << 16);
        this.lastBlock = (header & 1) === 1;
        const type = (header >> 1) & 3;
        const size = header >>> 3;
        if (type === 3) throw new ZstdFormatError('a block of the reserved type', this.offset - 3);
        if (size > BLOCK_MAXIMUM) throw new ZstdFormatError(`a block of ${size} bytes, over the 128 KiB maximum`, this.offset - 3);
        const content = type === 1 ? 1 : size;
        if (content > 0) {
          this.next('block', content, false);
          return false;
        }
        return this.blockDone();
      }
      case 'block':
        return this.blockDone();
      case 'checksum':
        this.next('magic', 4, true);
        return false;
      case 'skippable-size': {
        const size = ((bytes[0] as number) | ((bytes[1] as number) << 8) | ((bytes[2] as number) << 16) | ((bytes[3] as number) << 24)) >>> 0;
        if (size === 0) {
          this.next('magic', 4, true);
          return true;
        }
        this.next('skippable', size, false);
        return false;
      }
      case 'skippable':
        this.next('magic', 4, true);
        return true;
    }
  }

  private blockDone(): boolean {
    if (!this.lastBlock) this.next('block-header', 3, true);
    else if (this.checksum) this.next('checksum', 4, false);
    else this.next('magic', 4, true);
    return true;
  }

  /** Bytes of the frame header after its descriptor: window descriptor, dictionary id, content size. */
  private frameHeaderRest(): number {
    const singleSegment = Boolean(this.descriptor & 0x20);
    const contentSizeFlag = this.descriptor >> 6;
    const dictionaryBytes = [0, 1, 2, 4][this.descriptor & 3] as number;
    const contentSizeBytes = contentSizeFlag === 0 ? (singleSegment ? 1 : 0) : 1 << contentSizeFlag;
    return (singleSegment ? 0 : 1) + dictionaryBytes + contentSizeBytes;
  }

  private checkWindow(rest: readonly number[]): void {
    const start = this.offset - rest.length;
    const singleSegment = Boolean(this.descriptor & 0x20);
    let window: number;
    if (!singleSegment) {
      const descriptor = rest[0] as number;
      const base = 2 ** (10 + (descriptor >> 3));
      window = base + (base / 8) * (descriptor & 7);
    } else {
      // A single-segment frame's window is its content size, the header's last 1, 2, 4 or 8 bytes.
      const sizeBytes = rest.length - ([0, 1, 2, 4][this.descriptor & 3] as number);
      const field = rest.slice(rest.length - sizeBytes);
      window = field.reduce((sum, byte, i) => sum + byte * 2 ** (8 * i), 0) + (sizeBytes === 2 ? 256 : 0);
    }
    if (window > this.windowLimit) {
      throw new ZstdFormatError(`a frame wants a ${mib(window)} window, over the ${mib(this.windowLimit)} retrace decompresses`, start);
    }
    this.next('block-header', 3, true);
  }
}
