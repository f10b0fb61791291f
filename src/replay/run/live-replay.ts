import { existsSync, readFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { renderStep, secretNamesOf } from '../plan/render.js';
import type { Plan } from '../../core/plan/schema.js';
import { SshConnection, type ConnectOptions } from '../ssh/connection.js';
import { LOCAL_HOST, Limiter, type Fleet } from '../../core/run/fleet.js';
import { LocalHostExecutor } from './local-executor.js';
import { readIncludedFiles } from '../ssh/ssh-config-files.js';
import { describeTarget, parseHostSpec, resolveTarget, type ResolvedTarget } from '../ssh/host-target.js';
import { parseSshConfig } from '../ssh/ssh-config.js';
import { ReplayController } from './controller.js';
import type { RunEvent, StepStatus } from '../../core/run/events.js';
import { SshHostExecutor, type HostExecutor } from './host-executor.js';
import type { RunHeader, RunRecorder } from '../../core/run/record.js';
import { secretsReferenced, type LingeringProcess } from './remote-command.js';
import { DEFAULT_FORKS, runPlan } from './runner.js';

/**
 * Everything between "the user asked for a live run" and the runner: the safety checks that come
 * before any connection (a host for every role, every secret present), ssh_config and identities,
 * one connection per host, and the controller a watcher holds. Used by the CLI and the TUI.
 */

export class ReplaySetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplaySetupError';
  }
}

export interface SshSettings {
  /** ~/.ssh/config unless given; a missing file is no error. */
  sshConfigPath?: string;
  /** Only this known_hosts file (else ssh_config's UserKnownHostsFile, else ~/.ssh/known_hosts). */
  knownHostsFile?: string;
  /** Tried before ssh_config's IdentityFile and the default keys. */
  identityFile?: string;
  acceptNew: boolean;
  keepaliveIntervalMs?: number;
  keepaliveCountMax?: number;
  readyTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Asks for an encrypted key's passphrase (on a terminal); without it such a key is refused, saying so. */
  askPassphrase?: (keyPath: string) => Promise<string | null>;
}

const DEFAULT_KEYS = ['id_ed25519', 'id_ecdsa', 'id_rsa'];

/** Roles of the steps that will run, missing from --host: a live run refuses to guess them. */
export function missingRoles(plan: Plan, hostSpecs: Readonly<Fleet>, range: { first: number; last: number }): string[] {
  const needed = new Set(plan.steps.slice(range.first, range.last + 1).flatMap((step) => step.roles));
  return Object.keys(plan.roles).filter((role) => needed.has(role) && (hostSpecs[role]?.length ?? 0) === 0);
}

/** Secrets the steps in range refer to that the environment does not hold. */
export function missingSecrets(plan: Plan, env: NodeJS.ProcessEnv, range: { first: number; last: number }, values: Readonly<Record<string, string>>): string[] {
  const names = secretNamesOf(plan);
  const used = new Set(
    plan.steps.slice(range.first, range.last + 1).flatMap((step) => {
      const rendered = renderStep(step, values);
      return secretsReferenced(`${rendered.command}\n${rendered.guard ?? ''}`, names);
    }),
  );
  return [...used].filter((name) => env[name] === undefined || env[name] === '');
}

/** A host of a role, resolved: where and as whom to connect, or this machine. */
export type FleetTarget = { kind: 'ssh'; target: ResolvedTarget; identityFile: string | null } | { kind: 'local' };

function expandHome(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

/** Each role's hosts through ssh_config (aliases, `Include`d files too); nothing is connected here. */
export function resolveHosts(hostSpecs: Readonly<Fleet>, settings: SshSettings): Map<string, FleetTarget[]> {
  const home = settings.env?.['HOME'] ?? homedir();
  const configPath = settings.sshConfigPath ?? join(home, '.ssh', 'config');
  const config = existsSync(configPath) ? parseSshConfig(readFileSync(configPath, 'utf8'), { file: configPath, home, readIncluded: readIncludedFiles }) : parseSshConfig('');
  const localUser = settings.env?.['USER'] ?? userInfo().username;
  const targets = new Map<string, FleetTarget[]>();
  for (const [role, list] of Object.entries(hostSpecs)) {
    targets.set(
      role,
      list.map((assignment): FleetTarget =>
        assignment.spec === LOCAL_HOST
          ? { kind: 'local' }
          : { kind: 'ssh', target: resolveTarget(parseHostSpec(assignment.spec), { config, home, localUser }), identityFile: assignment.identityFile ? expandHome(assignment.identityFile, home) : null },
      ),
    );
  }
  return targets;
}

/** One `[user@]host[:port]` (or alias) through ssh_config. */
export function resolveHostSpec(spec: string, settings: SshSettings): ResolvedTarget {
  const resolved = resolveHosts({ host: [{ spec }] }, settings).get('host')?.[0];
  if (resolved?.kind !== 'ssh') throw new Error(`${spec}: not a host to connect to over SSH`);
  return resolved.target;
}

/** How to log in to one host; a ProxyJump hop gets its own (its IdentityFile, known_hosts), never the target's. */
export function connectOptionsFor(target: ResolvedTarget, settings: SshSettings, hostIdentity: string | null = null): ConnectOptions {
  const home = settings.env?.['HOME'] ?? homedir();
  const defaults = target.identitiesOnly && target.identityFiles.length > 0 ? [] : DEFAULT_KEYS.map((name) => join(home, '.ssh', name));
  const identities = [hostIdentity, settings.identityFile, ...target.identityFiles, ...defaults].filter((path): path is string => Boolean(path));
  const knownHosts = settings.knownHostsFile
    ? [settings.knownHostsFile]
    : target.knownHostsFiles.length > 0
      ? target.knownHostsFiles
      : [join(home, '.ssh', 'known_hosts'), join(home, '.ssh', 'known_hosts2')];
  const agent = settings.env?.['SSH_AUTH_SOCK'];
  return {
    knownHostsFiles: knownHosts,
    acceptNew: settings.acceptNew,
    identityFiles: [...new Set(identities)],
    agentSocket: agent && !(target.identitiesOnly && target.identityFiles.length > 0) ? agent : null,
    keepaliveIntervalMs: settings.keepaliveIntervalMs ?? (target.keepaliveIntervalS ?? 15) * 1000,
    keepaliveCountMax: settings.keepaliveCountMax ?? target.keepaliveCountMax ?? 3,
    readyTimeoutMs: settings.readyTimeoutMs ?? (target.connectTimeoutS ?? 20) * 1000,
    askPassphrase: settings.askPassphrase ?? null,
  };
}

/**
 * One connection per distinct host (roles that name the same one share it), at most `forks`
 * opening at once; `local` needs none. Any refusal (a host key, a login) closes what was opened
 * and fails the run before any step: a fleet never runs on the hosts that happened to answer.
 */
export async function connectHosts(targets: ReadonlyMap<string, readonly FleetTarget[]>, settings: SshSettings, forks = DEFAULT_FORKS, secretNames: readonly string[] = []): Promise<Map<string, HostExecutor[]>> {
  const limiter = new Limiter(forks);
  const byHost = new Map<string, Promise<SshConnection>>();
  for (const list of targets.values()) {
    for (const entry of list) {
      if (entry.kind !== 'ssh') continue;
      const key = describeTarget(entry.target);
      if (!byHost.has(key)) {
        const optionsFor = (hop: ResolvedTarget): ConnectOptions => connectOptionsFor(hop, settings, hop === entry.target ? entry.identityFile : null);
        byHost.set(key, limiter.run(() => SshConnection.open(entry.target, optionsFor)));
      }
    }
  }
  const results = await Promise.allSettled(byHost.values());
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) {
    for (const result of results) if (result.status === 'fulfilled') result.value.close();
    throw failure.reason;
  }
  // Steps here get secrets as a host does, on stdin when they use them: never inherited from our environment.
  const env = Object.fromEntries(Object.entries(settings.env ?? process.env).filter(([name]) => !secretNames.includes(name)));
  const executors = new Map<string, HostExecutor[]>();
  for (const [role, list] of targets) {
    const members: HostExecutor[] = [];
    for (const entry of list) {
      if (entry.kind === 'local') {
        members.push(new LocalHostExecutor(role, { env }));
        continue;
      }
      const connection = await byHost.get(describeTarget(entry.target));
      if (connection) members.push(new SshHostExecutor(role, connection));
    }
    executors.set(role, members);
  }
  return executors;
}

export interface LiveReplayInput {
  header: RunHeader;
  plan: Plan;
  values: Readonly<Record<string, string>>;
  range: { first: number; last: number };
  settings: SshSettings;
  recorder: RunRecorder;
  autoConfirm: boolean;
  holdOnFailure: boolean;
  /** `--keep-going`: a failed step does not stop the steps after it. */
  keepGoing?: boolean;
  resume: { done: ReadonlySet<string>; doneStatus?: ReadonlyMap<string, StepStatus>; attempts: Map<string, number>; lingering?: ReadonlyMap<string, LingeringProcess> } | null;
  /** Hosts that connect and run at once (`--forks`, default 5). */
  forks?: number;
  /** Subscribed before the run starts, so it sees `run-started`. */
  listener?: (event: RunEvent) => void;
}

export interface LiveReplay {
  controller: ReplayController;
  done: Promise<{ status: string; diverged: number }>;
}

/** Checks, connects, then starts the run; refusals (roles, secrets, host keys) throw before any step. */
export async function startLiveReplay(input: LiveReplayInput): Promise<LiveReplay> {
  const env = input.settings.env ?? process.env;
  const missing = missingRoles(input.plan, input.header.hostSpecs, input.range);
  if (missing.length > 0) {
    throw new ReplaySetupError(
      `a live run needs --host ROLE=[user@]host[:port] for every role; missing: ${missing.join(', ')} (an --inventory group per role works too; recorded addresses are never used as targets)`,
    );
  }
  const absent = missingSecrets(input.plan, env, input.range, input.values);
  if (absent.length > 0) throw new ReplaySetupError(`the plan's steps need these secrets in the environment: ${absent.join(', ')} (export them first)`);
  const secrets: Record<string, string> = {};
  for (const name of secretNamesOf(input.plan)) {
    const value = env[name];
    if (value) secrets[name] = value;
  }
  const executors = await connectHosts(resolveHosts(input.header.hostSpecs, input.settings), input.settings, input.forks, secretNamesOf(input.plan));
  const header: RunHeader = { ...input.header, hosts: Object.fromEntries([...executors].map(([role, members]) => [role, members.map((executor) => executor.display)])) };
  const controller = new ReplayController(header.id);
  if (input.listener) controller.subscribe(input.listener);
  const done = runPlan({
    header,
    plan: input.plan,
    controller,
    executors,
    forks: input.forks,
    values: input.values,
    secrets,
    range: input.range,
    done: input.resume?.done ?? new Set(),
    doneStatus: input.resume?.doneStatus,
    attempts: input.resume?.attempts ?? new Map(),
    autoConfirm: input.autoConfirm,
    holdOnFailure: input.holdOnFailure,
    keepGoing: input.keepGoing,
    lingering: input.resume?.lingering,
    recorder: input.recorder,
    resumed: input.resume !== null,
  }).finally(() => {
    for (const members of executors.values()) for (const executor of members) executor.close();
  });
  return { controller, done };
}
