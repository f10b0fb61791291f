import fc from 'fast-check';

/** fast-check generators of opencode export documents: realistic shapes, arbitrary contents. */
export interface GeneratedCall {
  callId: string;
  command: string;
  output: string;
  exit: number | null;
  start: number;
  durationMs: number;
}

export interface GeneratedMessage {
  id: string;
  role: 'user' | 'assistant';
  text: string;
  reasoning: string;
  created: number;
  calls: GeneratedCall[];
}

const text = fc.string({ unit: 'binary', maxLength: 200 });

export const generatedSession = fc
  .array(
    fc.record({
      role: fc.constantFrom('user' as const, 'assistant' as const),
      text,
      reasoning: text,
      calls: fc.array(
        fc.record({ command: text, output: text, exit: fc.option(fc.integer({ min: 0, max: 255 }), { nil: null }), durationMs: fc.integer({ min: 0, max: 3_600_000 }) }),
        { maxLength: 3 },
      ),
    }),
    { minLength: 3, maxLength: 10 },
  )
  .map((raw): GeneratedMessage[] =>
    raw.map((m, i) => {
      const created = 1_772_113_267_000 + i * 10_000_000;
      return {
        id: `msg_${String(i).padStart(4, '0')}gen`,
        role: m.role,
        text: m.text,
        reasoning: m.role === 'assistant' ? m.reasoning : '',
        created,
        calls: m.role === 'assistant' ? m.calls.map((c, j) => ({ ...c, callId: `call_${i}_${j}`, start: created + 1000 + j * 10 })) : [],
      };
    }),
  );

export const SESSION_ID = 'ses_generated0000000000000001';

/** The export document opencode would write for these messages. */
export function toExport(messages: readonly GeneratedMessage[]): { info: object; messages: { info: Record<string, unknown>; parts: Record<string, unknown>[] }[] } {
  return {
    info: { id: SESSION_ID, projectID: 'p', directory: '/w', title: 'generated', version: '1.2.6', time: { created: 1_772_113_267_000, updated: 1_772_113_267_000 } },
    messages: messages.map((m) => {
      const base = { id: m.id, sessionID: SESSION_ID, role: m.role, time: { created: m.created, completed: m.created + 5000 } };
      const info = m.role === 'assistant' ? { ...base, parentID: 'msg_0000gen', modelID: 'model', providerID: 'provider', tokens: { input: 1, output: 2, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0 } : base;
      const parts: Record<string, unknown>[] = [{ id: `prt_${m.id}_t`, sessionID: SESSION_ID, messageID: m.id, type: 'text', text: m.text }];
      if (m.reasoning) parts.push({ id: `prt_${m.id}_r`, sessionID: SESSION_ID, messageID: m.id, type: 'reasoning', text: m.reasoning, time: { start: m.created, end: m.created + 1 } });
      for (const call of m.calls) {
        parts.push({
          id: `prt_${call.callId}`, sessionID: SESSION_ID, messageID: m.id, type: 'tool', callID: call.callId, tool: 'bash',
          state: {
            status: 'completed', input: { command: call.command, description: 'generated' }, output: call.output, title: 'generated',
            metadata: { output: call.output, exit: call.exit, description: 'generated', truncated: false },
            time: { start: call.start, end: call.start + call.durationMs },
          },
        });
      }
      return { info, parts };
    }),
  };
}
