import type { ParsedCommand, Place } from '../shell/index.js';
import { commandText, parseCommandLine, parseDockerExec } from '../shell/index.js';
import type { ActionKind } from './kinds.js';
import { withConfigFile } from './config-file.js';
import { frameworkById } from './names.js';
import { applyRules } from './rules.js';
import type { ClassifyContext, CommandView, RuleMatch } from './view.js';

/**
 * Classifies the commands of one tool call: ssh and `bash -c` are transparent, `docker run` and
 * `docker exec` take their meaning from the command they carry, `$( … )` substitutions are
 * classified too (the health check inside `until [ "$(curl …)" = 200 ]`).
 */
export interface ClassifiedCommand {
  command: ParsedCommand;
  match: RuleMatch;
  /** Where the action happened: inside the container for `docker run` / `docker exec`. */
  place: Place;
}

function placeOf(command: ParsedCommand): Place {
  const carried = command.children.find((child) => child.via !== 'substitution');
  if (command.carrier === 'docker exec' || command.carrier === 'kubectl exec') return carried?.place ?? command.place;
  if (command.dockerRun) return { ...command.place, container: command.dockerRun.name, image: command.dockerRun.image };
  return command.place;
}

/** When a carrier holds several actions, the one that says most about the deployment speaks for it. */
const SIGNIFICANCE: readonly ActionKind[] = ['serve', 'cluster', 'probe', 'download', 'pull', 'install', 'health', 'start', 'stop', 'build', 'fetch', 'search', 'inspect', 'other'];

function mostSignificant(found: readonly ClassifiedCommand[]): RuleMatch | null {
  let best: RuleMatch | null = null;
  for (const { match } of found) {
    if (!best || SIGNIFICANCE.indexOf(match.kind) < SIGNIFICANCE.indexOf(best.kind)) best = match;
  }
  return best;
}

function viewOf(command: ParsedCommand, tool: string, input: string, inner: RuleMatch | null, cwd: string | null = null, context: ClassifyContext | null = null): CommandView {
  return {
    tool,
    input,
    program: command.program,
    argv: command.argv,
    args: command.argv.slice(1),
    text: commandText(command.argv),
    env: command.env,
    pythonBody: command.pythonBody,
    pipelinePosition: command.pipelinePosition,
    dockerRun: command.dockerRun,
    carrier: command.carrier,
    execContainer: command.carrier === 'docker exec' || command.carrier === 'kubectl exec' ? (command.children.find((c) => c.via !== 'substitution')?.place.container ?? null) : null,
    inner,
    cwd,
    context,
  };
}

/** The units `systemctl start|restart|enable --now U…` starts. */
function startedUnits(command: ParsedCommand): string[] {
  if (command.program === 'launchctl') return launchedServices(command);
  if (command.program !== 'systemctl') return [];
  const args = command.argv.slice(1).filter((a) => !a.startsWith('-'));
  const verb = args[0] ?? '';
  if (!/^(?:start|restart|reload-or-restart|try-restart)$/.test(verb) && !(verb === 'enable' && command.argv.includes('--now'))) return [];
  return args.slice(1);
}

/**
 * The launchd services a `launchctl` command starts: the property lists it loads (`bootstrap gui/501
 * ~/Library/LaunchAgents/x.plist`, `load -w x.plist`), or the label it kicks (`kickstart -k gui/501/x`
 * is `x.plist`).
 */
function launchedServices(command: ParsedCommand): string[] {
  const args = command.argv.slice(1).filter((a) => !a.startsWith('-'));
  const verb = args[0] ?? '';
  if (verb === 'bootstrap' || verb === 'load') return args.slice(1).filter((a) => a.endsWith('.plist'));
  if (verb === 'kickstart') return args.slice(1).map((a) => `${a.split('/').at(-1) as string}.plist`);
  return [];
}

/** The script a command runs: `sh FILE`, `bash FILE`, `./FILE.sh`, `~/bin/x.sh` (not `bash -c …`, nor `bash -n FILE`, which only checks it). */
function scriptRun(command: ParsedCommand): string | null {
  if (/^(?:sh|bash|zsh|dash)$/.test(command.program)) {
    const file = command.argv.slice(1).find((a) => !a.startsWith('-'));
    return file && !command.argv.slice(1).some((a) => /^-[a-z]*[cn]/.test(a)) ? file : null;
  }
  return /^(?:\.{0,2}\/|~\/)\S*\.sh$/.test(command.argv[0] ?? '') ? (command.argv[0] as string) : null;
}

/** A script's plain variables (`IMAGE=lmsysorg/sglang:v0.4.6`, at the start of a line) put in where it uses them (`$IMAGE`, `${IMAGE}`). */
function withAssignments(body: string): string {
  const values = new Map<string, string>();
  for (const m of body.matchAll(/^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"$`]*)"|'([^']*)'|([^\s"'$`;&|]*))\s*$/gm)) values.set(m[1] as string, m[2] ?? m[3] ?? m[4] ?? '');
  if (values.size === 0) return body;
  return body.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced?: string, bare?: string) => values.get((braced ?? bare) as string) ?? whole);
}

/** The directory a `docker exec -w DIR` runs its command in: where a build inside a dev container builds. */
function execWorkdir(command: ParsedCommand): string | null {
  if (command.carrier !== 'docker exec') return null;
  const sub = command.argv[1] === 'container' ? 2 : 1;
  return parseDockerExec(command.argv, sub + 1)?.workdir ?? null;
}

export function classifyCommands(commands: readonly ParsedCommand[], tool: string, input = '{}', context: ClassifyContext | null = null, startCwd: string | null = null): ClassifiedCommand[] {
  const found: ClassifiedCommand[] = [];
  let cwd: string | null = startCwd;
  const visit = (command: ParsedCommand): void => {
    const substitutions = command.children.filter((child) => child.via === 'substitution');
    const carried = command.children.filter((child) => child.via !== 'substitution');
    if (command.program === 'cd' && command.argv[1]) cwd = command.argv[1];
    if (command.carrier === 'ssh' || command.carrier === 'shell') {
      for (const child of command.children) visit(child);
      return;
    }
    let inner: RuleMatch | null = null;
    if (command.carrier !== null) {
      inner = mostSignificant(classifyCommands(carried, tool, input, context, execWorkdir(command)));
    }
    const ruled = applyRules(viewOf(command, tool, input, inner, cwd, context));
    const match = ruled ? withConfigFile(ruled, command.argv, cwd, frameworkById(ruled.framework ?? null), context) : null;
    if (match) found.push({ command, match, place: placeOf(command) });
    for (const child of substitutions) visit(child);
    // Starting a systemd unit or a launchd service the session wrote runs its command on that host: that launch is classified too.
    for (const unit of startedUnits(command)) {
      const started = context?.unitCommand(unit);
      if (started) for (const launched of parseCommandLine(started, command.place)) visit(launched);
    }
    // So does running a script the session read or wrote (`sh ~/run-triton.sh`): its commands, as the script stood then.
    const script = scriptRun(command);
    const body = script ? context?.scriptText(script, cwd) : null;
    if (body) for (const ran of parseCommandLine(withAssignments(body), command.place)) visit(ran);
  };
  for (const command of commands) visit(command);
  return found;
}

/** A tool call that ran no shell command (web search, fetch…): classified by the tool alone. */
export function classifyTool(tool: string, input: string): RuleMatch | null {
  const empty: CommandView = {
    tool,
    input,
    program: '',
    argv: [],
    args: [],
    text: '',
    env: {},
    pythonBody: null,
    pipelinePosition: 0,
    dockerRun: null,
    carrier: null,
    execContainer: null,
    inner: null,
    cwd: null,
    context: null,
  };
  return applyRules(empty);
}
