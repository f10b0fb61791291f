/**
 * Minimal transcripts of each agent's format with one tool call whose input and output a test
 * chooses: a tool input can carry raw JSON of any depth (JSON.stringify cannot build it, so it is
 * spliced in as text), and an output of any size.
 */

export interface ToolCallShape {
  /** The shell command the call ran. */
  command: string;
  /** Raw JSON text of an extra input field `deep`, spliced in unparsed (e.g. 20,000 nested arrays). */
  deepInputJson?: string;
  output: string;
}

/** Replaces the `deep` field's placeholder by raw JSON text, or drops the field (`inString`: inside a JSON string). */
function splice(json: string, raw: string | undefined, inString = false): string {
  const q = inString ? '\\"' : '"';
  if (raw === undefined) return json.replace(`,${q}deep${q}:${q}__RETRACE_SPLICE__${q}`, '');
  const value = inString ? raw.replace(/\\/g, '\\\\').replace(/"/g, '\\"') : raw;
  return json.replace(`${q}__RETRACE_SPLICE__${q}`, () => value);
}

export const CLAUDE_SESSION = '7c2e3a51-0d4b-4c6e-9f1a-2b3c4d5e6f70';
export const CODEX_SESSION = '019d0000-1111-7222-8333-944455556666';
export const OPENCODE_SESSION = 'ses_hardening0000000000000001';

export function claudeTranscript(call: ToolCallShape): string {
  const at = (s: number): string => new Date(Date.UTC(2026, 0, 2, 3, 4, s)).toISOString();
  const base = { sessionId: CLAUDE_SESSION, cwd: '/work', version: '2.0.50', userType: 'external', isSidechain: false };
  const lines = [
    { ...base, type: 'user', uuid: 'u1', parentUuid: null, timestamp: at(0), message: { role: 'user', content: 'Check the host.' } },
    { ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: at(1), message: { id: 'msg_01', role: 'assistant', model: 'claude-test', content: [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: call.command, deep: '__RETRACE_SPLICE__' } }] } },
    { ...base, type: 'user', uuid: 'u2', parentUuid: 'a1', timestamp: at(2), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: call.output }] } },
    { ...base, type: 'assistant', uuid: 'a2', parentUuid: 'u2', timestamp: at(3), message: { id: 'msg_02', role: 'assistant', model: 'claude-test', content: [{ type: 'text', text: 'The host answered.' }] } },
  ];
  return `${lines.map((line) => splice(JSON.stringify(line), call.deepInputJson)).join('\n')}\n`;
}

export function codexTranscript(call: ToolCallShape): string {
  const at = (s: number): string => new Date(Date.UTC(2026, 0, 2, 3, 4, s)).toISOString();
  const item = (s: number, payload: object): object => ({ timestamp: at(s), type: 'response_item', payload });
  const lines = [
    { timestamp: at(0), type: 'session_meta', payload: { id: CODEX_SESSION, timestamp: at(0), cwd: '/work', originator: 'codex_cli_rs', cli_version: '0.112.0' } },
    item(0, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Check the host.' }] }),
    item(1, { type: 'function_call', name: 'shell', call_id: 'call_01', arguments: JSON.stringify({ command: ['bash', '-lc', call.command], deep: '__RETRACE_SPLICE__' }) }),
    item(2, { type: 'function_call_output', call_id: 'call_01', output: call.output }),
    item(3, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'The host answered.' }] }),
  ];
  return `${lines.map((line) => splice(JSON.stringify(line), call.deepInputJson, true)).join('\n')}\n`;
}

export function opencodeExport(call: ToolCallShape): string {
  const t = 1_767_322_000_000;
  const message = (id: string, role: string, created: number, parts: object[]): object => ({
    info: { id, sessionID: OPENCODE_SESSION, role, time: { created, completed: created + 500 }, ...(role === 'assistant' ? { parentID: 'msg_user01', modelID: 'test', providerID: 'test' } : {}) },
    parts: parts.map((part, i) => ({ id: `prt_${id}_${i}`, sessionID: OPENCODE_SESSION, messageID: id, ...part })),
  });
  const doc = {
    info: { id: OPENCODE_SESSION, projectID: 'p', directory: '/work', title: 'hardening', version: '1.2.6', time: { created: t, updated: t + 5000 } },
    messages: [
      message('msg_user01', 'user', t, [{ type: 'text', text: 'Check the host.' }]),
      message('msg_asst01', 'assistant', t + 1000, [{
        type: 'tool', callID: 'call_01', tool: 'bash',
        state: { status: 'completed', input: { command: call.command, deep: '__RETRACE_SPLICE__' }, output: call.output, title: call.command, metadata: { exit: 0 }, time: { start: t + 1000, end: t + 2000 } },
      }]),
      message('msg_asst02', 'assistant', t + 3000, [{ type: 'text', text: 'The host answered.' }]),
    ],
  };
  return splice(JSON.stringify(doc), call.deepInputJson);
}

export interface AgentTranscript {
  agent: 'claude' | 'codex' | 'opencode';
  fileName: string;
  text: (call: ToolCallShape) => string;
}

export const AGENT_TRANSCRIPTS: readonly AgentTranscript[] = [
  { agent: 'claude', fileName: `${CLAUDE_SESSION}.jsonl`, text: claudeTranscript },
  { agent: 'codex', fileName: `rollout-2026-01-02T03-04-00-${CODEX_SESSION}.jsonl`, text: codexTranscript },
  { agent: 'opencode', fileName: 'export.json', text: opencodeExport },
];
