import { isJsonObject } from '../jsonl/parse-line.js';
import { parseJson } from '../../core/json-depth.js';

/**
 * The output of a Codex tool call in every style seen in the wild (docs/formats/codex.md):
 * structured JSON `{output, metadata: {exit_code, duration_seconds}}`, freeform
 * `Exit code: N / Wall time: S seconds / Output:`, and unified exec
 * `Chunk ID / Wall time / Process exited with code N | Process running with session ID N / Output:`,
 * which 0.118 opens with a `Command: <the shell command line>` header (and may write without an
 * exit line: the `exec_command_end` event then says it).
 */
export interface ExecOutput {
  style: 'structured' | 'freeform' | 'unified' | 'text';
  /** The command's own output, without the headers. */
  body: string;
  exitCode: number | null;
  wallTimeMs: number | null;
  timedOut: boolean;
  truncated: boolean;
  /** Unified exec: the process is still running and this session id reaches it (`write_stdin`). */
  runningSession: number | null;
  /** The command line a `Command:` header names (the shell wrapper included: `/bin/zsh -lc '…'`). */
  shellCommand: string | null;
}

const HEADER_LINES = 8;
const TIMEOUT_BODY = /^command timed out after \d+ ?(milliseconds|ms|seconds|s)\b/i;
const TRUNCATION_MARK = /\[\.\.\. omitted \d+ of \d+ lines \.\.\.\]|…\d+ tokens truncated…/;

/** A body that starts with the shell tool's timeout notice. */
export function isTimeoutBody(body: string): boolean {
  return TIMEOUT_BODY.test(body);
}

function plain(body: string): ExecOutput {
  return { style: 'text', body, exitCode: null, wallTimeMs: null, timedOut: false, truncated: false, runningSession: null, shellCommand: null };
}

function seconds(text: string): number | null {
  const value = Number(text);
  return Number.isFinite(value) ? Math.round(value * 1000) : null;
}

function structured(text: string): ExecOutput | null {
  if (!text.trimStart().startsWith('{')) return null;
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    return null;
  }
  if (!isJsonObject(value) || typeof value['output'] !== 'string') return null;
  const output = value['output'];
  const metadata = isJsonObject(value['metadata']) ? value['metadata'] : {};
  const exit = typeof metadata['exit_code'] === 'number' ? metadata['exit_code'] : null;
  const duration = typeof metadata['duration_seconds'] === 'number' ? Math.round(metadata['duration_seconds'] * 1000) : null;
  return {
    style: 'structured',
    body: output,
    exitCode: exit,
    wallTimeMs: duration,
    timedOut: TIMEOUT_BODY.test(output),
    truncated: TRUNCATION_MARK.test(output),
    runningSession: null,
    shellCommand: null,
  };
}

const HEADER_LINE = /^(Output:|Exit code: -?\d+|Process exited with code -?\d+|Process running with session ID \d+|Wall time: [\d.]+ seconds?|Total output lines: \d+|(Chunk ID|Original token count): .*)\r?$/;

/**
 * The `Command:` header of a 0.118 unified-exec output and the line its other headers start at:
 * the command line can span lines (a heredoc), so it runs to the first line that is a header.
 */
function commandHeader(lines: readonly string[]): { command: string; next: number } | null {
  if (!(lines[0] ?? '').startsWith('Command: ')) return null;
  const next = lines.findIndex((line, index) => index > 0 && HEADER_LINE.test(line));
  if (next === -1) return null;
  return { command: lines.slice(0, next).join('\n').slice('Command: '.length).replace(/\r$/, ''), next };
}

function headed(text: string): ExecOutput | null {
  const all = text.split('\n');
  const command = commandHeader(all);
  const lines = command ? all.slice(command.next) : all;
  const out: ExecOutput = { ...plain(''), style: command ? 'unified' : 'freeform', shellCommand: command?.command ?? null };
  let matched = 0;
  for (let index = 0; index < Math.min(lines.length, HEADER_LINES); index += 1) {
    const line = (lines[index] as string).replace(/\r$/, '');
    let match: RegExpExecArray | null;
    if (line === 'Output:') {
      if (matched === 0 && !command) return null;
      out.body = lines.slice(index + 1).join('\n');
      out.timedOut = TIMEOUT_BODY.test(out.body);
      out.truncated ||= TRUNCATION_MARK.test(out.body);
      return out;
    } else if ((match = /^Exit code: (-?\d+)$/.exec(line))) out.exitCode = Number(match[1]);
    else if ((match = /^Process exited with code (-?\d+)$/.exec(line))) {
      out.exitCode = Number(match[1]);
      out.style = 'unified';
    } else if ((match = /^Process running with session ID (\d+)$/.exec(line))) {
      out.runningSession = Number(match[1]);
      out.style = 'unified';
    } else if ((match = /^Wall time: ([\d.]+) seconds?$/.exec(line))) out.wallTimeMs = seconds(match[1] as string);
    else if (/^Total output lines: \d+$/.test(line)) out.truncated = true;
    else if (/^(Chunk ID|Original token count): /.test(line)) out.style = 'unified';
    else break;
    matched += 1;
  }
  // Headers and no `Output:` line: an empty body, as long as nothing but headers was there.
  const rest = lines.slice(matched).join('\n').trim();
  if ((matched === 0 && !command) || rest !== '' || (out.exitCode === null && out.runningSession === null)) return null;
  return out;
}

export function parseExecOutput(text: string): ExecOutput {
  return structured(text) ?? headed(text) ?? plain(text);
}

/** The text of a `function_call_output.output`: a string, or content items (MCP results, images). */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) {
    return output
      .map((item: unknown) => {
        const { type, text } = isJsonObject(item) ? item : {};
        return typeof text === 'string' ? text : `[${typeof type === 'string' ? type : 'item'}]`;
      })
      .join('\n');
  }
  if (isJsonObject(output) && typeof output['content'] === 'string') return output['content'];
  return output === undefined || output === null ? '' : JSON.stringify(output);
}
