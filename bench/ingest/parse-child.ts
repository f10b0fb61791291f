import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { emitResult } from '../lib/child.js';

/**
 * `node parse-child.js FORMAT ROOT`: the ceiling for any JavaScript reader — the same bytes
 * streamed, split into lines and handed to JSON.parse, nothing else. An export document is one
 * JSON.parse of the file; a storage tree one JSON.parse per file; an opencode.db every row of its
 * message and part tables read and its `data` parsed.
 */
export interface BareParseResult {
  ms: number;
  values: number;
  bytes: number;
}

/** Synchronous walking and reading: for tens of thousands of small files, the fastest way Node has. */
function* files(dir: string, suffix: string): Generator<string> {
  const entries = readdirSync(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path, suffix);
    else if (entry.name.endsWith(suffix)) yield path;
  }
}

/** Streams a file in 1 MB chunks, parsing each complete line; returns how many values. */
async function parseLines(file: string): Promise<{ values: number; bytes: number }> {
  let carry: Buffer | null = null;
  let values = 0;
  let bytes = 0;
  for await (const raw of createReadStream(file, { highWaterMark: 1 << 20 })) {
    const chunk = raw as Buffer;
    bytes += chunk.length;
    const buffer: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let newline = buffer.indexOf(10, start); newline >= 0; newline = buffer.indexOf(10, start)) {
      if (newline > start) {
        JSON.parse(buffer.toString('utf8', start, newline));
        values += 1;
      }
      start = newline + 1;
    }
    carry = start < buffer.length ? buffer.subarray(start) : null;
  }
  if (carry && carry.length > 0) {
    JSON.parse(carry.toString('utf8'));
    values += 1;
  }
  return { values, bytes };
}

const [format, root] = process.argv.slice(2);
if (!format || !root) throw new Error('usage: parse-child.js FORMAT ROOT');
let values = 0;
let bytes = 0;
const started = performance.now();
if (format === 'claude' || format === 'codex') {
  for (const file of files(root, '.jsonl')) {
    const counted = await parseLines(file);
    values += counted.values;
    bytes += counted.bytes;
  }
} else if (format === 'opencode-db') {
  for (const file of files(root, '.db')) {
    const db = new BetterSqlite3(file, { readonly: true });
    for (const table of ['session', 'message', 'part']) {
      for (const row of db.prepare(`SELECT * FROM ${table}`).iterate() as Iterable<Record<string, unknown>>) {
        if (typeof row['data'] === 'string') {
          JSON.parse(row['data']);
          bytes += row['data'].length;
        }
        values += 1;
      }
    }
    db.close();
  }
} else {
  for (const file of files(root, '.json')) {
    const text = readFileSync(file);
    bytes += text.length;
    JSON.parse(text.toString('utf8'));
    values += 1;
  }
}
emitResult({ ms: performance.now() - started, values, bytes } satisfies BareParseResult);
