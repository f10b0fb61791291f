import { describe, expect, it } from 'vitest';
import { completeCall } from '../../../src/ingest/claude/tool-result.js';
import { issuedCall } from '../../../src/ingest/jsonl/values.js';

const T0 = Date.parse('2026-02-17T09:00:00.000Z');

function call(tool: string) {
  return issuedCall({ sessionId: 's', messageId: 'm', callId: 'toolu_1', tool, input: '{}', command: tool === 'Bash' ? 'sleep 1' : null, startedAt: T0 });
}

function answer(tool: string, content: unknown, isError: boolean | undefined, sidecar: unknown = undefined) {
  return completeCall(call(tool), { type: 'tool_result', tool_use_id: 'toolu_1', content, is_error: isError }, sidecar, T0 + 1500, 's');
}

describe('Claude Code tool results', () => {
  it('a Bash success is exit 0 (Claude Code never writes it), with the time between the two lines', () => {
    const done = answer('Bash', 'ok', undefined, { stdout: 'ok', stderr: '', interrupted: false });
    expect([done.status, done.exitCode, done.timedOut, done.durationMs, done.endedAt]).toEqual(['completed', 0, false, 1500, T0 + 1500]);
  });

  it('a failure says `Exit code N`', () => {
    const done = answer('Bash', 'Exit code 127\nbash: nvidia-smi: command not found', true, 'Error: Exit code 127\n…');
    expect([done.status, done.exitCode, done.timedOut]).toEqual(['completed', 127, false]);
  });

  it('a timeout, old or new wording, or an interruption has no exit code', () => {
    for (const [content, sidecar] of [
      ['Command timed out after 2m 0.0s\npartial', 'Error: Command timed out after 2m 0.0s'],
      ['Command did not complete within its 120s timeout and was moved to the background (ID: b12). Output is being written to: /tmp/x', { backgroundTaskId: 'b12', timedOutAfterMs: 120000 }],
      ['partial output', { stdout: 'partial output', stderr: '', interrupted: true }],
    ] as const) {
      const done = answer('Bash', content, typeof sidecar === 'string', sidecar);
      expect([done.exitCode, done.timedOut]).toEqual([null, true]);
    }
  });

  it('a command sent to the background has not exited yet; a rejected call is an error', () => {
    const background = answer('Bash', 'Command running in background with ID: b7', false, { backgroundTaskId: 'b7' });
    expect([background.status, background.exitCode, background.timedOut]).toEqual(['completed', null, false]);
    const rejected = answer('Bash', "The user doesn't want to proceed with this tool use.", true, 'Error: rejected');
    expect([rejected.status, rejected.exitCode]).toEqual(['error', null]);
  });

  it('other tools keep no exit code; their result text is joined from blocks; sidecar scalars go to extra', () => {
    const done = answer('WebFetch', [{ type: 'text', text: 'page summary' }, { type: 'image' }], false, { code: 200, bytes: 48213, result: 'x'.repeat(500) });
    expect([done.status, done.exitCode, done.output]).toEqual(['completed', null, 'page summary\n[image]']);
    expect(JSON.parse(done.extra ?? '{}')).toEqual({ result: { code: 200, bytes: 48213 } });
  });
});
