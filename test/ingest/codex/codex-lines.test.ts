import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexAdapter } from '../../../src/ingest/codex/index.js';
import { ingestPaths, queryStore } from '../../helpers/ingest.js';
import { tempDbPath, tempDir } from '../../helpers/temp.js';

const dir = tempDir();
const THREAD = '019d0000-0000-7000-8000-00000000abcd';
let clock = Date.parse('2026-03-20T08:00:00.000Z');
const line = (type: string, payload: object) => ({ timestamp: new Date((clock += 1000)).toISOString(), type, payload });
const meta = line('session_meta', { id: THREAD, timestamp: '2026-03-20T08:00:00.000Z', cwd: '/srv', originator: 'codex_cli_rs', cli_version: '0.120.0', source: 'cli', model_provider: 'openai' });
const turn = (model: string) => line('turn_context', { turn_id: 't', cwd: '/srv', model });
const user = (text: string) => line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const exec = (callId: string, cmd: string) => line('response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd }), call_id: callId });
const output = (callId: string, text: string) => line('response_item', { type: 'function_call_output', call_id: callId, output: text });
const event = (type: string, rest: object = {}) => line('event_msg', { type, ...rest });
const totals = (input: number, output: number) => event('token_count', { info: { total_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: output } } });

function rollout(lines: object[]): string {
  const file = join(dir, `rollout-2026-03-20T08-00-00-${THREAD}-${clock}.jsonl`);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

describe('Codex lines', () => {
  it('an aborted turn ends its unanswered calls as errors; a server left running stays `running`', async () => {
    const file = rollout([
      meta, turn('gpt-5.2-codex'), user('start the server'),
      exec('call_srv', 'vllm serve m'), totals(100, 10),
      output('call_srv', 'Chunk ID: a\nWall time: 10.0 seconds\nProcess running with session ID 7\nOutput:\nloading\n'),
      event('task_complete', { turn_id: 't' }),
      turn('gpt-5.2-codex'), user('check it'),
      exec('call_chk', 'curl localhost:8000/health'), totals(250, 25),
      event('turn_aborted', { reason: 'interrupted' }),
      output('call_nobody', 'late'),
      event('thread_name_updated', { thread_name: 'vLLM server' }),
      event('mystery_event', { x: 1 }),
      line('response_item', { type: 'ghost_snapshot', ghost_commit: {} }),
      line('response_item', { type: 'function_call', name: 42, call_id: 'bad' }),
    ]);
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [file]);
    expect(summary.errors).toEqual([expect.objectContaining({ file, line: 17, message: expect.stringContaining('function_call: name') })]);
    const calls = await queryStore(dbPath, (db) => db.all(`SELECT call_id, status, exit_code, extra->>'aborted' AS aborted FROM tool_calls ORDER BY call_id`));
    expect(calls).toEqual([
      { call_id: 'call_chk', status: 'error', exit_code: null, aborted: 'interrupted' },
      { call_id: 'call_srv', status: 'running', exit_code: null, aborted: null },
    ]);
    // Old files give only running totals: each response gets the growth since the last one.
    const tokens = await queryStore(dbPath, (db) => db.all(`SELECT tokens_input, tokens_output FROM messages WHERE role = 'assistant' ORDER BY ordinal`));
    expect(tokens).toEqual([{ tokens_input: 100, tokens_output: 10 }, { tokens_input: 150, tokens_output: 15 }]);
    const unknown = await queryStore(dbPath, (db) => db.all(`SELECT what, line FROM unknown_records ORDER BY line`));
    expect(unknown).toEqual([
      { what: 'function_call_output:orphan', line: 13 },
      // An undo snapshot is a known kind passed over on purpose (codex-rs rollout/policy.rs persists it).
      { what: 'event_msg:mystery_event', line: 15 },
    ]);
    const session = await queryStore(dbPath, (db) => db.all(`SELECT id, title, model, directory FROM sessions`));
    expect(session).toEqual([{ id: THREAD, title: 'vLLM server', model: 'gpt-5.2-codex', directory: '/srv' }]);
  });
});

describe('Codex session_meta', () => {
  it('takes the thread id from `session_id` when a build names it so (codex-rs reads both)', async () => {
    const id = '019e0000-0000-7000-8000-0000000051d0';
    const file = join(dir, `rollout-2026-10-01T08-00-00-${id}.jsonl`);
    const lines = [
      { timestamp: '2026-10-01T08:00:00.000Z', type: 'session_meta', payload: { session_id: id, cwd: '/srv', cli_version: '0.142.0', originator: 'codex_cli_rs' } },
      { timestamp: '2026-10-01T08:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] } },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [file]);
    expect(summary.errors).toEqual([]);
    expect(await queryStore(dbPath, (db) => db.all(`SELECT id, directory, extra->>'cliVersion' AS version FROM sessions`))).toEqual([{ id, directory: '/srv', version: '0.142.0' }]);
  });
});

describe('Codex locations', () => {
  it('reads $CODEX_HOME/sessions, by default ~/.codex/sessions', () => {
    expect(codexAdapter.defaultLocations({}, '/home/u')).toEqual(['/home/u/.codex/sessions']);
    expect(codexAdapter.defaultLocations({ CODEX_HOME: '/srv/codex' }, '/home/u')).toEqual(['/srv/codex/sessions']);
  });
});
