import { numberCommands, parseCommandLine, type ParsedCommand } from '../../query/shell/index.js';
import { parseSsh } from '../../query/shell/remote.js';
import type { RecordedAction, RecordedCall } from './recorded.js';

/**
 * A tool call cut into what ran on each host. `ssh h 'a'` is one segment on h running `a`;
 * `sleep 10; ssh h 'a'` too (the local sleep only waited); `ssh w 'x' && ssh h 'y'` is two, one per
 * host, in order. A line that does real work here and there stays one local segment, whole. A
 * `DOCKER_HOST=ssh://u@h` command drives h's engine from here: it becomes a segment on h without
 * the setting, so a replay runs it on the host it is given, never on the recorded address. Pure.
 */

export interface Segment {
  call: RecordedCall;
  /** Position in the call, for ids and explanations. */
  index: number;
  /** The recorded target, or null for where the agent ran. */
  host: string | null;
  user: string | null;
  /** The text the host's shell ran. */
  command: string;
  /** The classifier's actions of this part of the call. */
  actions: RecordedAction[];
  /** This segment's exit is the call's (the last part, or the only one). */
  ownsExit: boolean;
  /** Ran on the agent's machine against a remote docker engine (DOCKER_HOST=ssh://…). */
  viaDockerHost: boolean;
}

const IGNORABLE = new Set(['sleep', 'echo', 'printf', 'true', ':', 'date', 'clear', 'cd', 'wait']);
const DISPLAY_FILTERS = new Set(['tail', 'head', 'grep', 'egrep', 'cat', 'jq', 'sort', 'uniq', 'wc', 'column', 'cut', 'tr', 'tee', 'less', 'more', 'sed', 'awk']);
const DOCKER_HOST = /(?:^|[\s;&(])(?:export\s+)?DOCKER_HOST=(['"]?)ssh:\/\/(?:([^@\s'"]+)@)?([A-Za-z0-9_.:-]+?)(?::\d+)?\1(?=[\s;&|)]|$)/;

/** A top-level command that only waited or printed: nothing a replay needs. */
function ignorable(command: ParsedCommand): boolean {
  if (command.redirects.some((r) => /^>/.test(r.op) && r.target !== '/dev/null' && !/^&?\d$/.test(r.target))) return false;
  if (command.pipelinePosition > 0) return DISPLAY_FILTERS.has(command.program);
  return IGNORABLE.has(command.program) && command.children.length === 0;
}

/** Seq ranges of each top-level command: its own number and all it carries. */
function ranges(top: readonly ParsedCommand[]): { command: ParsedCommand; from: number; to: number }[] {
  const seqs = numberCommands(top);
  return top.map((command, index) => {
    const next = top[index + 1];
    return { command, from: seqs.get(command) ?? 0, to: next ? (seqs.get(next) ?? Infinity) : Infinity };
  });
}

function whole(call: RecordedCall, command: string, host: string | null = null, user: string | null = null, viaDockerHost = false): Segment {
  return { call, index: 0, host, user, command, actions: call.actions, ownsExit: true, viaDockerHost };
}

/** The line without its DOCKER_HOST setting (`export DOCKER_HOST=…;` or a `DOCKER_HOST=… ` prefix). */
function withoutDockerHost(command: string): string {
  return command
    .replace(/(^|[\s;&(])export\s+DOCKER_HOST=\S+\s*(?:;|&&|\n)\s*/g, '$1')
    .replace(/(^|[\s;&(])DOCKER_HOST=\S+\s+/g, '$1')
    .trim();
}

/** A here-document delimiter that no line of `body` is. */
export function delimiterFor(body: string, base = 'RETRACE_EOF'): string {
  const lines = new Set(body.split('\n'));
  let delimiter = base;
  for (let n = 2; lines.has(delimiter); n += 1) delimiter = `${base}_${n}`;
  return delimiter;
}

/**
 * What the remote shell ran: ssh's words joined, a script fed on stdin to a remote shell, or a
 * command with the local here-document it read (written back as one, quoted, so it stays literal).
 */
function remotePayload(words: readonly string[], stdin: string | null): string | null {
  const shell = words.length === 0 || (/^(?:bash|sh|zsh|dash)$/.test(words[0] ?? '') && words.slice(1).every((w) => w.startsWith('-') && !w.includes('c')));
  if (stdin !== null && shell) return stdin;
  if (words.length === 0) return null;
  const command = words.join(' ');
  if (stdin === null) return command;
  const delimiter = delimiterFor(stdin);
  return `${command} <<'${delimiter}'\n${stdin}\n${delimiter}`;
}

export function segmentsOf(call: RecordedCall): Segment[] {
  const text = call.command;
  if (text === null) return [];
  const dockerHost = DOCKER_HOST.exec(text);
  if (dockerHost?.[3]) return [whole(call, withoutDockerHost(text), dockerHost[3], dockerHost[2] ?? null, true)];
  const top = parseCommandLine(text);
  const parts = ranges(top);
  const remote = parts.filter(({ command }) => command.program === 'ssh' && command.carrier === 'ssh');
  const rest = parts.filter((part) => !remote.includes(part));
  if (remote.length === 0 || !rest.every(({ command }) => ignorable(command))) return [whole(call, text)];
  const segments: Segment[] = [];
  for (const [index, { command, from, to }] of remote.entries()) {
    const target = parseSsh(command.argv);
    // A host written as a variable (`ssh $h …` in a loop) is not one host: the line stays whole.
    const payload = target ? remotePayload(target.command, command.stdin) : null;
    if (!target || payload === null || /[$`]/.test(target.host)) return [whole(call, text)];
    segments.push({
      call,
      index,
      host: target.host,
      user: target.user,
      command: payload,
      actions: call.actions.filter((action) => action.commandSeq === null ? remote.length === 1 : action.commandSeq >= from && action.commandSeq < to),
      ownsExit: index === remote.length - 1,
      viaDockerHost: false,
    });
  }
  return segments;
}
