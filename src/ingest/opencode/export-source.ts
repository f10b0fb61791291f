import { statStamped } from '../../core/io/file-stamp.js';
import { hashFile } from '../../core/io/hash.js';
import { streamJsonDocument } from '../io/json-document-stream.js';
import type { IngestItem } from '../../core/model.js';
import type { Source } from '../../core/source.js';
import { OpencodeSessionBuilder, type RawMessage } from './convert.js';
import { parseJson as parseJsonValue } from '../../core/json-depth.js';

const STREAMED = new Set(['messages']);

function parseJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: parseJsonValue(text) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function isRawMessage(value: unknown): value is RawMessage {
  return (
    typeof value === 'object' && value !== null && 'info' in value && Array.isArray((value as { parts?: unknown }).parts)
  );
}

/** Reads `opencode export <id>` output ({info, messages:[{info, parts}]}) one message at a time. */
export async function* readOpencodeExport(file: string): AsyncGenerator<IngestItem> {
  const builder = new OpencodeSessionBuilder(file);
  for await (const event of streamJsonDocument(file, STREAMED)) {
    if (event.kind === 'error') {
      yield { kind: 'problem', message: event.message, location: { file, line: event.line, path: event.path } };
      continue;
    }
    const path = event.kind === 'element' ? `$.${event.key}[${event.index}]` : `$.${event.key}`;
    const location = { file, line: event.line, path };
    if (event.kind === 'property' && event.key !== 'info') continue;
    if (!event.validUtf8) {
      yield { kind: 'problem', message: 'not valid UTF-8: the bad bytes were replaced with U+FFFD and the rest kept', location };
    }
    const parsed = parseJson(event.text);
    if ('error' in parsed) {
      yield { kind: 'problem', message: `invalid JSON: ${parsed.error}`, location };
      continue;
    }
    if (event.kind === 'property') {
      yield* builder.setInfo(parsed.value, location);
    } else if (isRawMessage(parsed.value)) {
      yield* builder.addMessage(parsed.value, location);
    } else {
      yield { kind: 'problem', message: 'a message must be an object with "info" and "parts"', location };
    }
  }
  yield* builder.finish();
}

export async function exportSource(file: string): Promise<Source> {
  const info = await statStamped(file);
  return {
    key: file,
    path: file,
    format: 'opencode-export',
    size: info.size,
    stamp: info.stamp,
    appendable: false,
    fingerprint: async () => (await hashFile(file)).full,
    read: () => readOpencodeExport(file),
  };
}
