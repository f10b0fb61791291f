import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { redactText } from '../../src/core/redact/redact.js';
import { runRetrace, runRetraceJson, REPO_ROOT } from '../helpers/cli.js';
import { toExport, type GeneratedMessage } from '../helpers/opencode-arbitraries.js';
import { plantedSecrets, SESSIONS_DIR } from '../helpers/sample.js';
import { storeBytes } from '../helpers/store-files.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { NOT_SECRETS, SECRET_SHAPES } from '../fixtures/secrets/shapes.js';

const dir = tempDir('retrace-secrets-');
const CLAUDE_FIXTURE = join(REPO_ROOT, 'test/fixtures/claude/projects/-home-ops-gptoss/d96690bf-84e5-4021-84e4-48dbd0b8dfa3.jsonl');
const CODEX_FIXTURE = join(REPO_ROOT, 'test/fixtures/codex/sessions/2026/03/11/rollout-2026-03-11T09-14-03-019cdc2c-b578-75be-8b9e-001e204112ed.jsonl');

/** Every shape, planted in each field a transcript carries text in: command, output, reasoning, text, a file written. */
function openCodeWithSecrets(): string {
  const messages: GeneratedMessage[] = SECRET_SHAPES.map((shape, i) => ({
    id: `msg_${String(i).padStart(4, '0')}secret`,
    role: 'assistant',
    text: `Step ${i}: ${shape.text}`,
    reasoning: `I will use ${shape.text}`,
    created: 1_772_113_267_000 + i * 60_000,
    calls: [{ callId: `call_secret_${i}`, command: shape.text, output: `ran: ${shape.text}`, exit: 0, start: 1_772_113_268_000 + i * 60_000, durationMs: 10 }],
  }));
  const doc = toExport(messages);
  // A file written through opencode's write tool: the secret sits in the file's contents.
  doc.messages[0]?.parts.push({
    id: 'prt_write_secrets', sessionID: 'ses_generated0000000000000001', messageID: messages[0]?.id, type: 'tool', callID: 'call_write', tool: 'write',
    state: { status: 'completed', input: { filePath: '/home/ops/.env', content: SECRET_SHAPES.map((s) => s.text).join('\n') }, output: '', title: '.env', metadata: {}, time: { start: 1, end: 2 } },
  });
  const file = join(dir, 'opencode-secrets.json');
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}

/** The Claude Code fixture with one more assistant turn per shape: thinking, a Bash call, its result, and a Write. */
function claudeWithSecrets(): string {
  const lines = readFileSync(CLAUDE_FIXTURE, 'utf8').trimEnd().split('\n');
  const base = JSON.parse(lines.find((l) => l.includes('"name":"Bash"')) ?? '{}') as Record<string, unknown>;
  const out: string[] = [...lines];
  SECRET_SHAPES.forEach((shape, i) => {
    const id = `toolu_secret${String(i).padStart(4, '0')}`;
    const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const at = (s: number) => new Date(Date.UTC(2026, 1, 18, 10, i, s)).toISOString();
    const message = { ...(base['message'] as object), id: `msg_secret${i}`, content: [
      { type: 'thinking', thinking: `I need ${shape.text}`, signature: 'sig' },
      { type: 'tool_use', id, name: 'Bash', input: { command: shape.text, description: 'planted' } },
      { type: 'tool_use', id: `${id}w`, name: 'Write', input: { file_path: '/home/ops/.env', content: shape.text } },
    ] };
    out.push(JSON.stringify({ ...base, message, uuid, timestamp: at(0) }));
    out.push(JSON.stringify({
      ...base, type: 'user', uuid: `${uuid.slice(0, -1)}1`, timestamp: at(5), message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: `out: ${shape.text}`, is_error: false }] },
      toolUseResult: { stdout: `out: ${shape.text}`, stderr: '', interrupted: false, isImage: false },
    }));
  });
  const file = join(dir, 'claude', 'projects', '-home-ops-secrets', 'd96690bf-84e5-4021-84e4-48dbd0b8dfa3.jsonl');
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, `${out.join('\n')}\n`);
  return file;
}

/** The Codex fixture with, per shape, a reasoning summary, an exec_command, its output and an apply_patch. */
function codexWithSecrets(): string {
  const lines = readFileSync(CODEX_FIXTURE, 'utf8').trimEnd().split('\n');
  const out = [...lines];
  SECRET_SHAPES.forEach((shape, i) => {
    const at = (s: number) => new Date(Date.UTC(2026, 2, 11, 11, i, s)).toISOString();
    const callId = `call_secret_${i}`;
    out.push(JSON.stringify({ timestamp: at(0), type: 'response_item', payload: { type: 'reasoning', summary: [{ type: 'summary_text', text: `**Using** ${shape.text}` }], content: null, encrypted_content: null } }));
    out.push(JSON.stringify({ timestamp: at(1), type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: shape.text }), call_id: callId } }));
    out.push(JSON.stringify({ timestamp: at(2), type: 'response_item', payload: { type: 'function_call_output', call_id: callId, output: `Exit code: 0\nWall time: 0.1 seconds\nOutput:\n${shape.text}` } }));
    out.push(JSON.stringify({ timestamp: at(3), type: 'response_item', payload: { type: 'custom_tool_call', status: 'completed', call_id: `${callId}p`, name: 'apply_patch', input: `*** Begin Patch\n*** Add File: .env\n+${shape.text.split('\n').join('\n+')}\n*** End Patch` } }));
  });
  const file = join(dir, 'codex', 'sessions', '2026', '03', '11', 'rollout-2026-03-11T09-14-03-019cdc2c-b578-75be-8b9e-001e204112ed.jsonl');
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, `${out.join('\n')}\n`);
  return file;
}

function filesUnder(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

function leaks(bytes: Buffer, secrets: readonly string[]): string[] {
  return secrets.filter((secret) => bytes.includes(Buffer.from(secret)));
}

const ALL_SECRETS = [...SECRET_SHAPES.map((s) => s.secret), ...plantedSecrets()];

describe('secrets: the shapes', () => {
  it(`covers at least 50 shapes, each removed by redaction`, () => {
    expect(SECRET_SHAPES.length).toBeGreaterThanOrEqual(50);
    for (const shape of SECRET_SHAPES) expect(redactText(shape.text, {}), shape.name).not.toContain(shape.secret);
  });

  it('leaves digests, git SHAs, UUIDs, model names, ports and references alone', () => {
    for (const text of NOT_SECRETS) expect(redactText(text, {})).toBe(text);
  });
});

describe('secrets planted across every agent format', () => {
  const db = tempDbPath(dir);
  let sessions: { id: string; agent: string }[] = [];

  beforeAll(async () => {
    const run = await runRetraceJson<{ errors: unknown[]; redactions: number }>(['ingest', openCodeWithSecrets(), claudeWithSecrets(), codexWithSecrets(), SESSIONS_DIR, '--db', db]);
    expect(run.json.errors).toEqual([]);
    expect(run.json.redactions).toBeGreaterThanOrEqual(SECRET_SHAPES.length * 3);
    sessions = (await runRetraceJson<{ id: string; agent: string }[]>(['sessions', '--db', db])).json;
  }, 120_000);

  it('leaves none in the database file or its write-ahead log', () => {
    expect(new Set(sessions.map((s) => s.agent))).toEqual(new Set(['opencode', 'claude', 'codex']));
    expect(leaks(storeBytes(db), ALL_SECRETS)).toEqual([]);
  });

  it('puts none in a markdown, mermaid or parquet export of any session', async () => {
    for (const session of sessions) {
      for (const format of ['markdown', 'mermaid']) {
        const run = await runRetrace(['export', session.id, '--to', format, '--db', db]);
        expect(run.code, run.stderr).toBe(0);
        expect(leaks(Buffer.from(run.stdout), ALL_SECRETS), `${format} of ${session.id}`).toEqual([]);
      }
      const folder = join(dir, 'parquet', session.id.replace(/[^A-Za-z0-9_-]/g, '_'));
      const parquet = await runRetrace(['export', session.id, '--to', 'parquet', '-o', folder, '--db', db]);
      expect(parquet.code, parquet.stderr).toBe(0);
      const bytes = Buffer.concat(filesUnder(folder).map((f) => readFileSync(f)));
      expect(bytes.length).toBeGreaterThan(0);
      expect(leaks(bytes, ALL_SECRETS)).toEqual([]);
    }
  }, 120_000);

  it('puts none in the plan, the sh script or the ansible playbook of the sample', async () => {
    const sample = sessions.find((s) => s.id.startsWith('ses_365d'));
    expect(sample).toBeDefined();
    const plan = await runRetrace(['plan', sample?.id ?? '', '--db', db]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(leaks(Buffer.from(plan.stdout), ALL_SECRETS)).toEqual([]);
    for (const format of ['sh', 'ansible']) {
      const target = join(dir, `export-${format}`);
      const run = await runRetrace(['export', sample?.id ?? '', '--to', format, '-o', target, '--db', db]);
      expect(run.code, run.stderr).toBe(0);
      const bytes = Buffer.concat([Buffer.from(run.stdout), ...filesUnder(target).map((f) => readFileSync(f))]);
      expect(leaks(bytes, ALL_SECRETS)).toEqual([]);
    }
  }, 60_000);
});
