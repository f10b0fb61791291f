import type { Prng } from '../lib/prng.js';

/**
 * The file sizes of a real `~/.claude` archive, as ccusage published them: 3,142 files, 1.24 GiB,
 * p50 105 KB, p90 654 KB, p99 5.4 MB, max 87 MB. Sizes between the published quantiles are
 * interpolated on a log scale; the p99.9 knot (not published) is the one that makes the total come
 * out at 1.24 GiB. A scaled corpus keeps the shape and has fewer files (stratified quantiles), so
 * its largest file is the quantile its file count reaches (87 MB only at scale 1).
 */
export const ARCHIVE_FILES = 3142;

const KNOTS: readonly (readonly [quantile: number, bytes: number])[] = [
  [0, 1_500],
  [0.5, 105_000],
  [0.9, 654_000],
  [0.99, 5_400_000],
  [0.999, 5_600_000],
  [1 - 0.5 / ARCHIVE_FILES, 87_000_000],
];

/** The size at quantile `p` (0–1) of the profile. */
export function sizeAtQuantile(p: number): number {
  for (let i = 1; i < KNOTS.length; i += 1) {
    const [p1, s1] = KNOTS[i] as readonly [number, number];
    const [p0, s0] = KNOTS[i - 1] as readonly [number, number];
    if (p <= p1 || i === KNOTS.length - 1) {
      const t = Math.min(1, (p - p0) / (p1 - p0));
      return Math.round(Math.exp(Math.log(s0) + t * (Math.log(s1) - Math.log(s0))));
    }
  }
  return KNOTS[0]?.[1] ?? 0;
}

/** `round(3142 × scale)` file sizes following the profile, largest first. */
export function archiveFileSizes(scale: number): number[] {
  const count = Math.max(4, Math.round(ARCHIVE_FILES * scale));
  const sizes: number[] = [];
  for (let i = 0; i < count; i += 1) sizes.push(sizeAtQuantile((i + 0.5) / count));
  return sizes.sort((a, b) => b - a);
}

/**
 * Deals the sizes out to the formats: the largest to the first format (ccusage's largest file is
 * a Claude session), the next ones one per format (each gets a long session), the rest at random
 * by share.
 */
export function dealSizes<F extends string>(sizes: readonly number[], shares: Readonly<Record<F, number>>, prng: Prng): Record<F, number[]> {
  const formats = Object.keys(shares) as F[];
  const dealt = Object.fromEntries(formats.map((f) => [f, [] as number[]])) as Record<F, number[]>;
  sizes.forEach((size, index) => {
    if (index < formats.length) {
      dealt[formats[index] as F].push(size);
      return;
    }
    let roll = prng.next();
    const chosen = formats.find((f) => (roll -= shares[f]) < 0) ?? (formats.at(-1) as F);
    dealt[chosen].push(size);
  });
  return dealt;
}
