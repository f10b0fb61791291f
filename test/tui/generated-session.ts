import { emptyMessage, type ToolCallRecord } from '../../src/core/model.js';
import { Database } from '../../src/store/database.js';
import { SourceWriter } from '../../src/store/source-writer.js';

export const GENERATED_SESSION = 'ses_generated_10k';

/**
 * A long session written through the store's own writer from the normalised model, the way an
 * adapter's output is: `messages` assistant steps, each with one bash call; every 50th step a
 * group of three parallel calls, every 97th a timed-out pull, every 1,000th a 20,000-line log.
 */
export async function writeGeneratedSession(dbPath: string, messages: number): Promise<void> {
  const db = await Database.open(dbPath);
  try {
    const writer = await SourceWriter.begin(db, `generated:${messages}`, 'replace');
    const start = Date.parse('2026-03-01T08:00:00Z');
    writer.addSession({
      id: GENERATED_SESSION, agent: 'opencode', parentId: null, title: `Generated session of ${messages} messages`, directory: '/tmp',
      startedAt: start, endedAt: start + messages * 10_000, model: 'test-model', extra: null,
    });
    for (let n = 1; n <= messages; n += 1) {
      const id = `msg_${String(n).padStart(6, '0')}`;
      const at = start + n * 10_000;
      const message = { ...emptyMessage(GENERATED_SESSION, id, n % 10 === 1 ? 'user' : 'assistant'), createdAt: at, completedAt: at + 5_000, text: `step ${n}: checking node ${n % 7}` };
      const calls = message.role === 'user' ? [] : callsOf(n, id, at);
      await writer.addMessage(message, calls);
    }
    await writer.commit({ key: `generated:${messages}`, path: '/dev/null', format: 'opencode-export', size: 0, contentHash: `generated-${messages}`, bytesConsumed: null, linesConsumed: null, prefixHash: null }, 0);
  } finally {
    db.close();
  }
}

/** Rows of the session's timeline: every message plus every call. */
export function generatedRowCount(messages: number): number {
  let rows = 0;
  for (let n = 1; n <= messages; n += 1) rows += 1 + (n % 10 === 1 ? 0 : n % 97 === 0 || n % 1_000 === 0 ? 1 : n % 50 === 0 ? 3 : 1);
  return rows;
}

function call(n: number, messageId: string, at: number, index: number, command: string, extra: Partial<ToolCallRecord> = {}): ToolCallRecord {
  return {
    sessionId: GENERATED_SESSION, messageId, callId: `call_${n}_${index}`, tool: 'bash', status: 'completed', input: JSON.stringify({ command }), command,
    output: `ok ${n}\n`, title: null, startedAt: at + 100, endedAt: at + 1_100, durationMs: 1_000, exitCode: 0, timedOut: false, truncated: false,
    parallelGroup: null, extra: null, ...extra,
  };
}

function callsOf(n: number, messageId: string, at: number): ToolCallRecord[] {
  if (n % 97 === 0) {
    return [call(n, messageId, at, 0, `ssh aurora@10.1.230.180 'docker pull example/image:${n}'`, { exitCode: null, timedOut: true, durationMs: 120_000, output: 'bash tool terminated command after exceeding timeout 120000 ms' })];
  }
  if (n % 1_000 === 0) {
    const log = Array.from({ length: 20_000 }, (_, i) => `log line ${i + 1} of step ${n}`).join('\n');
    return [call(n, messageId, at, 0, 'cat /tmp/vllm-serve.log', { output: log })];
  }
  if (n % 50 === 0) {
    const group = `call_${n}_0`;
    return [0, 1, 2].map((index) => call(n, messageId, at, index, `ssh aurora@10.1.230.18${index} 'nvidia-smi'`, { parallelGroup: group }));
  }
  return [call(n, messageId, at, 0, `echo ${n}`)];
}
