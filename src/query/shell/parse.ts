import { quote } from 'shell-quote';
import { splitScript } from './lines.js';
import { unrollForLoops } from './loops.js';
import { parseDockerExec, parseDockerRun, parseKubectlExec, parseSsh } from './remote.js';
import { parseTokens, type ListNode } from './structure.js';
import { tokenize } from './tokens.js';
import type { CommandRow, ParsedCommand, Place, Via } from './types.js';
import { basename, peelWrappers } from './wrappers.js';

/**
 * A tool call's command line → the commands it runs, with what carried them: ssh (host and user
 * recorded), `bash -lc '…'`, `docker run IMAGE CMD`, `docker exec CONTAINER CMD`, here-documents
 * and `$( … )`. Pure and total: any text parses to something, never an exception.
 */

export const NOWHERE: Place = { host: null, user: null, port: null, container: null, image: null };

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ash', 'ksh']);
const CONTAINER_ENGINES = new Set(['docker', 'podman', 'nerdctl']);
const MAX_DEPTH = 8;

interface Position {
  connector: string | null;
  pipelinePosition: number;
  background: boolean;
}

const FIRST: Position = { connector: null, pipelinePosition: 0, background: false };

function shellScriptArgument(argv: readonly string[]): string | null {
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') return null;
    if (!arg.startsWith('-')) return null;
    if (!arg.startsWith('--') && arg.slice(1).includes('c')) return argv[i + 1] ?? null;
    if (arg === '--command') return argv[i + 1] ?? null;
  }
  return null;
}

/** Options of tmux's session and window commands, and of screen, that take a value (the rest is the command). */
const TMUX_VALUE_OPTIONS = new Set(['-s', '-n', '-c', '-t', '-x', '-y', '-e', '-F', '-f', '-L', '-S']);
const SCREEN_VALUE_OPTIONS = new Set(['-S', '-L', '-Logfile', '-c', '-e', '-h', '-p', '-s', '-t', '-T']);

/**
 * The command a terminal multiplexer starts detached, which keeps running after the call:
 * `tmux new -d -s srv 'python main.py'`, `tmux send-keys -t srv 'vllm serve M' Enter`,
 * `screen -dmS srv vllm serve M`. Null when the command starts nothing (`tmux ls`, `screen -r`).
 */
function sessionScript(argv: readonly string[]): string | null {
  const program = basename(argv[0] ?? '');
  let i: number;
  const values = program === 'tmux' ? TMUX_VALUE_OPTIONS : program === 'screen' ? SCREEN_VALUE_OPTIONS : null;
  if (values === null) return null;
  if (program === 'tmux') {
    const verb = argv[1] ?? '';
    if (!/^(?:new|new-session|neww|new-window|send-keys|send)$/.test(verb)) return null;
    i = 2;
  } else {
    // screen starts a command only with -dm / -Dm (detached); `screen -r`, `screen -ls` attach or list.
    if (!argv.slice(1).some((a) => /^-[dD]m/.test(a) || a === '-m')) return null;
    i = 1;
  }
  // Short flags run together take a value when the last one does (`screen -dmS srv`).
  const takesValue = (arg: string): boolean => values.has(arg) || (/^-[A-Za-z]{2,}$/.test(arg) && values.has(`-${arg.at(-1) as string}`));
  while (i < argv.length && (argv[i] as string).startsWith('-')) i += takesValue(argv[i] as string) ? 2 : 1;
  let rest = argv.slice(i);
  // send-keys ends with the key that runs the line.
  if (program === 'tmux' && /^send/.test(argv[1] ?? '')) rest = rest.filter((key) => !/^(?:Enter|C-m|KPEnter)$/.test(key));
  if (rest.length === 0) return null;
  return rest.length === 1 ? (rest[0] as string) : quote(rest);
}

function readsScriptFromStdin(argv: readonly string[]): boolean {
  return argv.slice(1).every((arg) => arg.startsWith('-') && !arg.slice(1).includes('c'));
}

function pythonBody(argv: readonly string[], stdin: string | null): string | null {
  if (!/^python[\d.]*$/.test(basename(argv[0] ?? ''))) return null;
  const c = argv.indexOf('-c');
  if (c !== -1) return argv[c + 1] ?? null;
  if (stdin !== null && (argv.length === 1 || argv.includes('-'))) return stdin;
  return null;
}

function fromWords(
  words: readonly string[],
  substitutions: readonly string[],
  redirects: { op: string; target: string }[],
  stdin: string | null,
  place: Place,
  via: Via,
  depth: number,
  position: Position,
): ParsedCommand {
  const peeled = peelWrappers(words);
  const argv = peeled.argv;
  const program = basename(argv[0] ?? '');
  const command: ParsedCommand = {
    argv,
    program,
    env: peeled.env,
    sudo: peeled.sudo,
    wrappers: peeled.wrappers,
    via,
    place,
    connector: position.connector,
    pipelinePosition: position.pipelinePosition,
    background: position.background || peeled.wrappers.includes('nohup'),
    redirects,
    stdin,
    pythonBody: pythonBody(argv, stdin),
    dockerRun: null,
    carrier: null,
    children: [],
  };
  if (depth >= MAX_DEPTH) return command;
  for (const script of substitutions) command.children.push(...parseScript(script, place, 'substitution', depth + 1));
  const nested = (script: string, at: Place, how: Via): void => {
    command.children.push(...parseScript(script, at, how, depth + 1));
  };
  if (program === 'ssh') {
    const target = parseSsh(argv);
    if (target) {
      const remote: Place = { host: target.host, user: target.user, port: target.port, container: null, image: null };
      command.place = { ...place, host: target.host, user: target.user, port: target.port };
      command.carrier = 'ssh';
      const remoteArgv = target.command;
      const remoteIsShell = remoteArgv.length === 0 || (SHELLS.has(basename(remoteArgv[0] as string)) && readsScriptFromStdin(remoteArgv));
      if (stdin !== null && remoteIsShell) nested(stdin, remote, 'heredoc');
      else if (remoteArgv.length > 0) nested(remoteArgv.join(' '), remote, 'ssh');
    }
    return command;
  }
  if (SHELLS.has(program)) {
    const script = shellScriptArgument(argv);
    if (script !== null) {
      command.carrier = 'shell';
      nested(script, place, 'sh -c');
    } else if (stdin !== null && readsScriptFromStdin(argv)) {
      command.carrier = 'shell';
      nested(stdin, place, 'heredoc');
    }
    return command;
  }
  const session = sessionScript(argv);
  if (session !== null) {
    command.carrier = 'shell';
    command.background = true;
    const inner = parseScript(session, place, 'sh -c', depth + 1);
    for (const child of inner) child.background = true;
    command.children.push(...inner);
    return command;
  }
  if (CONTAINER_ENGINES.has(program)) {
    const sub = argv[1] === 'container' ? 2 : 1;
    if (argv[sub] === 'run' || argv[sub] === 'create') {
      const run = parseDockerRun(argv, sub + 1);
      command.dockerRun = run;
      if (run) {
        command.carrier = 'docker run';
        const inner = run.entrypoint ? [run.entrypoint, ...run.command] : run.command;
        const at: Place = { ...place, container: run.name, image: run.image };
        if (inner.length > 0) command.children.push(fromWords(inner, [], [], null, at, 'docker run', depth + 1, FIRST));
      }
    } else if (argv[sub] === 'exec') {
      const exec = parseDockerExec(argv, sub + 1);
      if (exec && exec.command.length > 0) {
        command.carrier = 'docker exec';
        const at: Place = { ...place, container: exec.container, image: null };
        command.children.push(fromWords(exec.command, [], [], null, at, 'docker exec', depth + 1, { ...FIRST, background: exec.detached }));
      }
    }
    return command;
  }
  if (program === 'kubectl' && argv[1] === 'exec') {
    const exec = parseKubectlExec(argv, 2);
    if (exec) {
      command.carrier = 'kubectl exec';
      const at: Place = { ...place, container: exec.container, image: null };
      command.children.push(fromWords(exec.command, [], [], null, at, 'kubectl exec', depth + 1, FIRST));
    }
  }
  return command;
}

function walkList(list: ListNode, place: Place, via: Via, depth: number, heredocs: string[]): ParsedCommand[] {
  const commands: ParsedCommand[] = [];
  for (const item of list.items) {
    item.pipeline.commands.forEach((node, index) => {
      const position: Position = {
        connector: index === 0 ? item.connector : '|',
        pipelinePosition: index,
        background: item.background,
      };
      if (node.type === 'group') {
        const inner = walkList(node.body, place, node.subshell ? 'subshell' : 'group', depth + 1, heredocs);
        if (inner[0]) inner[0].connector = position.connector;
        commands.push(...inner);
        return;
      }
      const substitutions = node.words.flatMap((word) => word.substitutions);
      const stdin = node.redirects.some((r) => /<<-?$/.test(r.op)) ? (heredocs.shift() ?? null) : null;
      if (node.declaration) {
        for (const script of substitutions) commands.push(...parseScript(script, place, 'substitution', depth + 1));
        return;
      }
      commands.push(fromWords(node.words.map((w) => w.value), substitutions, node.redirects, stdin, place, via, depth, position));
    });
  }
  return commands;
}

function parseScript(script: string, place: Place, via: Via, depth: number): ParsedCommand[] {
  if (depth > MAX_DEPTH) return [];
  return splitScript(unrollForLoops(script)).flatMap((line) => walkList(parseTokens(tokenize(line.text)), place, via, depth, [...line.heredocs]));
}

export function parseCommandLine(text: string, place: Place = NOWHERE): ParsedCommand[] {
  return parseScript(text, place, 'shell', 0);
}

function displayWord(word: string): string {
  return /^[\w@%+=:,./~${}()-]+$/.test(word) ? word : quote([word]);
}

export function commandText(argv: readonly string[]): string {
  return argv.map(displayWord).join(' ');
}

/** Each command's position in the depth-first order of `flattenCommands` (its `seq`). */
export function numberCommands(commands: readonly ParsedCommand[]): Map<ParsedCommand, number> {
  const numbers = new Map<ParsedCommand, number>();
  const visit = (command: ParsedCommand): void => {
    numbers.set(command, numbers.size);
    for (const child of command.children) visit(child);
  };
  for (const command of commands) visit(command);
  return numbers;
}

/** Depth-first rows for the `commands` table. */
export function flattenCommands(commands: readonly ParsedCommand[]): CommandRow[] {
  const rows: CommandRow[] = [];
  const visit = (command: ParsedCommand, parentSeq: number | null, depth: number): void => {
    const seq = rows.length;
    rows.push({
      seq,
      parentSeq,
      depth,
      via: command.via,
      program: command.program,
      argv: command.argv,
      text: commandText(command.argv),
      env: command.env,
      sudo: command.sudo,
      host: command.place.host,
      user: command.place.user,
      port: command.place.port,
      container: command.place.container,
      image: command.place.image,
      connector: command.connector,
      pipelinePosition: command.pipelinePosition,
      background: command.background,
      carrier: command.carrier,
      pythonBody: command.pythonBody,
    });
    for (const child of command.children) visit(child, seq, depth + 1);
  };
  for (const command of commands) visit(command, null, 0);
  return rows;
}
