import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { RunEventPrinter } from '../../src/cli/format/run-events.js';
import { MarkerReader, PGID_MARKER, scrubSecrets, secretsReferenced, secretsStdin, wrapRemoteCommand } from '../../src/replay/run/remote-command.js';
import { judge, runStatusOf } from '../../src/core/run/verdict.js';

const step = { timeout_s: 60, poll: null, expect: { exit: 0, output: '^200$' } };

describe('verdicts against the record', () => {
  it('same, diverged (with what differed) or unknown', () => {
    expect(judge(step, { kind: 'exited', exitCode: 0, output: 'x\n200\n' })).toEqual({ status: 'ok', verdict: 'same', detail: null });
    expect(judge(step, { kind: 'exited', exitCode: 7, output: '000' })).toEqual({ status: 'failed', verdict: 'diverged', detail: 'exit 7, recorded 0' });
    // Exit as recorded but not the recorded shape: failed, so the steps after it do not run on it.
    expect(judge(step, { kind: 'exited', exitCode: 0, output: '503' })).toEqual({ status: 'failed', verdict: 'diverged', detail: 'output does not match the recorded /^200$/' });
    expect(judge(step, { kind: 'exited', exitCode: 0, output: 'bash: line 1: docker: command not found\n' })).toEqual({
      status: 'failed',
      verdict: 'diverged',
      detail: 'output does not match the recorded /^200$/: docker: command not found',
    });
    expect(judge(step, { kind: 'exited', exitCode: 127, output: 'sh: 1: docker: not found\n' }).detail).toBe('exit 127, recorded 0: docker: command not found');
    // A catastrophic pattern answers at once (linear-time engine), it does not hang the step.
    expect(judge({ ...step, expect: { exit: 0, output: '^(a+)+$' } }, { kind: 'exited', exitCode: 0, output: `${'a'.repeat(35)}!` }).status).toBe('failed');
    expect(judge({ ...step, poll: { interval_s: 1, max_s: 5 } }, { kind: 'exited', exitCode: 0, output: '503' }).status).toBe('failed');
    expect(judge(step, { kind: 'timeout', output: '' })).toMatchObject({ status: 'timeout', verdict: 'diverged' });
    expect(judge(step, { kind: 'lost', reason: 'Keepalive timeout', output: '' })).toEqual({ status: 'unknown', verdict: 'unknown', detail: 'connection lost: Keepalive timeout' });
    expect(judge({ ...step, expect: { exit: null, output: null } }, { kind: 'exited', exitCode: 3, output: '' }).verdict).toBe('same');
  });

  it('ends a run with the worst that happened', () => {
    expect(runStatusOf(['ok', 'guarded', 'skipped'], null)).toBe('ok');
    expect(runStatusOf(['ok', 'unknown'], null)).toBe('failed');
    expect(runStatusOf(['ok', 'interrupted'], null)).toBe('interrupted');
    expect(runStatusOf(['ok'], 'aborted')).toBe('aborted');
  });
});

describe('the remote command wrapper', () => {
  it('reports the process group first, reads secrets from stdin, and runs the command in the same shell', () => {
    const wrapped = wrapRemoteCommand('echo "token=$HF_TOKEN"; exit 4', ['HF_TOKEN']);
    let stdout = '';
    let code = 0;
    try {
      stdout = execFileSync('bash', ['-c', wrapped], { input: secretsStdin(['HF_TOKEN'], { HF_TOKEN: 'a b$c' }), encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      const failed = error as { status: number; stdout: string; stderr: string };
      code = failed.status;
      stdout = failed.stdout;
      expect(failed.stderr.startsWith(PGID_MARKER)).toBe(true);
    }
    expect(code).toBe(4);
    expect(stdout).toBe('token=a b$c\n');
    expect(() => secretsStdin(['X'], {})).toThrow('X is not set');
    expect(() => secretsStdin(['X'], { X: 'two\nlines' })).toThrow('line break');
  });

  it('strips the marker line from stderr however the chunks fall', () => {
    const text = `${PGID_MARKER}4242\nreal error\n`;
    for (let cut = 1; cut < text.length; cut += 1) {
      const reader = new MarkerReader();
      const passed = reader.push(text.slice(0, cut)) + reader.push(text.slice(cut)) + reader.flush();
      expect(passed).toBe('real error\n');
      expect(reader.pgid).toBe(4242);
    }
    const plain = new MarkerReader();
    expect(plain.push('no marker here\n') + plain.flush()).toBe('no marker here\n');
    expect(plain.pgid).toBeNull();
  });

  it('finds the secrets a command names, and scrubs their values from output', () => {
    expect(secretsReferenced('HF_TOKEN=${HF_TOKEN} x "$API_KEY" ${PYPI_PASSWORD:-none} $HF_TOKENS', ['HF_TOKEN', 'API_KEY', 'PYPI_PASSWORD', 'OTHER'])).toEqual(['HF_TOKEN', 'API_KEY', 'PYPI_PASSWORD']);
    expect(scrubSecrets('got hf_abcdef twice: hf_abcdef', { HF_TOKEN: 'hf_abcdef' })).toBe('got [REDACTED:env:HF_TOKEN] twice: [REDACTED:env:HF_TOKEN]');
  });
});

describe('the live-run printer', () => {
  it('prefixes output lines with the role, keeping partial lines of parallel hosts apart', () => {
    const lines: string[] = [];
    const printer = new RunEventPrinter((line) => lines.push(line));
    const target = (role: string) => ({ stepId: 'pull-image', role, host: `u@${role}:22` });
    printer.handle({ type: 'step-started', target: target('head'), command: 'docker pull x', destructive: false });
    printer.handle({ type: 'output', target: target('head'), stream: 'stdout', chunk: 'Dig' });
    printer.handle({ type: 'output', target: target('worker'), stream: 'stdout', chunk: 'Status: up\nDi' });
    printer.handle({ type: 'output', target: target('head'), stream: 'stdout', chunk: 'est: 1\n' });
    printer.handle({ type: 'step-finished', result: { ...target('worker'), status: 'ok', exitCode: 0, startedAt: 0, endedAt: 1500, durationMs: 1500, verdict: 'same', detail: null } });
    expect(lines).toEqual(['… [head] pull-image: docker pull x', '  worker │ Status: up', '  head │ Digest: 1', '  worker │ Di', '✓ [worker] pull-image ok (1.5s) — same']);
  });
});
