/**
 * A seeded pseudo-random generator (sfc32, seeded through a 32-bit string hash), so the corpus is
 * the same bytes on every machine and every run: Math.random is never used by the bench.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

/** Four 32-bit words from a string (a murmur-style mix per word, each with its own salt). */
function seedWords(seed: string): [number, number, number, number] {
  const words: number[] = [];
  for (let salt = 0; salt < 4; salt += 1) {
    let h = (0x811c9dc5 ^ Math.imul(salt + 1, 0x9e3779b1)) >>> 0;
    for (let i = 0; i < seed.length; i += 1) {
      h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193);
      h ^= h >>> 13;
    }
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    words.push((h ^ (h >>> 16)) >>> 0);
  }
  return [words[0] ?? 1, words[1] ?? 2, words[2] ?? 3, words[3] ?? 4];
}

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(readonly seed: string) {
    [this.a, this.b, this.c, this.d] = seedWords(seed);
    for (let i = 0; i < 12; i += 1) this.nextUint32(); // leave the correlated first outputs behind
  }

  /** An independent stream for a named part of the corpus: sessions do not depend on each other's draws. */
  fork(label: string): Prng {
    return new Prng(`${this.seed}/${label}`);
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Up to `count` distinct items, in their original order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(count, items.length)) chosen.add(Math.floor(this.next() * items.length));
    return [...chosen].sort((x, y) => x - y).map((index) => items[index] as T);
  }

  /** A duration or size that is usually near `median` but now and then much longer (log-normal-ish). */
  skewed(median: number, spread = 0.6): number {
    const u = Math.max(1e-9, this.next());
    const v = this.next();
    const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return median * Math.exp(normal * spread);
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i += 1) out += HEX[this.nextUint32() & 15];
    return out;
  }

  base62(length: number): string {
    let out = '';
    for (let i = 0; i < length; i += 1) out += BASE62[this.nextUint32() % 62];
    return out;
  }

  /** A version-4 UUID. */
  uuid(): string {
    const h = this.hex(32);
    const variant = HEX[8 + (this.nextUint32() & 3)];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /** A version-7 UUID: its first 48 bits are the creation time, as Codex thread ids have had since late 2025. */
  uuidV7(ms: number): string {
    const time = Math.floor(ms).toString(16).padStart(12, '0').slice(-12);
    const h = this.hex(20);
    const variant = HEX[8 + (this.nextUint32() & 3)];
    return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${h.slice(0, 3)}-${variant}${h.slice(3, 6)}-${h.slice(6, 18)}`;
  }
}
