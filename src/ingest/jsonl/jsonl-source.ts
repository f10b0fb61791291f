import { statStamped } from '../../core/io/file-stamp.js';
import { hashFile } from '../../core/io/hash.js';
import { readLines, type Line } from '../io/line-reader.js';
import { isZstdFile, readZstdLines } from '../io/zstd-lines.js';
import type { IngestItem, SourceFormat } from '../../core/model.js';
import type { ResumePoint, Source } from '../../core/source.js';
import { parseJsonLine, type JsonObject } from './parse-line.js';

/** Turns the objects of one JSONL transcript, line by line, into normalised items. */
export interface LineConverter {
  onLine(value: JsonObject, line: Line): IngestItem[];
  /** Nothing read so far waits for a later line: the next line is a safe resume point. */
  idle(): boolean;
  /** End of input: whatever is still held, then the session record. */
  finish(): IngestItem[];
}

export interface ConverterContext {
  file: string;
  /** Set when reading resumes after lines an earlier ingest already stored. */
  resume: ResumePoint | null;
}

export type ConverterFactory = (context: ConverterContext) => Promise<LineConverter>;

export interface JsonlReadOptions {
  compressed: boolean;
  maxLineBytes?: number;
}

function linesOf(file: string, resume: ResumePoint | null, options: JsonlReadOptions): AsyncGenerator<Line> {
  if (options.compressed) return readZstdLines(file, { maxLineBytes: options.maxLineBytes });
  return readLines(file, { startOffset: resume?.offset ?? 0, startLine: resume?.line ?? 1, maxLineBytes: options.maxLineBytes });
}

/**
 * Streams a JSONL transcript through a converter, one line in memory at a time. After every
 * complete line that leaves nothing pending it yields a checkpoint, so a file that grows is
 * later read from its first line not yet settled.
 */
export async function* readJsonl(
  file: string,
  resume: ResumePoint | null,
  makeConverter: ConverterFactory,
  options: JsonlReadOptions,
): AsyncGenerator<IngestItem> {
  const effectiveResume = options.compressed ? null : resume;
  const converter = await makeConverter({ file, resume: effectiveResume && effectiveResume.offset > 0 ? effectiveResume : null });
  for await (const line of linesOf(file, effectiveResume, options)) {
    const parsed = parseJsonLine(line, file);
    if (parsed.kind === 'bad') yield parsed.problem;
    else if (parsed.kind === 'object') {
      yield* parsed.problems;
      yield* converter.onLine(parsed.value, line);
    }
    // Offsets inside a compressed file say nothing about the file on disk: no resume points there.
    if (line.complete && !options.compressed && converter.idle()) yield { kind: 'checkpoint', offset: line.end, line: line.number + 1 };
  }
  yield* converter.finish();
}

/**
 * A JSONL transcript as a source. Plain files are appendable (read from where the last ingest
 * stopped); zstd-compressed ones (recognised by their magic bytes, not their name) are read whole.
 */
export async function jsonlSource(
  path: string,
  format: SourceFormat,
  makeConverter: ConverterFactory,
  options: Omit<JsonlReadOptions, 'compressed'> = {},
): Promise<Source> {
  const info = await statStamped(path);
  const compressed = await isZstdFile(path);
  return {
    key: path,
    path,
    format,
    size: info.size,
    stamp: info.stamp,
    appendable: !compressed,
    fingerprint: async () => (await hashFile(path)).full,
    read: (resume?: ResumePoint) => readJsonl(path, resume ?? null, makeConverter, { ...options, compressed }),
  };
}
