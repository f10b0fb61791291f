import type { IngestItem } from '../core/model.js';
import type { KnownFile, ResumePoint, Source } from '../core/source.js';

/**
 * A source for a file the store knows unchanged. Should the store prove to disagree after all (it
 * changed between discovery and ingest), the file is opened then, through its adapter, and read
 * like any other.
 */
export function unchangedSource(path: string, known: KnownFile, resolve: () => Promise<Source[]>): Source {
  let real: Promise<Source> | null = null;
  const source = (): Promise<Source> =>
    (real ??= resolve().then((sources) => {
      const found = sources.find((s) => s.key === path);
      if (!found) throw new Error(`no longer readable as ${known.format}`);
      return found;
    }));
  return {
    key: path,
    path,
    format: known.format,
    size: known.size,
    stamp: known.stamp,
    appendable: known.appendable,
    fingerprint: async () => (await source()).fingerprint(),
    read: (resume?: ResumePoint): AsyncIterable<IngestItem> => ({
      async *[Symbol.asyncIterator]() {
        yield* (await source()).read(resume);
      },
    }),
  };
}
