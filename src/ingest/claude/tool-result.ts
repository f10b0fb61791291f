import type { ToolCallRecord } from '../../core/model.js';
import { isJsonObject } from '../jsonl/parse-line.js';
import { elapsed, extraJson, extraOf, smallFields } from '../jsonl/values.js';
import { persistedOutputOf, wholeOutputInLine } from './persisted-output.js';
import { SHELL_TOOLS, type ContentBlock } from './schema.js';

/** Bash results that mean the tool killed (or abandoned) the command at its time limit. */
const TIMED_OUT = [/^Command timed out after /, /did not complete within its .{0,40}timeout and was moved to the background/];
const EXIT_CODE = /^Exit code (-?\d+)/;
const BACKGROUND = /^Command running in background with ID:/;

/** The text of a tool_result's content: a string, or text blocks (images and others named). */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  return content
    .map((block: unknown) => {
      if (!isJsonObject(block)) return String(block);
      if (block['type'] === 'text' && typeof block['text'] === 'string') return block['text'];
      return `[${typeof block['type'] === 'string' ? block['type'] : 'block'}]`;
    })
    .join('\n');
}

/**
 * A call completed by its tool_result. Claude Code writes no exit code: a shell command that
 * succeeded is exit 0, a failure says `Exit code N`, and a timeout or an interruption has none.
 */
export function completeCall(
  call: ToolCallRecord,
  block: ContentBlock,
  toolUseResult: unknown,
  endedAt: number | null,
  sessionId: string,
): ToolCallRecord {
  const output = resultText(block.content);
  const isError = block.is_error === true;
  // An object on success; usually a plain error string on failure.
  const sidecar = isJsonObject(toolUseResult) ? toolUseResult : null;
  const shell = SHELL_TOOLS.has(call.tool);
  const timedOut =
    shell &&
    (TIMED_OUT.some((pattern) => pattern.test(output)) ||
      sidecar?.['interrupted'] === true ||
      typeof sidecar?.['timedOutAfterMs'] === 'number');
  const exitMatch = shell && isError ? EXIT_CODE.exec(output) : null;
  const background = shell && (BACKGROUND.test(output) || typeof sidecar?.['backgroundTaskId'] === 'string');
  let exitCode: number | null = null;
  if (shell && !timedOut) {
    if (exitMatch) exitCode = Number(exitMatch[1]);
    else if (!isError && !background) exitCode = 0;
  }
  // A command that ran to an exit (any code) or was killed completed as a tool call, as in opencode.
  const status = isError && !exitMatch && !timedOut ? 'error' : 'completed';
  const agentId = typeof sidecar?.['agentId'] === 'string' ? sidecar['agentId'] : null;
  // The exit code has its column: the output is what the command printed.
  const printed = exitMatch ? output.slice(exitMatch[0].length).replace(/^\r?\n/, '') : output;
  const kept = keptOutput(printed, sidecar);
  return {
    ...call,
    status,
    output: kept.output,
    endedAt,
    durationMs: elapsed(call.startedAt, endedAt),
    exitCode,
    timedOut,
    truncated: kept.truncated,
    extra: extraJson({
      ...extraOf(call),
      result: smallFields(sidecar),
      childSessionId: agentId ? `${sessionId}:${agentId}` : null,
      persistedOutput: kept.restoredFrom,
      persistedFile: kept.waitsForFile,
    }),
  };
}

interface KeptOutput {
  output: string;
  truncated: boolean;
  /** Where the whole of a persisted output came from (`toolUseResult`), if it did. */
  restoredFrom: string | null;
  /** The `tool-results/` file that may hold the whole output, read by the source (persisted-output.ts). */
  waitsForFile: string | null;
}

/** The output to keep: the whole of a persisted output when the line holds it, else the preview. */
function keptOutput(printed: string, sidecar: Record<string, unknown> | null): KeptOutput {
  const persistedPath = typeof sidecar?.['persistedOutputPath'] === 'string' ? sidecar['persistedOutputPath'] : null;
  const persisted = persistedOutputOf(printed, persistedPath);
  if (!persisted) return { output: printed, truncated: false, restoredFrom: null, waitsForFile: null };
  const whole = wholeOutputInLine(sidecar, persisted.preview);
  if (whole !== null) return { output: whole, truncated: false, restoredFrom: 'toolUseResult', waitsForFile: null };
  return { output: printed, truncated: true, restoredFrom: null, waitsForFile: persisted.fileName };
}
