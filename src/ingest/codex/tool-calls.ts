import { basename } from 'node:path';
import { quote } from 'shell-quote';
import { isJsonObject } from '../jsonl/parse-line.js';
import { elapsed, extraJson, extraOf, issuedCall } from '../jsonl/values.js';
import type { ToolCallRecord } from '../../core/model.js';
import { outputText, parseExecOutput } from './exec-output.js';
import { parseJson } from '../../core/json-depth.js';

const SHELL_PROGRAMS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh']);
/** Outputs Codex writes when the call itself failed rather than the command. */
const CALL_FAILED = /^(failed to parse function arguments|exec command rejected|execution error|sandbox error|unsupported call|unknown tool)/i;

/** The command line of an argv: the script of `bash -lc <script>`, else the argv shell-quoted. */
export function commandOfArgv(argv: readonly string[]): string | null {
  const [program, flag, script] = argv;
  if (program === undefined) return null;
  if (argv.length === 3 && SHELL_PROGRAMS.has(basename(program)) && /^-(l?c|cl)$/.test(flag ?? '') && script !== undefined) return script;
  // Very old rollouts ran apply_patch through the shell tool: a patch, not a command line.
  if (program === 'apply_patch') return null;
  return quote([...argv]);
}

/** The command line a shell-like tool ran, under every name the shell tool has had. */
export function commandOf(tool: string, args: unknown): string | null {
  if (!isJsonObject(args)) return null;
  const { command, cmd } = args;
  if (tool === 'exec_command') return typeof cmd === 'string' ? cmd : null;
  if (tool === 'shell' || tool === 'container.exec' || tool === 'shell_command' || tool === 'local_shell') {
    if (typeof command === 'string') return command;
    if (Array.isArray(command) && command.every((part) => typeof part === 'string')) return commandOfArgv(command);
  }
  return null;
}

/** `function_call.arguments` is JSON text; a model can emit broken JSON, kept as the raw string. */
export function parseArguments(text: string | undefined): unknown {
  if (text === undefined) return {};
  try {
    return parseJson(text);
  } catch {
    return text;
  }
}

export interface CallStart {
  sessionId: string;
  messageId: string;
  callId: string;
  tool: string;
  input: unknown;
  command: string | null;
  title?: string | null;
  at: number | null;
}

export function startCall(start: CallStart): ToolCallRecord {
  return issuedCall({ ...start, input: JSON.stringify(start.input ?? {}), startedAt: start.at });
}

function mergeExtra(call: ToolCallRecord, fields: Record<string, unknown>): string | null {
  return extraJson({ ...extraOf(call), ...fields });
}

/** What a structured result says beyond exit codes: a spawned thread's id, a wait that timed out. */
function resultFacts(tool: string, text: string): { childSessionId?: string; timedOut?: boolean } {
  if (tool !== 'spawn_agent' && tool !== 'wait_agent' && tool !== 'wait') return {};
  const plainId = /^agent_id: (\S+)/.exec(text);
  if (plainId) return { childSessionId: plainId[1] as string };
  try {
    const value: unknown = parseJson(text);
    if (!isJsonObject(value)) return {};
    const { agent_id: agentId, timed_out: timedOut } = value;
    return {
      ...(typeof agentId === 'string' ? { childSessionId: agentId } : {}),
      ...(typeof timedOut === 'boolean' ? { timedOut } : {}),
    };
  } catch {
    return {};
  }
}

export interface CompletedCall {
  call: ToolCallRecord;
  /** Unified exec: the process still runs, reachable through this session id. */
  runningSession: number | null;
}

/** A call answered by its output: exit code, wall time, timeout and truncation from its style. */
export function completeCall(call: ToolCallRecord, rawOutput: unknown, at: number | null): CompletedCall {
  const text = outputText(rawOutput);
  const parsed = parseExecOutput(text);
  const facts = resultFacts(call.tool, text);
  return {
    runningSession: parsed.runningSession,
    call: {
      ...call,
      status: CALL_FAILED.test(text) ? 'error' : 'completed',
      output: parsed.body,
      endedAt: at,
      durationMs: elapsed(call.startedAt, at) ?? parsed.wallTimeMs,
      exitCode: parsed.exitCode,
      timedOut: parsed.timedOut || facts.timedOut === true,
      truncated: parsed.truncated,
      extra: mergeExtra(call, {
        outputStyle: parsed.style,
        wallTimeMs: parsed.wallTimeMs,
        unifiedSession: parsed.runningSession,
        childSessionId: facts.childSessionId,
      }),
    },
  };
}

/** A command whose first output says it is still running: no end yet. */
export function stillRunning(call: ToolCallRecord): ToolCallRecord {
  return { ...call, status: 'running', endedAt: null, durationMs: null };
}

/**
 * An `exec_command` that was still running, finished by a later `write_stdin` poll: it takes the
 * poll's exit code, end time and output; the poll keeps the exit code only in its `extra`, so a
 * command's failure is counted once.
 */
export function finishRunningCommand(command: ToolCallRecord, poll: ToolCallRecord, exitCode: number | null): ToolCallRecord {
  const output = [command.output ?? '', poll.output ?? ''].filter((part) => part.length > 0).join('\n');
  return {
    ...command,
    status: 'completed',
    output,
    endedAt: poll.endedAt,
    durationMs: elapsed(command.startedAt, poll.endedAt) ?? sumWallTimes(command, poll),
    exitCode,
    timedOut: poll.timedOut,
    truncated: command.truncated || poll.truncated,
    extra: mergeExtra(command, { completedBy: poll.callId }),
  };
}

function sumWallTimes(a: ToolCallRecord, b: ToolCallRecord): number | null {
  const wall = (call: ToolCallRecord): number | null => {
    const value = extraOf(call)['wallTimeMs'];
    return typeof value === 'number' ? value : null;
  };
  const [x, y] = [wall(a), wall(b)];
  return x !== null && y !== null ? x + y : null;
}

export function asPoll(poll: ToolCallRecord, completes: string | null, exitCode: number | null): ToolCallRecord {
  return { ...poll, exitCode: null, extra: mergeExtra(poll, { completes, processExitCode: exitCode }) };
}
