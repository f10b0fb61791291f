import { ownString } from '../../core/own-string.js';
import { commandText, flattenCommands, numberCommands, parseTopCommandLine, type CommandRow, type ParsedCommand } from '../shell/index.js';
import { SessionState } from './session-state.js';
import { classifyCommands, classifyTool } from './classify-call.js';
import { refusedByUser } from './refused.js';
import { ContainerMap } from './containers.js';
import { extractFacts, type VersionFact } from './facts.js';
import { fallbackEchoes, ownOutput, type FallbackEcho } from './fallbacks.js';
import type { ActionKind, Outcome } from './kinds.js';
import { imageDisplayName, packageName } from './names.js';
import { decideOutcome, evidenceLines, readBytes, readHealth } from './outcome.js';
import { missingPlatform } from './platforms.js';
import { scanSignatures, type SignatureHit } from './signatures.js';
import type { RuleMatch, SubjectKind } from './view.js';

/**
 * A session's tool calls → its `commands` rows and `actions`, in order. Sequential because
 * meaning accumulates: a container started by `docker run --name X IMAGE` (or listed by
 * `docker ps`) tells what image a later `docker exec X …` probes; a `write_stdin` poll finishes the
 * command an earlier call left running.
 */
export interface CallRecord {
  callId: string;
  messageOrdinal: number;
  tool: string;
  status: string | null;
  input: string;
  command: string | null;
  output: string | null;
  startedAt: number | null;
  durationMs: number | null;
  exitCode: number | null;
  timedOut: boolean;
}

export interface CommandRecord extends CommandRow {
  callId: string;
  messageOrdinal: number;
}

export interface ActionRecord {
  seq: number;
  callId: string;
  messageOrdinal: number;
  commandSeq: number | null;
  tool: string;
  kind: ActionKind;
  rule: string;
  subject: string | null;
  subjectKind: SubjectKind | null;
  image: string | null;
  model: string | null;
  service: string | null;
  container: string | null;
  framework: string | null;
  config: string | null;
  packages: string[];
  host: string | null;
  user: string | null;
  port: number | null;
  targetHost: string | null;
  startedAt: number | null;
  durationMs: number | null;
  exitCode: number | null;
  timedOut: boolean;
  background: boolean;
  outcome: Outcome;
  hits: SignatureHit[];
  facts: VersionFact[];
  evidence: string[];
  /** For health checks: what the response showed (`health 200`, `model listed: X`, `completion answered "391"`). */
  reading: string | null;
  command: string;
  bytes: number | null;
  /** The call this one finishes (a `write_stdin` poll of a command left running). */
  continues: string | null;
  /** Left running and finished by a later call, which carries the result. */
  superseded: boolean;
  /** The virtualenv the command ran from (not stored: the tree reads it to tie a probe to what was installed there). */
  envRoot?: string | null;
  /** For an image committed from a container: the image that container ran (not stored). */
  derivedFrom?: string | null;
  /** For a model created from another (`ollama create NAME` with `FROM base`): the base (not stored). */
  baseModel?: string | null;
  /** A launch's or build's options beyond its shape (`--max-model-len 16384`), as typed (not stored: the tree reads it to tell approaches apart). */
  options?: string | null;
  /** A build step's program (`trtllm-build`, `quantize.py`), not stored. */
  step?: string | null;
  /** The host a remote docker engine runs on (`DOCKER_HOST=ssh://…`): where its containers listen (not stored). */
  dockerHost?: string | null;
  /** The log file a launch writes (`> ~/vllm.log`, `| tee srv.log`) or a read reads (`tail -n 50 ~/vllm.log`) (not stored). */
  logFile?: string | null;
}

export interface ClassifiedSession {
  commands: CommandRecord[];
  actions: ActionRecord[];
}

const FACT_KINDS: ReadonlySet<ActionKind> = new Set(['probe', 'serve', 'start', 'cluster', 'inspect', 'health']);
const CONTINUATION_TOOL = /^(?:write_stdin|send_input|read_output|poll|bash_output|BashOutput)$/;
const RUNNING = /Process running with session ID (\d+)/;

function continuationTarget(call: CallRecord): string | null {
  if (!CONTINUATION_TOOL.test(call.tool)) return null;
  const match = /"session_id"\s*:\s*"?(\w+)|"(?:bash_id|shell_id)"\s*:\s*"(\w+)"/.exec(call.input);
  return match ? ((match[1] ?? match[2]) as string) : null;
}

/** Installers of programs a session may launch (not a system package manager: `apt install nginx` is no stack). */
const PACKAGE_MANAGER = /^(?:\S*\/)?(?:pip[\d.]*|uv|pipx|conda|mamba|micromamba|cargo|npm|pnpm|python[\d.]*)\s/;

const RELEASE_ASSET = /https:\/\/github\.com\/[\w.-]+\/([\w.-]+)\/releases\/download\/([\w.+-]+)\/([\w.+-]+)/;
/** Where an asset's name stops naming the program: its platform or version (`-linux-x86_64`, `-v0.9.3`, `_amd64`). */
const ASSET_PLATFORM = /[-_.](?:linux|darwin|macos|apple|windows|win64|x86_64|x64|amd64|arm64|aarch64|v?\d)/i;

/**
 * Classifies a session's calls one at a time, in order, so a caller can feed them page by page
 * and let each output go once it is read.
 */
export class SessionClassifier {
  private readonly commands: CommandRecord[] = [];
  private readonly actions: ActionRecord[] = [];
  private readonly containers = new ContainerMap();
  private readonly running = new Map<string, { call: CallRecord; actions: ActionRecord[] }>();
  private readonly state = new SessionState();

  add(call: CallRecord): void {
    const target = continuationTarget(call);
    const resumed = target ? this.running.get(target) : undefined;
    if (resumed) {
      for (const earlier of resumed.actions) {
        earlier.superseded = true;
        const finished = this.emit(call, { ...earlier, kind: earlier.kind, rule: earlier.rule }, earlier, { commandSeq: null, command: earlier.command, ownsExit: true, background: false });
        finished.continues = resumed.call.callId;
        finished.startedAt = resumed.call.startedAt ?? call.startedAt;
        finished.durationMs = (resumed.call.durationMs ?? 0) + (call.durationMs ?? 0);
        finished.port = earlier.port;
        finished.targetHost = earlier.targetHost;
        finished.envRoot = earlier.envRoot ?? null;
        finished.derivedFrom = earlier.derivedFrom ?? null;
        finished.baseModel = earlier.baseModel ?? null;
        finished.dockerHost = earlier.dockerHost ?? null;
        finished.logFile = earlier.logFile ?? null;
      }
      return;
    }
    if (call.command === null || call.command.trim() === '') {
      this.state.observeTool(call.tool, call.input, call.output);
      const match = classifyTool(call.tool, call.input);
      if (match) this.emit(call, match, { host: null, user: null, container: null, image: null }, { commandSeq: null, command: match.subject ?? call.tool, ownsExit: true, background: false });
      return;
    }
    // A command the user refused to run did nothing: no step of a candidate, no pull tried.
    if (refusedByUser(call.output)) return;
    const parsed = parseTopCommandLine(call.command);
    const seqOf = numberCommands(parsed);
    // Added to the row, not spread into a copy: V8 gave each spread copy a hidden class of its own (~0.5 KB a command).
    for (const row of flattenCommands(parsed)) this.commands.push(Object.assign(row, { callId: call.callId, messageOrdinal: call.messageOrdinal }));
    const flat = flattenParsed(parsed);
    this.state.observeCommands(flat, call.command, call.output, flat.find((c) => c.place.host)?.place.host ?? null);
    const classified = classifyCommands(parsed, call.tool, call.input, this.state.context);
    // Containers started by this call are known to its own later commands (`docker run -d --name x … && docker exec x …`).
    this.containers.learn(classified, { output: null });
    const emitted: ActionRecord[] = [];
    const hidden = hiddenExits(parsed);
    const echoes = fallbackEchoes(parsed);
    const logs = logFiles(parsed);
    classified.forEach(({ command, match, place }, index) => {
      const last = index === classified.length - 1;
      // A zero from a pipeline's filter, a `|| true` or a `; echo done` says nothing of this command.
      const exitHidden = hidden.has(command) && call.exitCode === 0;
      const background = command.background || Boolean(command.dockerRun?.detached) || command.children.some((c) => c.background);
      const action = this.emit(call, match, place, {
        commandSeq: seqOf.get(command) ?? null,
        command: displayText(command.argv),
        ownsExit: (last || command.connector === '||') && !exitHidden,
        // A server run in the foreground whose call came back (`docker run --rm IMAGE … | tail -n 40`) is no longer running.
        serverReturned: exitHidden && match.rule === 'container-serve' && !background && !call.timedOut,
        exitHidden,
        echoes: echoes.get(command) ?? [],
        writeOut: curlWriteOut(command.argv),
        background,
      });
      this.state.annotate(action, command, this.containers);
      action.logFile = logs.get(command) ?? null;
      emitted.push(action);
    });
    this.containers.learn(classified, call);
    this.learnInstalls(emitted);
    const stillRunning = call.output ? RUNNING.exec(call.output) : null;
    if (stillRunning && emitted.length > 0) {
      for (const action of emitted) action.outcome = 'unknown';
      this.running.set(stillRunning[1] as string, { call, actions: emitted });
    }
  }

  /** Packages of no known framework installed with a language's package manager: their programs may be launched as a server next. */
  private learnInstalls(actions: readonly ActionRecord[]): void {
    for (const action of actions) {
      // A release binary downloaded from GitHub (`…/releases/download/v0.9.3/zserve-linux-x86_64.tar.gz`): its program is the asset's or the repository's name.
      const release = RELEASE_ASSET.exec(action.command);
      if (release) {
        const [, repository, tag, asset] = release as unknown as [string, string, string, string];
        const spec = `${repository}@${tag}`;
        this.state.context.packageInstalled(repository, spec);
        const program = asset.split(ASSET_PLATFORM)[0]?.replace(/\.(?:tar\.\w+|tgz|zip|gz|xz|exe)$/, '');
        if (program) this.state.context.packageInstalled(program, spec);
      }
      if (action.rule !== 'package-install' || action.framework !== null || action.outcome === 'failed' || !PACKAGE_MANAGER.test(action.command)) continue;
      for (const spec of action.packages) {
        // An npm scope (`@acme/llm-gateway@1.2`) names no program: the package's own name does.
        const unscoped = spec.replace(/^@[\w.-]+\//, '');
        if (/^[A-Za-z0-9]/.test(unscoped) && !unscoped.includes('/')) this.state.context.packageInstalled(packageName(unscoped.replace(/@[^@]*$/, '')), spec);
      }
    }
  }

  result(): ClassifiedSession {
    return { commands: this.commands, actions: this.actions };
  }

  private emit(call: CallRecord, match: RuleMatch, place: { host: string | null; user: string | null; container: string | null; image: string | null }, extra: {
    commandSeq: number | null; command: string; ownsExit: boolean; background: boolean; writeOut?: string | null; serverReturned?: boolean; exitHidden?: boolean; echoes?: readonly FallbackEcho[];
  }): ActionRecord {
    // Kept until the session's tree is built: lines of their own, not views of the whole output (the evidence lines are cut from these).
    const hits = scanSignatures(call.output, match.kind).map((hit) => ({ ...hit, label: ownString(hit.label), line: ownString(hit.line) }));
    // A registry's manifest read for a host it offers nothing for (`docker manifest inspect` listing amd64 on an arm64 box).
    const unfit = match.rule === 'registry-listing' && match.image ? missingPlatform(call.output, this.state.architectureOf(place.host)) : null;
    if (unfit) hits.push(unfit);
    const facts = FACT_KINDS.has(match.kind) ? extractFacts(call.output).map((fact) => ({ ...fact, version: ownString(fact.version), line: ownString(fact.line) })) : [];
    const writeOut = extra.writeOut ?? null;
    // A check's answer is what it printed, not the text of the `|| echo down` after it (which says it failed).
    const own = match.kind === 'health' ? ownOutput(call.output, extra.echoes ?? []) : null;
    const read = !own ? null : own.failed !== null ? { ok: false, label: `check failed (its fallback printed "${own.failed}")`, line: own.failed } : readHealth(own.output, writeOut);
    const health = read ? { ...read, label: ownString(read.label), line: ownString(read.line) } : null;
    const image = match.image ?? place.image ?? (place.container ? this.containers.imageOf(place.host, place.container) : null);
    const action: ActionRecord = {
      seq: this.actions.length,
      callId: call.callId,
      messageOrdinal: call.messageOrdinal,
      commandSeq: extra.commandSeq,
      tool: call.tool,
      kind: match.kind,
      rule: match.rule,
      subject: match.subjectKind === 'container' && image && (match.kind === 'probe' || match.kind === 'serve') ? imageDisplayName(image) : match.subject,
      subjectKind: match.subjectKind === 'container' && image && (match.kind === 'probe' || match.kind === 'serve') ? 'image' : match.subjectKind,
      image,
      model: match.model ?? null,
      service: match.service ?? null,
      container: place.container ?? (match.subjectKind === 'container' ? match.subject : null),
      framework: match.framework ?? null,
      config: match.config ?? null,
      options: match.options ?? null,
      step: match.step ?? null,
      packages: match.packages ?? [],
      host: place.host,
      user: place.user,
      port: match.port ?? null,
      targetHost: match.targetHost ?? null,
      startedAt: call.startedAt,
      durationMs: call.durationMs,
      exitCode: call.exitCode,
      timedOut: call.timedOut,
      background: extra.background,
      outcome: decideOutcome(match.kind, { exitCode: call.exitCode, timedOut: call.timedOut, status: call.status, output: own ? own.output : call.output, ownsExit: extra.ownsExit, background: extra.background, serverReturned: extra.serverReturned ?? false, exitHidden: extra.exitHidden ?? false, fallbackRan: (own?.failed ?? null) !== null, followerRan: own?.succeeded ?? false }, hits, writeOut),
      hits,
      facts,
      evidence: evidenceLines(hits, facts, health),
      reading: health?.label ?? null,
      command: extra.command,
      bytes: match.kind === 'download' || match.kind === 'pull' ? readBytes(call.output) : null,
      continues: null,
      superseded: false,
    };
    this.actions.push(action);
    return action;
  }
}

/**
 * The commands whose exit status the call's does not carry: one piped into a later stage (the
 * pipeline's status is its last command's), or followed at its level by a command not joined with
 * `&&` (`cmd || true`, `cmd; echo done`), and everything such a command carries.
 */
function hiddenExits(commands: readonly ParsedCommand[], inherited = false, found = new Set<ParsedCommand>()): Set<ParsedCommand> {
  commands.forEach((command, index) => {
    const hidden = inherited || commands.slice(index + 1).some((later) => later.connector !== '&&');
    if (hidden) found.add(command);
    const carried = command.children.filter((child) => child.via !== 'substitution');
    hiddenExits(carried, hidden, found);
    hiddenExits(command.children.filter((child) => child.via === 'substitution'), true, found);
  });
  return found;
}

const LOG_READERS = new Set(['tail', 'cat', 'head', 'less', 'grep', 'egrep', 'rg']);

/**
 * The log file each command writes or reads: a launch's stdout redirected to a file (`> ~/vllm.log 2>&1`)
 * or piped through `tee FILE`, and a reader's file (`tail -n 40 ~/vllm.log`, `grep -i error srv.log`).
 * Carried commands write where their carrier does.
 */
function logFiles(commands: readonly ParsedCommand[], inherited: string | null = null, found = new Map<ParsedCommand, string>()): Map<ParsedCommand, string> {
  commands.forEach((command, index) => {
    const redirected = command.redirects.find((r) => /^(?:\d?>>?|&>>?)$/.test(r.op) && r.op !== '2>' && r.op !== '2>>' && r.target !== '' && !r.target.startsWith('/dev/'))?.target;
    const teed = commands.slice(index + 1).find((later, offset) => later.program === 'tee' && commands.slice(index + 1, index + 2 + offset).every((c) => c.connector === '|'));
    const teeFile = teed?.argv.slice(1).find((a) => !a.startsWith('-')) ?? null;
    const positionals = command.argv.slice(1).filter((a) => !a.startsWith('-') && !/^\d+$/.test(a));
    const read = LOG_READERS.has(command.program) && command.pipelinePosition === 0 && positionals.length > (command.program === 'grep' || command.program === 'egrep' || command.program === 'rg' ? 1 : 0) ? positionals.at(-1) ?? null : null;
    const file = redirected ?? teeFile ?? read ?? inherited;
    if (file) found.set(command, file);
    logFiles(command.children.filter((child) => child.via !== 'substitution'), redirected ?? teeFile ?? inherited, found);
  });
  return found;
}

function flattenParsed(commands: readonly ParsedCommand[]): ParsedCommand[] {
  return commands.flatMap((command) => [command, ...flattenParsed(command.children)]);
}

export function classifySession(calls: readonly CallRecord[]): ClassifiedSession {
  const classifier = new SessionClassifier();
  for (const call of calls) classifier.add(call);
  return classifier.result();
}

/** The format of `curl -w FORMAT` (`--write-out`, `-wFORMAT`): where in the output curl printed the status code. */
function curlWriteOut(argv: readonly string[]): string | null {
  if (!/(?:^|\/)curl$/.test(argv[0] ?? '')) return null;
  for (const [index, arg] of argv.entries()) {
    if (arg === '-w' || arg === '--write-out') return argv[index + 1] ?? null;
    if (arg.startsWith('--write-out=')) return arg.slice('--write-out='.length);
    if (/^-w./.test(arg)) return arg.slice(2);
  }
  return null;
}

function displayText(argv: readonly string[]): string {
  const text = commandText(argv);
  return text.length > 400 ? `${text.slice(0, 399)}…` : text;
}
