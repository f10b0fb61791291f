import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';
import { writeStorageTree, type OpencodeExport } from './opencode-layouts.js';
import { fake, makeShapes, NOT_SECRETS, type SecretShape } from '../fixtures/secrets/shapes.js';

/**
 * The adversarial corpus: every secret shape planted, each time with a fresh secret, in every
 * place a secret lands — tool outputs, tool inputs (commands, JSON fields, argv arrays), reasoning,
 * message text, files the agent wrote, sidecars (Claude's toolUseResult, opencode's part files, a
 * subagent transcript), session titles and the transcript's own folder name — in all three
 * agents' formats. Every look-alike is planted too, between sentinel lines, so a test can find
 * each copy and check it arrived byte for byte. Deterministic: the same files every run.
 */

export interface SecretCorpus {
  /** Paths to ingest. */
  inputs: string[];
  /** Every planted secret (distinct strings). */
  secrets: string[];
  /** Distinct shapes planted. */
  shapes: number;
  /** Where secrets were planted, by agent. */
  places: Record<string, string[]>;
  /** Every planted look-alike block (sentinels included): each must be found whole in the store. */
  lookAlikeBlocks: string[];
}

const CLAUDE_FIXTURE = join(REPO_ROOT, 'test/fixtures/claude/projects/-home-ops-gptoss/d96690bf-84e5-4021-84e4-48dbd0b8dfa3.jsonl');
const CODEX_FIXTURE = join(REPO_ROOT, 'test/fixtures/codex/sessions/2026/03/11/rollout-2026-03-11T09-14-03-019cdc2c-b578-75be-8b9e-001e204112ed.jsonl');

/** A token that can stand in a folder name or a title. */
const pathToken = (seed: string): string => `hf_${fake(`path/${seed}`, 34)}`;
const titleTokens = (seed: string): string[] => [`ghp_${fake(`title/${seed}`, 36)}`, `sk-proj-${fake(`title2/${seed}`, 40)}`];

function block(id: string, text: string): string {
  return `«${id}»\n${text}\n«/${id}»`;
}

class Planter {
  readonly secrets = new Set<string>();
  readonly places: Record<string, string[]> = {};
  readonly lookAlikeBlocks: string[] = [];

  shapes(agent: string, place: string): SecretShape[] {
    (this.places[agent] ??= []).push(place);
    const shapes = makeShapes(`${agent}/${place}`);
    for (const shape of shapes) this.secrets.add(shape.secret);
    return shapes;
  }

  add(agent: string, place: string, secrets: readonly string[]): void {
    (this.places[agent] ??= []).push(place);
    for (const secret of secrets) this.secrets.add(secret);
  }

  lookAlikes(agent: string, place: string): string[] {
    return NOT_SECRETS.map((text, i) => {
      const planted = block(`LA${i}-${agent}-${place}`, text);
      this.lookAlikeBlocks.push(planted);
      return planted;
    });
  }
}

function writeOpencode(dir: string, p: Planter): string {
  const sessionId = 'ses_secretcorpus00000000000001';
  const root = join(dir, `opencode-${pathToken('opencode')}`);
  p.add('opencode', 'path', [pathToken('opencode')]);
  p.add('opencode', 'title', titleTokens('opencode'));
  const [text, reasoning, command, output, written, metadata] = ['text', 'reasoning', 'input', 'output', 'written file', 'sidecar'].map((place) => p.shapes('opencode', place)) as SecretShape[][];
  const looks = { text: p.lookAlikes('opencode', 'text'), output: p.lookAlikes('opencode', 'output'), input: p.lookAlikes('opencode', 'input') };
  const messages: OpencodeExport['messages'] = [];
  const count = Math.max(text?.length ?? 0, NOT_SECRETS.length);
  for (let i = 0; i < count; i++) {
    const id = `msg_${String(i).padStart(4, '0')}secretcorpus`;
    const at = 1_772_113_267_000 + i * 60_000;
    const part = (suffix: string, body: Record<string, unknown>) => ({ id: `prt_${id}_${suffix}`, sessionID: sessionId, messageID: id, ...body }) as OpencodeExport['messages'][number]['parts'][number];
    const parts = [
      part('t', { type: 'text', text: [text?.[i]?.text, looks.text[i]].filter(Boolean).join('\n\n') }),
      part('r', { type: 'reasoning', text: reasoning?.[i]?.text ?? 'thinking', time: { start: at, end: at + 1 } }),
      part('b', {
        type: 'tool', callID: `call_${i}`, tool: 'bash',
        state: {
          status: 'completed', input: { command: [command?.[i]?.text, looks.input[i]].filter(Boolean).join('\n'), description: 'planted' },
          output: [output?.[i]?.text, looks.output[i]].filter(Boolean).join('\n'), title: 'planted',
          metadata: { output: metadata?.[i]?.text ?? '', exit: 0, description: 'planted', truncated: false }, time: { start: at, end: at + 10 },
        },
      }),
      part('w', {
        type: 'tool', callID: `call_w${i}`, tool: 'write',
        state: { status: 'completed', input: { filePath: '/home/ops/.env', content: written?.[i]?.text ?? '' }, output: '', title: '.env', metadata: {}, time: { start: at, end: at + 2 } },
      }),
    ];
    messages.push({
      info: { id, sessionID: sessionId, role: 'assistant', time: { created: at, completed: at + 5000 }, parentID: 'msg_0000', modelID: 'model', providerID: 'provider', tokens: { input: 1, output: 2, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0 },
      parts,
    });
  }
  const doc: OpencodeExport = {
    info: { id: sessionId, projectID: 'prj_secrets', directory: '/home/ops/app', title: `deploy with ${titleTokens('opencode').join(' and ')}`, version: '1.1.20', time: { created: 1_772_113_267_000, updated: 1_772_113_267_000 } },
    messages,
  };
  writeStorageTree(doc, root);
  return join(root, 'storage');
}

function writeClaude(dir: string, p: Planter): string[] {
  const lines = readFileSync(CLAUDE_FIXTURE, 'utf8').trimEnd().split('\n');
  const base = JSON.parse(lines.find((l) => l.includes('"name":"Bash"')) ?? '{}') as Record<string, unknown>;
  const sessionId = String(base['sessionId']);
  p.add('claude', 'path', [pathToken('claude')]);
  p.add('claude', 'title', titleTokens('claude'));
  const shapes = Object.fromEntries(['thinking', 'text', 'input', 'input json field', 'output', 'sidecar', 'written file'].map((place) => [place, p.shapes('claude', place)])) as Record<string, SecretShape[]>;
  const looks = { text: p.lookAlikes('claude', 'text'), output: p.lookAlikes('claude', 'output'), input: p.lookAlikes('claude', 'input') };
  const out: string[] = [...lines, JSON.stringify({ type: 'custom-title', customTitle: `ops ${titleTokens('claude').join(' ')}`, sessionId })];
  const count = Math.max(shapes['text']?.length ?? 0, NOT_SECRETS.length);
  for (let i = 0; i < count; i++) {
    const id = `toolu_secret${String(i).padStart(4, '0')}`;
    const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const at = (s: number) => new Date(Date.UTC(2026, 1, 18, 10, 0, 0) + i * 60_000 + s * 1000).toISOString();
    const text = (place: string) => shapes[place]?.[i]?.text ?? '';
    const field = shapes['input json field']?.[i]?.secret ?? 'none';
    const message = { ...(base['message'] as object), id: `msg_secret${i}`, content: [
      { type: 'thinking', thinking: `I need ${text('thinking')}`, signature: 'sig' },
      { type: 'text', text: [text('text'), looks.text[i]].filter(Boolean).join('\n\n') },
      // A field the Bash tool does not define, named for what it holds: judged with its key.
      { type: 'tool_use', id, name: 'Bash', input: { command: [text('input'), looks.input[i]].filter(Boolean).join('\n'), description: 'planted', password: field } },
      { type: 'tool_use', id: `${id}w`, name: 'Write', input: { file_path: '/home/ops/.env', content: text('written file') } },
    ] };
    out.push(JSON.stringify({ ...base, message, uuid, timestamp: at(0) }));
    const result = [text('output'), looks.output[i]].filter(Boolean).join('\n');
    out.push(JSON.stringify({
      ...base, type: 'user', uuid: `${uuid.slice(0, -1)}1`, timestamp: at(5), message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: result, is_error: false }] },
      toolUseResult: { stdout: result, stderr: text('sidecar'), interrupted: false, isImage: false },
    }));
  }
  const folder = join(dir, 'claude', 'projects', `-home-ops-${pathToken('claude')}`);
  const file = join(folder, `${sessionId}.jsonl`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(file, `${out.join('\n')}\n`);
  // A subagent's own transcript beside the session: a sidecar file with secrets of its own.
  const sub = p.shapes('claude', 'subagent file');
  const agentLines = sub.map((shape, i) => JSON.stringify({
    ...base, isSidechain: true, agentId: 'f8043c8c', uuid: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    timestamp: new Date(Date.UTC(2026, 1, 18, 12, i, 0)).toISOString(),
    message: { ...(base['message'] as object), id: `msg_sub${i}`, content: [{ type: 'text', text: shape.text }] },
  }));
  mkdirSync(join(folder, sessionId, 'subagents'), { recursive: true });
  writeFileSync(join(folder, sessionId, 'subagents', 'agent-f8043c8c.jsonl'), `${agentLines.join('\n')}\n`);
  return [folder];
}

/** argv arrays as Codex's `shell` tool sends them: the secret's meaning is in the other elements. */
function argvShapes(seed: string): { secret: string; argv: string[] }[] {
  const s = (n: number) => `${fake(`${seed}/${n}`, 8)}-${fake(`${seed}/${n}b`, 6)}7`;
  return [
    { secret: s(1), argv: ['mysql', '-u', 'root', `-p${s(1)}`, '-e', 'SHOW DATABASES'] },
    { secret: s(2), argv: ['curl', '-sS', '-u', `admin:${s(2)}`, 'https://grafana.internal/api/health'] },
    { secret: s(3), argv: ['sshpass', '-p', s(3), 'ssh', 'ops@10.20.0.5', 'uptime'] },
    { secret: s(4), argv: ['docker', 'login', 'registry.internal', '-u', 'deploy', '-p', s(4)] },
    { secret: s(5), argv: ['vllm', 'serve', 'Qwen/Qwen3.5-122B-A10B-FP8', '--api-key', s(5)] },
    { secret: s(6), argv: ['env', `PGPASSWORD=${s(6)}`, 'psql', '-h', 'db.internal'] },
    { secret: s(7), argv: ['mysql', '-u', 'root', `-p${s(7)} with space`, 'app'] },
  ];
}

function writeCodex(dir: string, p: Planter): string {
  const out = readFileSync(CODEX_FIXTURE, 'utf8').trimEnd().split('\n');
  p.add('codex', 'path', [pathToken('codex')]);
  p.add('codex', 'title', titleTokens('codex'));
  const shapes = Object.fromEntries(['reasoning', 'text', 'input', 'output', 'written file'].map((place) => [place, p.shapes('codex', place)])) as Record<string, SecretShape[]>;
  const looks = { text: p.lookAlikes('codex', 'text'), output: p.lookAlikes('codex', 'output'), input: p.lookAlikes('codex', 'input') };
  const argvs = argvShapes('codex-argv');
  p.add('codex', 'argv', argvs.map((a) => a.secret));
  const stamp = (i: number, s: number) => new Date(Date.UTC(2026, 2, 11, 11, 0, 0) + i * 60_000 + s * 1000).toISOString();
  const item = (i: number, s: number, payload: object) => JSON.stringify({ timestamp: stamp(i, s), type: 'response_item', payload });
  out.push(JSON.stringify({ timestamp: stamp(0, 0), type: 'event_msg', payload: { type: 'thread_name_updated', thread_name: `deploy ${titleTokens('codex').join(' ')}` } }));
  const count = Math.max(shapes['text']?.length ?? 0, NOT_SECRETS.length);
  for (let i = 0; i < count; i++) {
    const text = (place: string) => shapes[place]?.[i]?.text ?? '';
    const callId = `call_secret_${i}`;
    out.push(item(i, 0, { type: 'reasoning', summary: [{ type: 'summary_text', text: `**Using** ${text('reasoning')}` }], content: null, encrypted_content: null }));
    out.push(item(i, 1, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: [text('text'), looks.text[i]].filter(Boolean).join('\n\n') }] }));
    out.push(item(i, 2, { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: [text('input'), looks.input[i]].filter(Boolean).join('\n') }), call_id: callId }));
    out.push(item(i, 3, { type: 'function_call_output', call_id: callId, output: `Exit code: 0\nWall time: 0.1 seconds\nOutput:\n${[text('output'), looks.output[i]].filter(Boolean).join('\n')}` }));
    const patch = text('written file').split('\n').join('\n+');
    out.push(item(i, 4, { type: 'custom_tool_call', status: 'completed', call_id: `${callId}p`, name: 'apply_patch', input: `*** Begin Patch\n*** Add File: .env\n+${patch}\n*** End Patch` }));
  }
  argvs.forEach(({ argv }, i) => {
    out.push(item(count + i, 0, { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: argv, workdir: '/home/ops' }), call_id: `call_argv_${i}` }));
    out.push(item(count + i, 1, { type: 'function_call_output', call_id: `call_argv_${i}`, output: JSON.stringify({ output: 'ok\n', metadata: { exit_code: 0, duration_seconds: 0.1 } }) }));
  });
  const file = join(dir, 'codex', pathToken('codex'), 'rollout-2026-03-11T09-14-03-019cdc2c-b578-75be-8b9e-001e204112ed.jsonl');
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, `${out.join('\n')}\n`);
  return file;
}

export function writeSecretCorpus(dir: string): SecretCorpus {
  const planter = new Planter();
  const inputs = [writeOpencode(dir, planter), ...writeClaude(dir, planter), writeCodex(dir, planter)];
  return {
    inputs,
    secrets: [...planter.secrets],
    shapes: makeShapes('count').length,
    places: planter.places,
    lookAlikeBlocks: planter.lookAlikeBlocks,
  };
}
