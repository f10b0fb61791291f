import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Adapter, FileHead } from '../adapter.js';
import { statStamped } from '../../core/io/file-stamp.js';
import { hashFile } from '../../core/io/hash.js';
import type { IngestItem, SourceFormat } from '../../core/model.js';
import type { Source } from '../../core/source.js';
import { convertAtifDocument } from './convert.js';

/**
 * ATIF trajectories (`*.atif.json`, `trajectory.json`): one JSON document per run, written by
 * Harbor, NVIDIA NeMo Agent Toolkit, or `retrace export --to atif`. Read whole when it changes.
 */

const ATIF_HEAD = /^\s*\{[\s\S]*?"schema_version"\s*:\s*"ATIF-v\d/;
/** One document is parsed whole; past this a file is refused rather than exhausting memory. */
const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** The 1-based line of a JSON.parse error's `position N`, when the message gives one. */
function lineOfError(text: string, message: string): number | undefined {
  const position = /position (\d+)/.exec(message);
  if (!position?.[1]) return undefined;
  return text.slice(0, Number(position[1])).split('\n').length;
}

async function* readAtif(path: string): AsyncGenerator<IngestItem> {
  const info = await stat(path);
  if (info.size > MAX_DOCUMENT_BYTES) {
    yield { kind: 'problem', message: `an ATIF document of ${info.size} bytes is larger than the ${MAX_DOCUMENT_BYTES} retrace reads whole`, location: { file: path } };
    return;
  }
  const text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const line = lineOfError(text, message);
    yield { kind: 'problem', message: `not JSON: ${message}`, location: { file: path, ...(line ? { line } : {}) } };
    return;
  }
  yield* convertAtifDocument(document, path, basename(path).replace(/\.(atif\.)?json$/i, ''));
}

async function atifSource(path: string): Promise<Source> {
  const info = await statStamped(path);
  return {
    key: path,
    path,
    format: 'atif-json',
    size: info.size,
    stamp: info.stamp,
    appendable: false,
    fingerprint: async () => (await hashFile(path)).full,
    read: () => readAtif(path),
  };
}

export const atifAdapter: Adapter = {
  agent: 'atif',
  formats: ['atif-json'],
  detect(head: FileHead): SourceFormat | null {
    return !head.sqlite && ATIF_HEAD.test(head.text) ? 'atif-json' : null;
  },
  assume: () => 'atif-json',
  async sourcesForFile(path: string): Promise<Source[]> {
    return [await atifSource(path)];
  },
  versionOf(head: FileHead): string | null {
    return /"schema_version"\s*:\s*"(ATIF-v[\d.]+)"/.exec(head.text)?.[1] ?? null;
  },
  defaultLocations() {
    return [];
  },
};
