import { recordedCallOf, type Plan } from '../../core/plan/schema.js';
import { failureCause, outputMatches } from '../../core/run/verdict.js';
import { describeHosts } from '../../core/run/fleet.js';
import type { StoredRun } from '../../store/run-queries.js';

/**
 * `retrace runs RUN --format markdown`: a run as a ticket wants it. The plan and the hosts, a
 * table of every step on every host (status, duration, verdict; `not run` where a failure stopped
 * it), then each divergence with the line the record had and the line this run printed instead.
 * Pure: the run, its plan and the recorded outputs in, Markdown out.
 */

export interface RecordedOutput {
  exit_code: number | null;
  output: string | null;
}

function cell(text: string | number | null | undefined): string {
  return String(text ?? '').replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').trim() || '—';
}

function seconds(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

function lines(text: string | null): string[] {
  return (text ?? '').split(/\r?\n/).map((line) => line.trimEnd()).filter((line) => line.trim() !== '');
}

/** The recorded line and today's line that differ: what the pattern matched then, what stands in its place now. */
export function differingLines(recorded: string | null, actual: string | null, pattern: string | null): { recorded: string | null; actual: string | null } {
  const before = lines(recorded);
  const now = lines(actual);
  const matched = pattern ? before.find((line) => outputMatches(pattern, line)) : undefined;
  const recordedLine = matched ?? before.find((line) => !now.includes(line)) ?? before.at(-1) ?? null;
  const cause = failureCause(actual ?? '');
  const actualLine = (cause ? now.find((line) => line.includes(cause)) ?? cause : null) ?? now.find((line) => !before.includes(line)) ?? now.at(-1) ?? null;
  return { recorded: recordedLine, actual: actualLine };
}

function quoted(line: string | null): string {
  if (line === null) return '_(nothing)_';
  return `\`${line.replace(/`/g, "'").slice(0, 300)}\``;
}

export function renderRunMarkdown(run: StoredRun, plan: Plan | null, recorded: ReadonlyMap<string, RecordedOutput>): string {
  const out: string[] = [
    `# Run ${run.id}: ${run.status}`,
    '',
    `- replay of: ${run.session_title ?? run.session_id ?? 'unknown'}${run.session_id ? ` (\`${run.session_id}\`)` : ''}`,
    `- plan: \`${run.plan ?? 'unknown'}\`${plan?.candidate ? `, candidate \`${plan.candidate}\`` : ''}`,
    `- mode: ${run.mode}; started ${run.started_at ?? '—'}, ended ${run.ended_at ?? '—'}`,
    `- steps run: ${run.steps}, diverged from the record: ${run.diverged}`,
    ...(Object.keys(run.vars).length > 0 ? [`- --var: ${Object.entries(run.vars).map(([k, v]) => `\`${k}=${v}\``).join(', ')}`] : []),
    '',
    '## Hosts',
    '',
    '| role | hosts |',
    '| --- | --- |',
    ...Object.entries(run.hosts).map(([role, list]) => `| ${cell(role)} | ${cell(list.join(', '))} |`),
    '',
    '## Steps',
    '',
    '| # | step | role | host | status | took | verdict | detail |',
    '| ---: | --- | --- | --- | --- | ---: | --- | --- |',
  ];
  const rows = new Map(run.step_rows.map((row) => [`${row.step_id}\u0000${row.role}\u0000${row.host ?? ''}`, row]));
  const steps = plan?.steps ?? [...new Map(run.step_rows.map((row) => [row.step_id, { id: row.step_id, roles: [row.role] }])).values()];
  steps.forEach((step, index) => {
    for (const role of step.roles) {
      const hosts = run.hosts[role] ?? [...new Set(run.step_rows.filter((r) => r.role === role).map((r) => r.host ?? ''))];
      for (const host of hosts.length > 0 ? hosts : ['']) {
        const row = rows.get(`${step.id}\u0000${role}\u0000${host}`);
        const attempt = row && row.attempt > 1 ? ` (attempt ${row.attempt})` : '';
        out.push(`| ${index + 1} | ${cell(step.id)}${attempt} | ${cell(role)} | ${cell(host)} | ${row ? row.status : 'not run'} | ${row && row.status !== 'planned' ? seconds(row.duration_ms) : '—'} | ${cell(row?.verdict)} | ${cell(row?.detail)} |`);
      }
    }
  });
  const diverged = run.step_rows.filter((row) => row.verdict === 'diverged');
  if (diverged.length > 0) {
    out.push('', '## Divergences');
    for (const row of diverged) {
      const step = plan?.steps.find((s) => s.id === row.step_id);
      const callId = step ? recordedCallOf(step, row.role).call_id : null;
      const before = callId ? recorded.get(callId) : undefined;
      const { recorded: then, actual } = differingLines(before?.output ?? null, row.output, step?.expect.output ?? null);
      out.push(
        '',
        `### ${row.step_id} on ${row.role} ${row.host ?? ''}`.trimEnd(),
        '',
        `${row.detail ?? 'diverged'}.`,
        '',
        `- recorded (exit ${before?.exit_code ?? '—'}): ${before ? quoted(then) : '_not in the store_'}`,
        `- this run (exit ${row.exit_code ?? '—'}): ${quoted(actual)}`,
      );
    }
  }
  out.push('', `Hosts: ${describeHosts(run.hosts) || '—'}.`);
  return `${out.join('\n')}\n`;
}
