import { emptyMessage, type MessageRecord, type SessionRecord, type ToolCallRecord } from '../../../src/core/model.js';
import { deriveSessions } from '../../../src/query/derive.js';
import { Database } from '../../../src/store/database.js';
import { SourceWriter } from '../../../src/store/source-writer.js';

/**
 * Sessions written straight from the normalised model (no agent format in between), so a test can
 * tell any story: each step is a message with optional reasoning, text and shell calls.
 */
export interface SyntheticCall {
  command: string;
  output: string;
  exit?: number | null;
  durationMs?: number;
  timedOut?: boolean;
  /** Not a shell call: a tool with a JSON input (web search, fetch). */
  tool?: string;
  input?: Record<string, unknown>;
}

export interface SyntheticStep {
  role: 'user' | 'assistant';
  text?: string;
  reasoning?: string;
  calls?: SyntheticCall[];
}

export interface SyntheticSession {
  id: string;
  agent?: SessionRecord['agent'];
  title: string;
  shellTool?: string;
  steps: SyntheticStep[];
}

export async function writeSynthetic(dbPath: string, session: SyntheticSession): Promise<void> {
  const db = await Database.open(dbPath);
  try {
    const start = Date.parse('2026-03-20T10:00:00Z');
    let clock = start;
    const writer = await SourceWriter.begin(db, `synthetic:${session.id}`, 'replace');
    writer.addSession({
      id: session.id, agent: session.agent ?? 'claude', parentId: null, title: session.title, directory: '/home/ops',
      startedAt: start, endedAt: null, model: 'synthetic', extra: null,
    });
    for (const [index, step] of session.steps.entries()) {
      const message: MessageRecord = { ...emptyMessage(session.id, `m${index + 1}`, step.role), createdAt: clock, completedAt: clock + 1000, text: step.text ?? '', reasoning: step.reasoning ?? '' };
      const calls: ToolCallRecord[] = (step.calls ?? []).map((call, callIndex) => {
        const duration = call.durationMs ?? 1500;
        const record: ToolCallRecord = {
          sessionId: session.id,
          messageId: message.id,
          callId: `call_${index + 1}_${callIndex + 1}`,
          tool: call.tool ?? session.shellTool ?? 'Bash',
          status: 'completed',
          input: JSON.stringify(call.input ?? { command: call.command }),
          command: call.tool ? null : call.command,
          output: call.output,
          title: null,
          startedAt: clock,
          endedAt: clock + duration,
          durationMs: duration,
          exitCode: call.tool ? null : call.exit === undefined ? 0 : call.exit,
          timedOut: call.timedOut ?? false,
          truncated: false,
          parallelGroup: null,
          extra: null,
        };
        clock += duration;
        return record;
      });
      clock += 5000;
      await writer.addMessage(message, calls);
    }
    await writer.commit({ key: `synthetic:${session.id}`, path: `synthetic/${session.id}`, format: 'opencode-export', size: 0, contentHash: session.id, bytesConsumed: null, linesConsumed: null, prefixHash: null }, 0);
    await deriveSessions(db, [session.id]);
  } finally {
    db.close();
  }
}
