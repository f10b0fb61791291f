import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { createOpencodeDb, insertV2Session, type DbSession, type V1Message } from '../helpers/opencode-db.js';
import { writeStorageTree, type OpencodeExport } from '../helpers/opencode-layouts.js';
import { AFTER_IMPORT, IMPORTED, NATIVE, NATIVE_EXPECTED, T0, writeGenerationsDb } from '../helpers/opencode-sessions.js';
import { storeBytes } from '../helpers/store-files.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { SECRET_SHAPES } from '../fixtures/secrets/shapes.js';

const dir = tempDir();

/** A 2.x data folder: a native 2.x session, one imported from 1.x, one 1.x wrote after the import. */
function writeDataFolder(root: string): string {
  return writeGenerationsDb(join(root, 'opencode.db'));
}

/** The ≤ 1.1 storage tree form of a 1.x session (ids inside every file). */
function asExport(session: DbSession, messages: readonly V1Message[]): OpencodeExport {
  return {
    info: { id: session.id, projectID: 'a3f1c0de9b7e4d2c8f6a5b4c3d2e1f0a9b8c7d6e', directory: session.directory, title: session.title, version: session.version, time: { created: session.created, updated: session.updated } },
    messages: messages.map(({ info, parts }) => ({
      info: { ...info, sessionID: session.id },
      parts: parts.map((part) => ({ ...part, sessionID: session.id, messageID: info.id })),
    })),
  };
}

async function callsOf(dbPath: string, sessionId: string) {
  return queryStore(dbPath, (db) =>
    db.all(`SELECT call_id, tool, command, exit_code, timed_out, duration_ms FROM tool_calls WHERE session_id = ? ORDER BY ordinal`, [sessionId]),
  );
}

describe('opencode 2.x opencode.db', () => {
  const data = join(dir, 'data');
  const file = writeDataFolder(data);

  it('ingests every session once from the file: messages, tool calls, exit codes, timeouts and durations', async () => {
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [file]);
    expect(summary.errors).toEqual([]);
    expect(summary.sessions).toBe(3);
    const sessions = await queryStore(dbPath, (db) => db.all(`SELECT id, message_count, tool_call_count FROM sessions ORDER BY id`));
    expect(sessions).toEqual([
      { id: AFTER_IMPORT.session.id, message_count: 2, tool_call_count: 1 },
      { id: NATIVE.session.id, message_count: NATIVE_EXPECTED.messages, tool_call_count: NATIVE_EXPECTED.toolCalls },
      { id: IMPORTED.session.id, message_count: 4, tool_call_count: 1 },
    ]);
    const calls = await callsOf(dbPath, NATIVE.session.id);
    expect(Object.fromEntries(calls.map((c) => [c['call_id'], c['exit_code']]))).toEqual(NATIVE_EXPECTED.exitCodes);
    expect(calls.filter((c) => c['timed_out'] === true).map((c) => c['call_id']).sort()).toEqual(NATIVE_EXPECTED.timedOut);
    for (const [call, ms] of Object.entries(NATIVE_EXPECTED.durations)) {
      expect(calls.find((c) => c['call_id'] === call)?.['duration_ms']).toBe(ms);
    }
    expect(calls.filter((c) => c['command'] !== null).map((c) => c['tool'])).toEqual(Array(6).fill('shell'));
  });

  it('keeps every 2.x message type in order, with its text and model, and no unknown record', async () => {
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [file]);
    expect(summary.unknown_records).toBe(0);
    expect(summary.unknown_fields).toEqual({});
    const rows = await queryStore(dbPath, (db) =>
      db.all(`SELECT role, model, text, reasoning, tokens_input, error FROM messages WHERE session_id = ? ORDER BY ordinal`, [NATIVE.session.id]),
    );
    expect(rows.map((r) => r['role'])).toEqual(NATIVE.messages.map((m) => m.type));
    expect(rows[0]?.['text']).toMatch(/^Serve Qwen\/Qwen3-30B-A3B/);
    expect(rows[1]).toMatchObject({ model: 'claude-sonnet-4-5', reasoning: expect.stringMatching(/arm64 build/), tokens_input: 5210 });
    expect(rows[6]?.['text']).toMatch(/served by nvcr\.io\/nvidia\/vllm:25\.09-py3/);
    const restart = await queryStore(dbPath, (db) => db.one(`SELECT status, output FROM tool_calls WHERE call_id = 'toolu_01RestartDocker'`));
    expect(restart).toEqual({ status: 'error', output: 'aborted: Tool execution aborted' });
    const parallel = await queryStore(dbPath, (db) => db.all(`SELECT call_id, parallel_group FROM tool_calls WHERE message_id = ? ORDER BY ordinal`, [NATIVE.messages[5]?.id ?? '']));
    expect(new Set(parallel.map((p) => p['parallel_group']))).toEqual(new Set(['toolu_01Health']));
  });

  it('counts a session held by both generations once, from its 2.x rows', async () => {
    const dbPath = tempDbPath(dir);
    await ingestPaths(dbPath, [file]);
    const session = await queryStore(dbPath, (db) => db.one(`SELECT title, message_count FROM sessions WHERE id = ?`, [IMPORTED.session.id]));
    expect(session).toEqual({ title: IMPORTED.titleIn2x, message_count: 4 });
    expect(await callsOf(dbPath, IMPORTED.session.id)).toEqual([
      { call_id: `toolu_v1_${T0 - 86_398_000}`, tool: 'shell', command: 'df -h /', exit_code: 0, timed_out: false, duration_ms: 3000 },
    ]);
  });

  it('reads a session 1.x wrote after the import from the 1.x tables, its <shell_metadata> timeout included', async () => {
    const dbPath = tempDbPath(dir);
    await ingestPaths(dbPath, [file]);
    const [call] = await callsOf(dbPath, AFTER_IMPORT.session.id);
    expect(call).toMatchObject({ tool: 'bash', exit_code: null, timed_out: true, duration_ms: 3000 });
    const version = await queryStore(dbPath, (db) => db.scalar(`SELECT extra->>'version' FROM sessions WHERE id = ?`, [AFTER_IMPORT.session.id]));
    expect(version).toBe('1.17.9');
  });

  it('reads a data folder (opencode.db + storage/) with each session once, storage-only sessions too', async () => {
    const root = join(dir, 'folder');
    writeDataFolder(root);
    writeStorageTree(asExport(AFTER_IMPORT.session, AFTER_IMPORT.messages), root);
    const older = { ...AFTER_IMPORT.session, id: 'ses_2f00aa11bffeOldTreeOnly0001', title: 'from the 1.1 tree', version: '1.1.20' };
    writeStorageTree(asExport(older, AFTER_IMPORT.messages.slice(0, 1)), root);
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [root]);
    expect(summary.errors).toEqual([]);
    expect([summary.sources, summary.sessions]).toEqual([4, 4]);
    const formats = await queryStore(dbPath, (db) => db.all(`SELECT format, count(*) AS n FROM sources GROUP BY format ORDER BY format`));
    expect(formats).toEqual([{ format: 'opencode-sqlite', n: 3 }, { format: 'opencode-storage', n: 1 }]);
    const duplicates = await queryStore(dbPath, (db) => db.scalar(`SELECT count(*) - count(DISTINCT session_id || id) FROM messages`));
    expect(duplicates).toBe(0);
  });

  it('lets no secret planted in 2.x rows reach the store: prompts, commands, outputs, metadata, extra fields', async () => {
    const secretFile = join(dir, 'secrets', 'opencode.db');
    const db = createOpencodeDb(secretFile, '2.x');
    const messages = SECRET_SHAPES.flatMap((shape, n) => {
      const at = T0 + 1_000_000 + n * 10_000;
      return [
        { id: `msg_s${String(n).padStart(3, '0')}u`, type: 'user', data: { text: `use this: ${shape.text}`, files: [{ name: 'env', data: shape.text }], time: { created: at } } },
        {
          id: `msg_s${String(n).padStart(3, '0')}a`, type: 'assistant',
          data: {
            agent: 'build', model: { id: 'claude-sonnet-4-5', providerID: 'anthropic' }, snapshot: { start: shape.text },
            content: [{
              type: 'tool', id: `toolu_s${n}`, name: 'shell',
              state: { status: 'completed', input: { command: `echo ${shape.text}` }, content: [{ type: 'text', text: shape.text }], structured: { output: shape.text }, metadata: { exit: 0, note: shape.text } },
              time: { created: at + 1, ran: at + 2, completed: at + 3 },
            }],
            time: { created: at + 1, completed: at + 4 },
          },
        },
        { id: `msg_s${String(n).padStart(3, '0')}c`, type: 'shell', data: { callID: `shl_s${n}`, command: `cat ${shape.text}`, output: shape.text, time: { created: at + 5, completed: at + 6 } } },
      ];
    });
    insertV2Session(db, { ...NATIVE.session, id: 'ses_2e0000000ffeSecretsPlanted', title: 'secrets' }, messages);
    db.close();
    const dbPath = tempDbPath(dir);
    const summary = await ingestPaths(dbPath, [secretFile]);
    expect(summary.errors).toEqual([]);
    expect(summary.messages).toBe(messages.length);
    expect(summary.redactions).toBeGreaterThanOrEqual(SECRET_SHAPES.length);
    const bytes = storeBytes(dbPath).toString('latin1');
    expect(SECRET_SHAPES.filter((shape) => bytes.includes(shape.secret)).map((shape) => shape.name)).toEqual([]);
  });
});
