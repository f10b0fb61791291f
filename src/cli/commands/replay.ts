import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { DB_OPTION_HELP, examples, type CliContext } from '../context.js';
import { resolveDbPath } from '../db-path.js';
import { JobFailedError, UsageError } from '../errors.js';
import { RunEventPrinter } from '../format/run-events.js';
import type { Output } from '../output.js';
import { expectLostTerminal, STOP_SIGNALS } from '../../tui/lost-terminal.js';
import { resumeCommandOf, watchLiveRunInTui } from '../tui-live.js';
import { NothingToReplayError } from '../../replay/plan/extract.js';
import { renderDryRun, secretNamesOf, StepRangeError } from '../../replay/plan/render.js';
import { TemplateError } from '../../replay/plan/template.js';
import { PlanError } from '../../replay/plan/yaml.js';
import { FleetInputError } from '../../replay/fleet/fleet-input.js';
import { InventoryError } from '../../replay/fleet/inventory.js';
import { terminalPassphrasePrompt } from '../passphrase.js';
import type { ReplayController } from '../../replay/run/controller.js';
import type { RunEvent } from '../../core/run/events.js';
import { recordDryRun } from '../../replay/run/dry-run.js';
import { ReplaySetupError, startLiveReplay, type SshSettings } from '../../replay/run/live-replay.js';
import { prepareReplay, ReplayInputError, type PreparedReplay } from '../../replay/run/prepare.js';
import { ConnectError } from '../../replay/ssh/connection.js';
import { HostKeyRefusedError } from '../../replay/ssh/host-key.js';
import { HostSpecError } from '../../replay/ssh/host-target.js';
import { Database, withDatabase } from '../../store/database.js';
import { leaseStore, type StoreAccess } from '../../store/store-lease.js';
import { loadRun, RunLookupError } from '../../store/run-queries.js';
import { StoreRunRecorder } from '../../store/runs.js';

export interface ReplayOptions {
  db: string;
  hosts: string[];
  /** An Ansible inventory (INI or YAML) whose groups are the plan's roles. */
  inventory?: string;
  /** Hosts that run at once (default 5). */
  forks?: number;
  vars: string[];
  live: boolean;
  yes: boolean;
  /** Go on after a failed step (the run still ends failed). */
  keepGoing?: boolean;
  from?: string;
  to?: string;
  resume?: string;
  knownHosts?: string;
  identity?: string;
  sshConfig?: string;
  acceptNew: boolean;
  keepaliveInterval?: number;
  keepaliveCount?: number;
  json: boolean;
  /** Watch the live run in the TUI (confirmations, pause, skip, retry, abort happen there). */
  tui?: boolean;
  /** Where secrets are read from (process.env unless a caller, such as a test, says otherwise). */
  env?: NodeJS.ProcessEnv;
  /** Whether a person can answer confirmations (stdin is a terminal), unless a caller says. */
  interactive?: boolean;
}

/** Errors a user fixes by changing the command line or the plan: exit 2 with the message. */
const USAGE_ERRORS = [PlanError, ReplayInputError, ReplaySetupError, StepRangeError, HostSpecError, TemplateError, RunLookupError, FleetInputError, InventoryError];

/** Answers destructive steps' confirmations on the terminal, one line of stdin each. */
function terminalConfirmations(controller: ReplayController, output: Output): () => void {
  const lines = createInterface({ input: process.stdin, terminal: false });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const stop = controller.subscribe((event) => {
    if (event.type !== 'confirm') return;
    output.warn(`\nDestructive step ${event.target.stepId} on ${event.target.role} (${event.target.host}):\n  ${event.command.split('\n').join('\n  ')}\nRun it? [y/N] `);
    waiting.push((answer) => controller.confirm(event.target.stepId, /^y(es)?$/i.test(answer.trim())));
  });
  return () => {
    stop();
    lines.close();
  };
}

async function dryRun(db: Database, prepared: PreparedReplay, options: ReplayOptions, output: Output): Promise<number> {
  const env = options.env ?? process.env;
  const secretsSet = Object.fromEntries(secretNamesOf(prepared.plan).map((name) => [name, Boolean(env[name])]));
  const hosts = Object.fromEntries(Object.keys(prepared.plan.roles).map((role) => [role, prepared.header.hostSpecs[role]?.map((a) => a.spec) ?? null]));
  await recordDryRun(prepared.header, prepared.plan, prepared.values, prepared.range, new StoreRunRecorder(db));
  const run = await loadRun(db, prepared.header.id);
  if (options.json) {
    output.json({ run: { ...run, step_rows: undefined, plan_json: undefined }, steps: run.step_rows });
    return 0;
  }
  output.line(renderDryRun({ plan: prepared.plan, hosts, values: prepared.values, range: prepared.range, secretsSet }));
  output.line('');
  output.line(`Dry run: nothing was executed. Recorded as ${prepared.header.id} (see \`retrace runs\`).`);
  output.line(`To run it: add --live and --host ROLE=[user@]host[:port] for ${Object.keys(prepared.plan.roles).join(', ')}.`);
  return 0;
}

/**
 * A live run opens the store only for each write (and its own TUI's reads): held for the whole
 * run, it would shut out `retrace tui --run ID` in another terminal and every other command.
 */
function liveStore(path: string) {
  return leaseStore(() => Database.open(path, { lockWaitMs: 2_000 }), { idleMs: 150, waitMs: 0, maxHoldMs: 1_000, restMs: 400 });
}

async function liveRun(path: string, prepared: PreparedReplay, options: ReplayOptions, output: Output): Promise<number> {
  const store = liveStore(path);
  // A run's own TUI owns the terminal: a wait for the store shows there as a pause, never as text.
  const recorder = new StoreRunRecorder(store, {
    onWait: options.tui ? undefined : (message) => output.warn(message === null ? 'The store is free again: recording goes on.' : `Waiting to record the run: ${message}`),
  });
  try {
    return await liveRunOn(store, recorder, prepared, options, output);
  } finally {
    await recorder.settled();
    await store.close();
  }
}

async function liveRunOn(store: StoreAccess, recorder: StoreRunRecorder, prepared: PreparedReplay, options: ReplayOptions, output: Output): Promise<number> {
  const inRange = prepared.plan.steps.slice(prepared.range.first, prepared.range.last + 1);
  const destructive = inRange.filter((step) => step.destructive).map((step) => step.id);
  if (destructive.length > 0 && !options.yes && !options.tui && !(options.interactive ?? process.stdin.isTTY)) {
    throw new UsageError(`destructive steps (${destructive.join(', ')}) need confirmation on a terminal; none is attached, so pass --yes to approve them`);
  }
  const settings: SshSettings = {
    sshConfigPath: options.sshConfig,
    knownHostsFile: options.knownHosts,
    identityFile: options.identity,
    acceptNew: options.acceptNew,
    keepaliveIntervalMs: options.keepaliveInterval === undefined ? undefined : options.keepaliveInterval * 1000,
    keepaliveCountMax: options.keepaliveCount,
    env: options.env ?? process.env,
    askPassphrase: options.tui || options.interactive === false ? undefined : terminalPassphrasePrompt(),
  };
  const start = (listener: (event: RunEvent) => void, holdOnFailure: boolean) =>
    startLiveReplay({
      header: prepared.header,
      plan: prepared.plan,
      values: prepared.values,
      range: prepared.range,
      settings,
      recorder,
      autoConfirm: options.yes,
      holdOnFailure,
      keepGoing: options.keepGoing,
      forks: options.forks,
      resume: prepared.resume,
      listener: (event) => {
        recorder.noteEvent(prepared.header.id, event);
        listener(event);
      },
    });
  if (options.tui) {
    // The TUI owns the terminal: it shows the steps, asks for confirmations, and holds a failed
    // step so it can be retried (`r`).
    const result = await watchLiveRunInTui(store, (listener) => start(listener, true), (line) => output.line(line));
    return result.status === 'ok' ? 0 : 1;
  }
  const printer = new RunEventPrinter((line) => (options.json ? output.warn(line) : output.line(line)), !options.json);
  const replay = await start((event) => printer.handle(event), false);
  const stopConfirming = options.yes ? () => undefined : terminalConfirmations(replay.controller, output);
  // Ctrl-C, a `kill`, or the terminal closing (SIGHUP): the remote steps are stopped and the run
  // recorded as interrupted, so `--resume` goes on from there.
  const onSigint = (signal: NodeJS.Signals): void => {
    expectLostTerminal(signal);
    replay.controller.interrupt();
    // To a terminal that is gone this fails later, as an error expectLostTerminal ignores.
    output.warn('\nInterrupted: stopping the running step and recording the run …');
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSigint);
  try {
    const result = await replay.done;
    await recorder.settled();
    const run = await store.use((db) => loadRun(db, prepared.header.id));
    if (options.json) output.json({ run: { ...run, step_rows: undefined, plan_json: undefined }, steps: run.step_rows });
    else if (result.status !== 'ok') output.line(`Resume with: ${resumeCommandOf(prepared.header.id)}`);
    return result.status === 'ok' ? 0 : 1;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSigint);
    stopConfirming();
  }
}

export async function replayCommand(source: string | undefined, options: ReplayOptions, output: Output): Promise<number> {
  // A dry run executes nothing, so there is nothing to watch: --tui alone would be silently ignored.
  if (options.tui && !options.live && !options.resume) throw new UsageError('--tui watches a live run: add --live (or --resume RUN)');
  try {
    const live = options.live || Boolean(options.resume);
    // The store is held only to prepare (and for a dry run, which is over in a moment).
    const prepared = await withDatabase(options.db, {}, async (db) => {
      const ready = await prepareReplay(db, {
        source: source ?? null,
        resume: options.resume ?? null,
        hosts: options.hosts,
        inventory: options.inventory,
        vars: options.vars,
        from: options.from,
        to: options.to,
        mode: live ? 'live' : 'dry',
      });
      return live ? ready : await dryRun(db, ready, options, output);
    });
    return typeof prepared === 'number' ? prepared : await liveRun(options.db, prepared, options, output);
  } catch (error) {
    if (USAGE_ERRORS.some((type) => error instanceof type)) throw new UsageError((error as Error).message);
    if (error instanceof HostKeyRefusedError || error instanceof ConnectError || error instanceof NothingToReplayError) throw new JobFailedError(error.message);
    throw error;
  }
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];
const seconds = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`expected a positive number of seconds, got ${value}`);
  return n;
};

export function registerReplayCommand(program: Command, ctx: CliContext): void {
  program
    .command('replay')
    .summary('replay a plan (or a session\'s winning path) over SSH: dry run by default')
    .description(
      'Replay a plan file (from `retrace plan`) or a session\'s winning path. Without --live it is a dry run: ' +
        'the rendered steps per host, with guards and destructive marks; nothing is executed (the dry run is recorded). ' +
        'With --live, every role needs --host (recorded addresses are never used); host keys are checked against ' +
        'known_hosts (an unknown key is refused unless --accept-new, a changed one always); destructive steps ask on ' +
        'the terminal unless --yes. Ctrl-C stops the running step and records the run; --resume RUN goes on from where it stopped. ' +
        'Secrets (${HF_TOKEN} in the plan) are read from the environment. Exit 0 ok, 1 a step failed or a host was refused, 2 bad usage.',
    )
    .argument('[plan-or-session]', 'a plan YAML file, or a session id / id prefix / title substring')
    .option('--host <role=host>', 'ROLE=[user@]host[:port] (an ~/.ssh/config alias works), or ROLE=local for this machine (no SSH); repeat for each role, and a role for each of its hosts', collect, [])
    .option('--inventory <file>', 'an Ansible inventory (INI or YAML): each group named like a role gives that role its hosts (ansible_host, ansible_user, ansible_port, ansible_ssh_private_key_file, ansible_connection=local)')
    .option('--forks <n>', 'hosts that run a step at once (default 5)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`--forks expects a whole number ≥ 1, got ${v}`);
      return n;
    })
    .option('--live', 'execute the steps (default: dry run)')
    .option('--yes', 'approve destructive steps without asking')
    .option('--keep-going', 'go on after a failed step (by default the run stops at the first failure); the run still ends failed')
    .option('--from <step>', 'first step to run (a step id)')
    .option('--to <step>', 'last step to run (a step id)')
    .option('--resume <run>', 'go on with an interrupted or failed live run')
    .option('--var <name=value>', "override a plan variable's value; repeatable", collect, [])
    .option('--known-hosts <file>', 'known_hosts file to check host keys against (default: ssh_config, else ~/.ssh/known_hosts)')
    .option('--identity <file>', 'private key to log in with (tried before ssh_config and ~/.ssh/id_*; ssh-agent first)')
    .option('--ssh-config <file>', 'ssh client config for host aliases (default ~/.ssh/config)')
    .option('--accept-new', 'trust and record the key of a host never seen before (a changed key is still refused)')
    .option('--keepalive-interval <seconds>', 'seconds between SSH keepalives (default: ServerAliveInterval, else 15)', seconds)
    .option('--keepalive-count <n>', 'unanswered keepalives before a host counts as lost (default 3)', (v) => Math.max(1, Math.round(seconds(v))))
    .option('--db <file>', DB_OPTION_HELP)
    .option('--json', 'print {run, steps} at the end (progress goes to stderr)')
    .option('--tui', 'with --live: watch the run in the TUI (confirm, pause, skip, retry, abort there)')
    .addHelpText('after', examples([
      'retrace plan qwen -o qwen.yaml && retrace replay qwen.yaml',
      'HF_TOKEN=… retrace replay qwen.yaml --live --host head=aurora@spark-a --host worker=aurora@spark-b',
      'retrace replay qwen.yaml --live --host head=spark-a --host worker=spark-b --from download-model --yes',
      'retrace replay --resume run_20260226-134100_3f9a',
      'retrace replay qwen.yaml --live --tui --host head=spark-a --host worker=spark-b',
      'retrace replay qwen.yaml --live --host head=spark-a --host worker=spark-b --host worker=spark-c --host worker=spark-d',
      'retrace replay qwen.yaml --live --inventory hosts.ini --forks 10',
      'retrace replay qwen.yaml --live --host head=local --host worker=spark-b',
    ]))
    .action(async (source: string | undefined, opts: Omit<ReplayOptions, 'db' | 'hosts' | 'vars' | 'live' | 'yes' | 'acceptNew' | 'json'> & { db?: string; host: string[]; var: string[]; live?: boolean; yes?: boolean; keepGoing?: boolean; acceptNew?: boolean; json?: boolean }) => {
      ctx.setExitCode(
        await replayCommand(source, {
          ...opts,
          db: resolveDbPath(opts.db),
          hosts: opts.host,
          vars: opts.var,
          live: Boolean(opts.live),
          yes: Boolean(opts.yes),
          keepGoing: Boolean(opts.keepGoing),
          acceptNew: Boolean(opts.acceptNew),
          json: Boolean(opts.json),
          tui: Boolean(opts.tui),
        }, ctx.output),
      );
    });
}
