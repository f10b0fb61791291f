import type { Line } from '../io/line-reader.js';
import type { ProblemItem } from '../../core/model.js';
import { parseJson } from '../../core/json-depth.js';

export type JsonObject = Record<string, unknown>;

export type ParsedLine =
  | { kind: 'object'; value: JsonObject; problems: ProblemItem[] }
  | { kind: 'blank' }
  | { kind: 'bad'; problem: ProblemItem };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeJsonError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One JSONL line as a JSON object, or the problem that names its file and line. A line that is not
 * valid UTF-8 is still read (with U+FFFD replacements) and reported, so a stray byte in a tool's
 * output does not cost the whole record.
 */
export function parseJsonLine(line: Line, file: string): ParsedLine {
  const location = { file, line: line.number };
  if (line.oversized !== undefined) {
    return { kind: 'bad', problem: { kind: 'problem', message: `line of ${line.oversized} bytes is over the size limit; skipped`, location } };
  }
  if (line.text.trim() === '') return { kind: 'blank' };
  let value: unknown;
  try {
    value = parseJson(line.text);
  } catch (error) {
    const message = line.complete
      ? `invalid JSON: ${describeJsonError(error)}`
      : `incomplete last line (no newline after it; still being written?): ${describeJsonError(error)}`;
    return { kind: 'bad', problem: { kind: 'problem', message, location } };
  }
  if (!isJsonObject(value)) {
    const what = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    return { kind: 'bad', problem: { kind: 'problem', message: `expected a JSON object on each line, got ${what}`, location } };
  }
  const problems: ProblemItem[] = line.validUtf8
    ? []
    : [{ kind: 'problem', message: 'line is not valid UTF-8; read with U+FFFD in place of the bad bytes', location }];
  return { kind: 'object', value, problems };
}
