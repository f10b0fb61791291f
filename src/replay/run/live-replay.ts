import { existsSync, readFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { renderStep, secretNamesOf } from '../plan/render.js';
import type { Plan } from '../../core/plan/schema.js';
import { SshConnection, type ConnectOptions } from '../ssh/connection.js';
import { describeTarget, parseHostSpec, resolveTarget, type ResolvedTarget } from '../ssh/host-target.js';
import { parseSshConfig } from '../ssh/ssh-config.js';
import { ReplayController } from './controller.js';
import type { RunEvent } from '../../core/run/events.js';
import { SshHostExecutor, type HostExecutor } from './host-executor.js';
import type { RunHeader, RunRecorder } from '../../core/run/record.js';
import { secretsReferenced, type LingeringProcess } from './remote-command.js';
import { runPlan } from './runner.js';

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
}

const DEFAULT_KEYS = ['id_ed25519', 'id_ecdsa', 'id_rsa'];

/** Roles of the steps that will run, missing from --host: a live run refuses to guess them. */
export function missingRoles(plan: Plan, hostSpecs: Readonly<Record<string, string>>, range: { first: number; last: number }): string[] {
  const needed = new Set(plan.steps.slice(range.first, range.last + 1).flatMap((step) => step.roles));
  return Object.keys(plan.roles).filter((role) => needed.has(role) && !hostSpecs[role]);
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

export function resolveHosts(hostSpecs: Readonly<Record<string, string>>, settings: SshSettings): Map<string, ResolvedTarget> {
  const home = settings.env?.['HOME'] ?? homedir();
  const configPath = settings.sshConfigPath ?? join(home, '.ssh', 'config');
  const config = parseSshConfig(existsSync(configPath) ? readFileSync(configPath, 'utf8') : '');
  const localUser = settings.env?.['USER'] ?? userInfo().username;
  const targets = new Map<string, ResolvedTarget>();
  for (const [role, spec] of Object.entries(hostSpecs)) targets.set(role, resolveTarget(parseHostSpec(spec), { config, home, localUser }));
  return targets;
}

export function connectOptionsFor(target: ResolvedTarget, settings: SshSettings): ConnectOptions {
  const home = settings.env?.['HOME'] ?? homedir();
  const defaults = target.identitiesOnly && target.identityFiles.length > 0 ? [] : DEFAULT_KEYS.map((name) => join(home, '.ssh', name));
  const identities = [settings.identityFile, ...target.identityFiles, ...defaults].filter((path): path is string => Boolean(path));
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
  };
}

/** One connection per distinct host, shared by the roles that name the same one. */
export async function connectHosts(targets: ReadonlyMap<string, ResolvedTarget>, settings: SshSettings): Promise<Map<string, HostExecutor>> {
  const byHost = new Map<string, Promise<SshConnection>>();
  const opened: Promise<SshConnection>[] = [];
  for (const target of targets.values()) {
    const key = describeTarget(target);
    if (!byHost.has(key)) {
      const connection = SshConnection.open(target, connectOptionsFor(target, settings));
      byHost.set(key, connection);
      opened.push(connection);
    }
  }
  const results = await Promise.allSettled(opened);
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) {
    for (const result of results) if (result.status === 'fulfilled') result.value.close();
    throw failure.reason;
  }
  const executors = new Map<string, HostExecutor>();
  for (const [role, target] of targets) {
    const connection = await byHost.get(describeTarget(target));
    if (connection) executors.set(role, new SshHostExecutor(role, connection));
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
  resume: { done: ReadonlySet<string>; attempts: Map<string, number>; lingering?: ReadonlyMap<string, LingeringProcess> } | null;
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
      `a live run needs --host ROLE=[user@]host[:port] for every role; missing: ${missing.join(', ')} (recorded addresses are never used as targets)`,
    );
  }
  const absent = missingSecrets(input.plan, env, input.range, input.values);
  if (absent.length > 0) throw new ReplaySetupError(`the plan's steps need these secrets in the environment: ${absent.join(', ')} (export them first)`);
  const secrets: Record<string, string> = {};
  for (const name of secretNamesOf(input.plan)) {
    const value = env[name];
    if (value) secrets[name] = value;
  }
  const executors = await connectHosts(resolveHosts(input.header.hostSpecs, input.settings), input.settings);
  const header: RunHeader = { ...input.header, hosts: Object.fromEntries([...executors].map(([role, executor]) => [role, executor.display])) };
  const controller = new ReplayController(header.id);
  if (input.listener) controller.subscribe(input.listener);
  const done = runPlan({
    header,
    plan: input.plan,
    controller,
    executors,
    values: input.values,
    secrets,
    range: input.range,
    done: input.resume?.done ?? new Set(),
    attempts: input.resume?.attempts ?? new Map(),
    autoConfirm: input.autoConfirm,
    holdOnFailure: input.holdOnFailure,
    keepGoing: input.keepGoing,
    lingering: input.resume?.lingering,
    recorder: input.recorder,
    resumed: input.resume !== null,
  }).finally(() => {
    for (const executor of executors.values()) executor.close();
  });
  return { controller, done };
}
