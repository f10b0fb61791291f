import { describe, expect, it } from 'vitest';
import { differingLines, renderRunMarkdown } from '../../src/replay/report/run-markdown.js';
import type { RunStepRow, StoredRun } from '../../src/store/run-queries.js';
import { tinyPlan } from './helpers/plans.js';

const DIGEST = 'Digest: sha256:' + 'a'.repeat(64);

function row(overrides: Partial<RunStepRow>): RunStepRow {
  return {
    step_id: 'pull', step_index: 1, role: 'worker', host: 'u@w1:22', attempt: 1, command: 'docker pull repo/image:tag', guard: null, destructive: false,
    guard_satisfied: null, status: 'ok', exit_code: 0, timed_out: false, started_at: null, ended_at: null, duration_ms: 1500, output: DIGEST,
    verdict: 'same', detail: null, remote_pgid: null, ...overrides,
  };
}

describe('retrace runs RUN --format markdown', () => {
  it('finds the recorded line and the line that stands in its place', () => {
    expect(differingLines(`Pulling fs layer\n${DIGEST}\nStatus: Downloaded`, 'bash: line 1: docker: command not found', 'Digest: sha256:[0-9a-f]{64}')).toEqual({
      recorded: DIGEST,
      actual: 'bash: line 1: docker: command not found',
    });
    expect(differingLines('200', '503', null)).toEqual({ recorded: '200', actual: '503' });
  });

  it('lists every step on every host (not run where a failure stopped it) and each divergence with both lines', () => {
    const plan = tinyPlan();
    plan.steps[1]!.source = { message_ordinal: 3, call_id: 'call-head', roles: { head: { message_ordinal: 3, call_id: 'call-head' }, worker: { message_ordinal: 4, call_id: 'call-worker' } } };
    const run: StoredRun = {
      id: 'run_x', session_id: 'ses_tiny', plan: '/plans/tiny.yaml', mode: 'live', status: 'failed', started_at: '2026-02-26 14:00:00', ended_at: '2026-02-26 14:05:00',
      steps: 4, diverged: 1, session_title: 'tiny deployment', plan_json: '{}', hosts: { head: ['u@h:22'], worker: ['u@w1:22', 'u@w2:22'] },
      host_specs: {}, step_from: null, step_to: null, origin: 'replay', pid: null, vars: { image: 'repo/image:tag' },
      step_rows: [
        row({ step_id: 'stop-old', step_index: 0, role: 'head', host: 'u@h:22', status: 'guarded', verdict: null }),
        row({ role: 'head', host: 'u@h:22' }),
        row({}),
        row({ host: 'u@w2:22', status: 'failed', exit_code: 127, output: 'bash: docker: command not found', verdict: 'diverged', detail: 'exit 127, recorded 0: docker: command not found', duration_ms: 40 }),
      ],
    };
    const recorded = new Map([['call-worker', { exit_code: 0, output: `5.1 GB pulled\n${DIGEST}` }], ['call-head', { exit_code: 0, output: 'head output' }]]);
    const text = renderRunMarkdown(run, plan, recorded);
    expect(text).toContain('# Run run_x: failed');
    expect(text).toContain('| worker | u@w1:22, u@w2:22 |');
    expect(text).toContain('| 2 | pull | worker | u@w2:22 | failed | 40 ms | diverged | exit 127, recorded 0: docker: command not found |');
    expect(text).toContain('| 2 | pull | worker | u@w1:22 | ok | 1.5 s | same | — |');
    expect(text).toContain('| 3 | download | worker | u@w2:22 | not run | — | — | — |');
    expect(text).toContain('### pull on worker u@w2:22');
    // The worker's own recorded call, not the head's.
    expect(text).toContain(`- recorded (exit 0): \`${DIGEST}\``);
    expect(text).toContain('- this run (exit 127): `bash: docker: command not found`');
    expect(text).toContain('- --var: `image=repo/image:tag`');
  });
});
