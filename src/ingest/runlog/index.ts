import type { Adapter, FileHead } from '../adapter.js';
import { statStamped } from '../../core/io/file-stamp.js';
import { hashFile } from '../../core/io/hash.js';
import { readLines } from '../io/line-reader.js';
import { parseJsonLine } from '../jsonl/parse-line.js';
import type { IngestItem, SourceFormat } from '../../core/model.js';
import type { Source } from '../../core/source.js';
import { convertRunLog, type LogLine } from './convert.js';

/**
 * Run logs of exported replay scripts (`retrace export … --to sh`): a JSONL file whose first line
 * is a `run-started` record of format `retrace-runlog`. Read whole each time it changes (a log is
 * small, and its first line carries the plan every later line is judged against).
 */

const RUNLOG_HEAD = /^\s*\{[^\n]*"type"\s*:\s*"run-started"[^\n]*"format"\s*:\s*"retrace-runlog"/;

async function* readRunLog(path: string): AsyncGenerator<IngestItem> {
  const lines: LogLine[] = [];
  for await (const line of readLines(path)) {
    const parsed = parseJsonLine(line, path);
    if (parsed.kind === 'bad') yield parsed.problem;
    else if (parsed.kind === 'object') {
      yield* parsed.problems;
      lines.push({ value: parsed.value, line: line.number });
    }
  }
  yield* convertRunLog(path, lines);
}

async function runLogSource(path: string): Promise<Source> {
  const info = await statStamped(path);
  return {
    key: path,
    path,
    format: 'retrace-runlog',
    size: info.size,
    stamp: info.stamp,
    appendable: false,
    fingerprint: async () => (await hashFile(path)).full,
    read: () => readRunLog(path),
  };
}

export const runLogAdapter: Adapter = {
  agent: 'retrace',
  formats: ['retrace-runlog'],
  detect(head: FileHead): SourceFormat | null {
    return !head.sqlite && RUNLOG_HEAD.test(head.text) ? 'retrace-runlog' : null;
  },
  async sourcesForFile(path: string): Promise<Source[]> {
    return [await runLogSource(path)];
  },
  defaultLocations() {
    return [];
  },
};
