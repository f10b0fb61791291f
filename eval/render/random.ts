// A seeded generator, so a story renders to the same bytes on every run: ids, jitter and
// durations all come from it, seeded by the story's id.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

export class Random {
  private state: number;

  constructor(seed: string) {
    // FNV-1a of the seed text, then mulberry32 steps.
    let hash = 0x811c9dc5;
    for (let i = 0; i < seed.length; i += 1) {
      hash ^= seed.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    this.state = hash;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  between(low: number, high: number): number {
    return low + (high - low) * this.next();
  }

  int(low: number, high: number): number {
    return Math.floor(this.between(low, high + 1));
  }

  chars(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  base62(length: number): string {
    return this.chars(BASE62, length);
  }

  hex(length: number): string {
    return this.chars(HEX, length);
  }

  uuid4(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = HEX[(parseInt(h[16]!, 16) & 0x3) | 0x8]!;
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }

  /** UUID v7: the first 48 bits are the creation time in ms (Codex thread ids since late 2025). */
  uuid7(ms: number): string {
    const time = ms.toString(16).padStart(12, '0');
    const rest = this.hex(20).split('');
    rest[0] = '7';
    rest[4] = HEX[(parseInt(rest[4]!, 16) & 0x3) | 0x8]!;
    const s = time + rest.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }

  /** Opaque base64-looking text (signatures, encrypted reasoning). */
  opaque(length: number): string {
    return this.chars(`${BASE62}+/`, length);
  }
}
