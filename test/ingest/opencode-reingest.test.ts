import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { appendV2Message, createOpencodeDb, insertV1Session, insertV2Session, opencodeId, rewriteV2Message, type V2Message } from '../helpers/opencode-db.js';
import { AFTER_IMPORT, IMPORTED, NATIVE, T0 } from '../helpers/opencode-sessions.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir();

async function rowsOf(dbPath: string, sessionId: string) {
  return queryStore(dbPath, async (db) => ({
    messages: await db.all(`SELECT id, ordinal, role, text FROM messages WHERE session_id = ? ORDER BY ordinal`, [sessionId]),
    calls: await db.all(`SELECT call_id, ordinal, tool, output, exit_code FROM tool_calls WHERE session_id = ? ORDER BY ordinal`, [sessionId]),
    counts: await db.one(`SELECT message_count, tool_call_count FROM sessions WHERE id = ?`, [sessionId]),
  }));
}

describe('re-ingesting an opencode.db whose rows opencode rewrote in place', () => {
  it('stores the changed row and the new one, skips untouched sessions, adds no duplicates', async () => {
    const file = join(dir, 'in-place', 'opencode.db');
    const db = createOpencodeDb(file, '2.x');
    insertV2Session(db, NATIVE.session, NATIVE.messages);
    insertV1Session(db, IMPORTED.session, IMPORTED.v1);
    insertV1Session(db, AFTER_IMPORT.session, AFTER_IMPORT.messages);
    db.close();
    const dbPath = tempDbPath(dir);
    const first = await ingestPaths(dbPath, [file]);
    expect([first.sessions, first.errors.length]).toEqual([3, 0]);

    // The last step is rewritten as it streams on: the health check's answer and the closing text.
    const last = NATIVE.messages[5];
    if (!last) throw new Error('NATIVE lost its last assistant step');
    const data = structuredClone(last.data);
    const content = data['content'] as { type: string; text?: string; state?: { content?: unknown[] } }[];
    const health = content[0];
    if (!health?.state) throw new Error('NATIVE lost its health check');
    health.state.content = [{ type: 'text', text: '{"status":"ok"}' }, { type: 'text', text: 'Command exited with code 0.' }];
    const closing = content[2];
    if (closing) closing.text = 'vLLM answers on port 8000: {"status":"ok"}.';
    const writer = new Database(file);
    rewriteV2Message(writer, last.id, data, T0 + 500_000);
    const thanks: V2Message = { id: opencodeId('msg', T0 + 600_000, 0), type: 'user', data: { text: 'Thanks, leave it running.', time: { created: T0 + 600_000 } } };
    appendV2Message(writer, NATIVE.session.id, thanks);
    writer.close();

    const second = await ingestPaths(dbPath, [file]);
    expect(second.errors).toEqual([]);
    expect(second.skipped_unchanged).toBe(2);
    expect(second).toMatchObject({ messages: 1, messages_updated: 1, tool_calls: 0, tool_calls_updated: 1, messages_removed: 0, tool_calls_removed: 0 });
    const rows = await rowsOf(dbPath, NATIVE.session.id);
    expect(rows.messages.map((m) => m['ordinal'])).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    expect(rows.messages.at(-1)).toMatchObject({ id: thanks.id, role: 'user', text: 'Thanks, leave it running.' });
    expect(rows.messages[5]?.['text']).toBe('vLLM answers on port 8000: {"status":"ok"}.');
    expect(rows.calls.find((c) => c['call_id'] === 'toolu_01Health')?.['output']).toBe('{"status":"ok"}\n\nCommand exited with code 0.');
    expect(rows.counts).toEqual({ message_count: 11, tool_call_count: 7 });

    const third = await ingestPaths(dbPath, [file]);
    expect([third.skipped_unchanged, third.messages, third.messages_updated]).toEqual([3, 0, 0]);
  });

  it('replaces a 1.x read with the 2.x rows once the importer takes the session over, dropping what it merged away', async () => {
    const file = join(dir, 'takeover', 'opencode.db');
    const db = createOpencodeDb(file, '2.x');
    // The 1.x session also holds a user message made only of a subtask part: the importer drops it.
    const subtaskOnly = {
      info: { id: opencodeId('msg', T0 + 950_000, 0), role: 'user', time: { created: T0 + 950_000 }, agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' } },
      parts: [{ id: opencodeId('prt', T0 + 950_000, 1), type: 'subtask', prompt: 'profile the server', description: 'profile', agent: 'general' }],
    };
    insertV1Session(db, AFTER_IMPORT.session, [...AFTER_IMPORT.messages, subtaskOnly]);
    db.close();
    const dbPath = tempDbPath(dir);
    await ingestPaths(dbPath, [file]);
    expect((await rowsOf(dbPath, AFTER_IMPORT.session.id)).counts).toEqual({ message_count: 3, tool_call_count: 1 });

    const [user, assistant] = AFTER_IMPORT.messages;
    const part = assistant?.parts[1];
    if (!user || !assistant || !part) throw new Error('AFTER_IMPORT lost its messages');
    const state = part['state'] as { input: unknown; output: string; metadata: Record<string, unknown>; time: { start: number; end: number } };
    const importer = new Database(file);
    insertV2Session(importer, { ...AFTER_IMPORT.session, version: '2.0.14' }, [
      { id: user.info.id, type: 'user', data: { text: 'Run the throughput benchmark against spark-1:8000.', time: { created: user.info.time.created } } },
      {
        id: assistant.info.id, type: 'assistant',
        data: {
          agent: 'build', model: { id: 'claude-sonnet-4-5', providerID: 'anthropic', variant: 'default' },
          content: [{ type: 'tool', id: String(part['callID']), name: 'shell', state: { status: 'completed', input: state.input, content: [{ type: 'text', text: state.output }], metadata: state.metadata }, time: { created: state.time.start, completed: state.time.end } }],
          time: { created: assistant.info.time.created, completed: assistant.info.time.completed },
        },
      },
    ]);
    importer.close();

    const second = await ingestPaths(dbPath, [file]);
    expect(second.errors).toEqual([]);
    expect(second).toMatchObject({ messages: 0, messages_removed: 1, tool_calls_removed: 0, tool_calls_updated: 1 });
    const rows = await rowsOf(dbPath, AFTER_IMPORT.session.id);
    expect(rows.messages.map((m) => [m['ordinal'], m['id']])).toEqual([[1, user.info.id], [2, assistant.info.id]]);
    expect(rows.calls).toEqual([expect.objectContaining({ tool: 'shell', exit_code: null, ordinal: 1 })]);
    expect(rows.counts).toEqual({ message_count: 2, tool_call_count: 1 });
  });

  it('as a data folder (the folder holding opencode.db, as with no PATH), re-ingest stores a row rewritten in place and a new one', async () => {
    const folder = join(dir, 'data-folder');
    const file = join(folder, 'opencode.db');
    const db = createOpencodeDb(file, '2.x');
    insertV2Session(db, NATIVE.session, NATIVE.messages);
    insertV1Session(db, AFTER_IMPORT.session, AFTER_IMPORT.messages);
    db.close();
    const dbPath = tempDbPath(dir);
    expect(await ingestPaths(dbPath, [folder])).toMatchObject({ sessions: 2, errors: [] });

    const first = NATIVE.messages[0];
    if (!first) throw new Error('NATIVE lost its first message');
    const writer = new Database(file);
    rewriteV2Message(writer, first.id, { ...first.data, text: 'Serve Qwen3-30B-A3B on spark-1, port 8001 this time.' }, T0 + 700_000);
    appendV2Message(writer, NATIVE.session.id, { id: opencodeId('msg', T0 + 800_000, 0), type: 'user', data: { text: 'And keep it running.', time: { created: T0 + 800_000 } } });
    writer.close();

    const second = await ingestPaths(dbPath, [folder]);
    expect(second).toMatchObject({ errors: [], skipped_unchanged: 1, messages: 1, messages_updated: 1, messages_removed: 0 });
    const rows = await rowsOf(dbPath, NATIVE.session.id);
    expect(rows.messages[0]?.['text']).toBe('Serve Qwen3-30B-A3B on spark-1, port 8001 this time.');
    expect(rows.messages.at(-1)?.['text']).toBe('And keep it running.');
    expect(await queryStore(dbPath, (store) => store.scalar(`SELECT count(*) - count(DISTINCT id) FROM sessions`))).toBe(0);
  });
});
