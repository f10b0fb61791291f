// Small hand-written plans and a scripted executor, for runner and store tests that need no SSH.
import type { Plan } from '../../../src/core/plan/schema.js';
import { validatePlan } from '../../../src/replay/plan/yaml.js';
import type { HostExecutor, RunCommandOptions } from '../../../src/replay/run/host-executor.js';
import type { RunHeader } from '../../../src/core/run/record.js';
import type { ExecOutcome } from '../../../src/core/run/verdict.js';

export function tinyPlan(): Plan {
  return validatePlan({
    version: 1,
    session: { id: 'ses_tiny', title: 'tiny deployment' },
    candidate: 'repo/image:tag',
    roles: { head: { recorded_address: '10.0.0.1', recorded_hostname: 'h1', recorded_user: 'aurora' }, worker: { recorded_address: '10.0.0.2' } },
    variables: { image: { value: 'repo/image:tag' }, HF_TOKEN: { env: 'HF_TOKEN' } },
    steps: [
      { id: 'stop-old', roles: ['head'], command: 'systemctl stop old', destructive: true, guard: '! systemctl is-active old' },
      { id: 'pull', roles: ['head', 'worker'], command: 'docker pull {{ image }}', guard: 'docker image inspect {{ image }}', expect: { exit: 0, output: 'Digest: sha256:[0-9a-f]{64}' } },
      { id: 'download', roles: ['head', 'worker'], command: 'HF_TOKEN=${HF_TOKEN} hf download m', independent_of: ['pull'] },
      { id: 'health', roles: ['head'], command: 'curl -s localhost:8000/health', expect: { exit: 0, output: '^200$' }, poll: { interval_s: 0.05, max_s: 1 } },
    ],
  });
}

export function header(id: string, overrides: Partial<RunHeader> = {}): RunHeader {
  return {
    id,
    sessionId: 'ses_tiny',
    sessionTitle: 'tiny deployment',
    planLabel: 'plan.yaml',
    planJson: JSON.stringify(tinyPlan()),
    mode: 'live',
    hosts: { head: ['u@127.0.0.2:1'], worker: ['u@127.0.0.3:1'] },
    hostSpecs: { head: [{ spec: 'u@127.0.0.2:1' }], worker: [{ spec: 'u@127.0.0.3:1' }] },
    stepFrom: null,
    stepTo: null,
    startedAt: Date.UTC(2026, 1, 26, 14, 0, 0),
    pid: process.pid,
    origin: 'replay',
    ...overrides,
  };
}

type Script = (command: string, options: RunCommandOptions) => ExecOutcome | Promise<ExecOutcome>;

/** Answers each command from a script and remembers what it was asked to run. */
export class ScriptedExecutor implements HostExecutor {
  readonly commands: string[] = [];
  readonly secretsSeen: Record<string, string>[] = [];
  lost: string | null = null;

  constructor(
    readonly role: string,
    private readonly script: Script,
  ) {}

  get display(): string {
    return `u@${this.role}:22`;
  }

  async run(command: string, options: RunCommandOptions): Promise<ExecOutcome> {
    this.commands.push(command);
    this.secretsSeen.push({ ...options.secrets });
    const outcome = await this.script(command, options);
    if (outcome.kind === 'lost') this.lost = outcome.reason;
    if (outcome.kind === 'exited') options.onOutput?.('stdout', outcome.output);
    return outcome;
  }

  close(): void {}
}

export const exited = (exitCode: number, output = ''): ExecOutcome => ({ kind: 'exited', exitCode, output });
