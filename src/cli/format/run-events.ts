import type { RunEvent, StepResult } from '../../core/run/events.js';
import { formatDuration } from '../../core/units.js';

/**
 * A live run as terminal lines: one when a step starts on a host, its output indented and
 * prefixed with the role, one when it ends with its verdict. Pure: an event in, lines out; the
 * caller keeps a partial-line buffer per host so interleaved output stays readable.
 */

const STATUS_MARK: Readonly<Record<string, string>> = {
  ok: '✓',
  guarded: '↷',
  skipped: '·',
  failed: '✗',
  timeout: '⧖',
  unknown: '?',
  interrupted: '■',
  planned: '○',
};

export function describeResult(result: StepResult, label = result.role): string {
  const mark = STATUS_MARK[result.status] ?? '•';
  const verdict = result.verdict ? ` — ${result.verdict}${result.detail ? `: ${result.detail}` : ''}` : result.detail ? ` — ${result.detail}` : '';
  const exit = result.exitCode !== null && result.exitCode !== 0 ? ` exit ${result.exitCode}` : '';
  return `${mark} [${label}] ${result.stepId} ${result.status}${exit} (${formatDuration(result.durationMs)})${verdict}`;
}

export class RunEventPrinter {
  private readonly partial = new Map<string, string>();
  /** Roles with several hosts: their lines name the host too (`worker 127.0.0.3`). */
  private readonly fleetRoles = new Set<string>();

  private label(target: { role: string; host: string }): string {
    return this.fleetRoles.has(target.role) ? `${target.role} ${target.host}` : target.role;
  }

  constructor(
    private readonly write: (line: string) => void,
    private readonly showOutput = true,
  ) {}

  handle(event: RunEvent): void {
    switch (event.type) {
      case 'run-started': {
        const byRole = new Map<string, Set<string>>();
        for (const s of event.steps) byRole.set(s.role, (byRole.get(s.role) ?? new Set()).add(s.host));
        for (const [role, set] of byRole) if (set.size > 1) this.fleetRoles.add(role);
        const hosts = [...byRole].map(([role, set]) => `${role}=${[...set].join(' ')}`);
        this.write(`▶ run ${event.runId} (${event.mode}): ${event.steps.length} step executions on ${hosts.join(', ')}`);
        break;
      }
      case 'step-started':
        this.write(`… [${this.label(event.target)}] ${event.target.stepId}${event.destructive ? ' (destructive)' : ''}: ${event.command.split('\n')[0]}`);
        break;
      case 'guard':
        if (event.satisfied) this.write(`  [${this.label(event.target)}] guard: already done`);
        break;
      case 'output':
        if (this.showOutput) this.output(this.label(event.target), event.chunk);
        break;
      case 'step-finished':
        this.flush(this.label(event.result));
        this.write(describeResult(event.result, this.label(event.result)));
        break;
      case 'confirm':
      case 'confirmed':
        break;
      case 'paused':
        this.write(event.failed ? `⏸ held on a failure: ${event.failed.map((t) => `${t.stepId} on ${this.label(t)}`).join(', ')}` : '⏸ paused');
        break;
      case 'resumed':
        this.write('▶ resumed');
        break;
      case 'run-finished':
        this.write(`■ run ${event.runId} ${event.status}: ${event.diverged} step${event.diverged === 1 ? '' : 's'} diverged from the record`);
        break;
    }
  }

  private output(role: string, chunk: string): void {
    const text = (this.partial.get(role) ?? '') + chunk;
    const lines = text.split('\n');
    this.partial.set(role, lines.pop() ?? '');
    for (const line of lines) this.write(`  ${role} │ ${line}`);
  }

  private flush(role: string): void {
    const rest = this.partial.get(role);
    if (rest) this.write(`  ${role} │ ${rest}`);
    this.partial.delete(role);
  }
}
