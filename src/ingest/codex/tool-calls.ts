import { basename } from 'node:path';
import { quote } from 'shell-quote';
import { isJsonObject } from '../jsonl/parse-line.js';
import { extraJson, extraOf, issuedCall } from '../jsonl/values.js';
import type { ToolCallRecord } from '../../core/model.js';
import { isTimeoutBody, outputText, parseExecOutput } from './exec-output.js';
import { impliedProcessStart, processRunTime, runTime, type ExecEndFacts } from './run-time.js';
import { parseJson } from '../../core/json-depth.js';

const SHELL_PROGRAMS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh']);
/** Outputs Codex writes when the call itself failed rather than the command. */
const CALL_FAILED = /^(failed to parse function arguments|exec command rejected|execution error|sandbox error|unsupported call|unknown tool|write_stdin failed|exec_command failed|unsupported unified exec function)/i;

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

/**
 * A call answered by its output: exit code, run time, timeout and truncation from its style, and
 * from the `exec_command_end` event of the same call where the output does not say them.
 */
export function completeCall(call: ToolCallRecord, rawOutput: unknown, at: number | null, end: ExecEndFacts | null = null): CompletedCall {
  const text = outputText(rawOutput);
  const parsed = parseExecOutput(text);
  const facts = resultFacts(call.tool, text);
  const body = parsed.body === '' && end?.output ? end.output : parsed.body;
  // A poll that finds its process still running took its own wall time (the wait it asked for).
  const time = runTime(call, at, end?.durationMs ?? parsed.wallTimeMs);
  return {
    runningSession: parsed.runningSession,
    call: {
      ...call,
      status: CALL_FAILED.test(text) || end?.status === 'declined' ? 'error' : 'completed',
      output: body,
      endedAt: at,
      durationMs: time.durationMs,
      exitCode: parsed.exitCode ?? end?.exitCode ?? null,
      timedOut: parsed.timedOut || isTimeoutBody(body) || facts.timedOut === true,
      truncated: parsed.truncated,
      extra: mergeExtra(call, {
        outputStyle: parsed.style,
        wallTimeMs: parsed.wallTimeMs,
        unifiedSession: parsed.runningSession,
        childSessionId: facts.childSessionId,
        shellCommand: parsed.shellCommand,
        approvalWaitMs: time.approvalWaitMs,
        endEvent: end ? true : undefined,
      }),
    },
  };
}

/** A command whose first output says it is still running: no end yet; when its process started. */
export function stillRunning(call: ToolCallRecord): ToolCallRecord {
  const wall = extraOf(call)['wallTimeMs'];
  const started = impliedProcessStart(call.endedAt, typeof wall === 'number' ? wall : null);
  return { ...call, status: 'running', endedAt: null, durationMs: null, extra: mergeExtra(call, { processStartedAt: started }) };
}

/**
 * An `exec_command` that was still running, finished by a later `write_stdin` poll: it takes the
 * poll's exit code, end time and output; the poll keeps the exit code only in its `extra`, so a
 * command's failure is counted once.
 */
export function finishRunningCommand(command: ToolCallRecord, poll: ToolCallRecord, exitCode: number | null, end: ExecEndFacts | null = null): ToolCallRecord {
  const output = [command.output ?? '', poll.output ?? ''].filter((part) => part.length > 0).join('\n');
  return {
    ...command,
    status: 'completed',
    output,
    endedAt: poll.endedAt,
    durationMs: processRunTime(command, poll.endedAt, [poll], end?.durationMs ?? null),
    exitCode: exitCode ?? end?.exitCode ?? null,
    timedOut: poll.timedOut,
    truncated: command.truncated || poll.truncated,
    extra: mergeExtra(command, { completedBy: poll.callId, endEvent: end ? true : undefined }),
  };
}

/** A running `exec_command` whose `exec_command_end` arrived before any poll said it exited. */
export function finishFromEnd(command: ToolCallRecord, end: ExecEndFacts): ToolCallRecord {
  const output = end.output !== null && end.output.length > (command.output ?? '').length ? end.output : (command.output ?? '');
  return {
    ...command,
    status: end.status === 'declined' ? 'error' : 'completed',
    output,
    endedAt: end.at,
    durationMs: processRunTime(command, end.at, [], end.durationMs),
    exitCode: end.exitCode,
    timedOut: command.timedOut || isTimeoutBody(output),
    extra: mergeExtra(command, { endEvent: true }),
  };
}

/** An answered call whose `exec_command_end` came after its output: fills what the output lacked. */
export function mergeEnd(call: ToolCallRecord, end: ExecEndFacts): ToolCallRecord {
  const output = call.output === null || call.output === '' ? (end.output ?? call.output) : call.output;
  return {
    ...call,
    output,
    exitCode: call.exitCode ?? end.exitCode,
    durationMs: end.durationMs ?? call.durationMs,
    timedOut: call.timedOut || isTimeoutBody(output ?? ''),
    extra: mergeExtra(call, { endEvent: true }),
  };
}

export function asPoll(poll: ToolCallRecord, completes: string | null, exitCode: number | null): ToolCallRecord {
  return { ...poll, exitCode: null, extra: mergeExtra(poll, { completes, processExitCode: exitCode }) };
}
