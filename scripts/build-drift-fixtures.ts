/**
 * Writes the format-drift fixtures under test/fixtures/{codex,claude}/drift/ (issue 11, points 3,
 * 4, 6): small transcripts, one per shape, each written the way the agent's own source writes it.
 * Deterministic: a re-run rewrites identical bytes.
 *
 *   npx tsx scripts/build-drift-fixtures.ts
 *   npx tsx scripts/build-drift-fixtures.ts --check   # write nothing; fail when a committed file differs (npm test)
 *
 * Where each shape comes from is said next to it, and in the README.md of each drift folder.
 * The hosts, paths and tokens are made up; nothing connects anywhere.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures');

const CHECK_ONLY = process.argv.includes('--check');
const stale: string[] = [];

function write(path: string, lines: readonly object[] | string): void {
  const text = typeof lines === 'string' ? lines : lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
  if (CHECK_ONLY) {
    if (!existsSync(path) || readFileSync(path, 'utf8') !== text) stale.push(path);
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A clock that only moves forward, by the seconds asked. */
function clock(start: string): (seconds?: number) => string {
  let now = Date.parse(start);
  return (seconds = 1) => {
    now += Math.round(seconds * 1000);
    return new Date(now).toISOString();
  };
}

// ---------------------------------------------------------------------------------------------
// Codex
// ---------------------------------------------------------------------------------------------

const CODEX = join(ROOT, 'codex', 'drift');

function codexWriter(start: string) {
  const tick = clock(start);
  const lines: object[] = [];
  let at = start;
  const line = (type: string, payload: object, seconds = 1, extra: object = {}): void => {
    at = tick(seconds);
    lines.push({ timestamp: at, ...extra, type, payload });
  };
  const sameStamp = (type: string, payload: object): void => {
    lines.push({ timestamp: at, type, payload });
  };
  const usage = (input: number, cached: number, output: number, reasoning: number) => ({
    input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: reasoning, total_tokens: input + output,
  });
  let total = usage(0, 0, 0, 0);
  const tokens = (input: number, cached: number, output: number, reasoning: number, seconds = 0.2): void => {
    const last = usage(input, cached, output, reasoning);
    total = usage(total.input_tokens + input, total.cached_input_tokens + cached, total.output_tokens + output, total.reasoning_output_tokens + reasoning);
    line('event_msg', { type: 'token_count', info: { total_token_usage: total, last_token_usage: last, model_context_window: 272000 }, rate_limits: null }, seconds);
  };
  const user = (text: string, seconds = 1) => line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] }, seconds);
  const exec = (callId: string, args: object, seconds = 2) =>
    line('response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify(args), call_id: callId }, seconds);
  const output = (callId: string, text: string, seconds: number) => line('response_item', { type: 'function_call_output', call_id: callId, output: text }, seconds);
  return { lines, line, sameStamp, tokens, user, exec, output };
}

const ENVIRONMENT = '<environment_context>\n  <cwd>/home/dev/shop</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>bash</shell>\n</environment_context>';

/**
 * Codex 0.118 (unified exec on): outputs open with `Command: <shell command line>`, some without an
 * exit line, and the extended-history `exec_command_end` events carry exit code, duration and
 * output (ExecCommandEndEvent, protocol.rs; shapes as quoted in public readers' tests). One
 * command asks to leave the sandbox and waits 90 s for the user's approval; a dev server is
 * polled with `write_stdin`, whose first poll fails on the closed stdin (tty=false).
 */
function codex0118(): void {
  const id = '019d8a10-0118-7000-8000-00000000a118';
  const w = codexWriter('2026-04-14T09:00:00.000Z');
  w.line('session_meta', {
    id, timestamp: '2026-04-14T09:00:00.412Z', cwd: '/home/dev/shop', originator: 'codex_vscode', cli_version: '0.118.0', source: 'vscode',
    model_provider: 'openai', base_instructions: { text: 'You are Codex, based on GPT-5. You are running as a coding agent in the Codex CLI on a user\'s computer.' },
    git: { commit_hash: '5b0e1d2c9a7f64e3b8c1d0a9e8f7a6b5c4d3e2f1', branch: 'main', repository_url: 'git@example.com:dev/shop.git' },
  }, 0.4);
  w.line('response_item', { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions instructions>\nFilesystem sandboxing: workspace-write.\n</permissions instructions>' }] }, 0);
  w.user('# AGENTS.md instructions for /home/dev/shop\n\n<INSTRUCTIONS>\nUse pnpm, never npm.\n</INSTRUCTIONS>', 0);
  w.user(ENVIRONMENT, 0);
  w.line('event_msg', { type: 'task_started', turn_id: 't1', model_context_window: 272000 }, 0.1);
  w.line('turn_context', { turn_id: 't1', cwd: '/home/dev/shop', approval_policy: 'on-request', sandbox_policy: { type: 'workspace-write', network_access: false }, model: 'gpt-5.2-codex', effort: 'medium', summary: 'auto' }, 0);
  // The VS Code extension wraps the request in the editor's context.
  const request = '# Context from my IDE setup:\n\n## Active file: src/cart.ts\n\n## Open tabs:\n- cart.ts: src/cart.ts\n- package.json: package.json\n\n## My request for Codex:\nWhy does the cart build fail? Fix it and run the tests.\n';
  w.user(request, 0);
  w.line('event_msg', { type: 'user_message', message: request, images: [] }, 0);
  w.line('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: '**Running the build to see the error**' }], content: null, encrypted_content: 'gAAAAABo-drift-0118-a' }, 3);
  w.exec('call_build', { cmd: 'pnpm build', workdir: '/home/dev/shop', yield_time_ms: 10000 }, 0.5);
  w.tokens(9120, 8064, 96, 64);
  // The end event comes first, the output after; the output has no exit line.
  w.line('event_msg', {
    type: 'exec_command_end', call_id: 'call_build', process_id: '41', turn_id: 't1', command: ['/bin/bash', '-lc', 'pnpm build'], cwd: '/home/dev/shop',
    parsed_cmd: [{ type: 'unknown', cmd: 'pnpm build' }], source: 'unified_exec_startup', stdout: '', stderr: '',
    aggregated_output: "src/cart.ts(12,7): error TS2322: Type 'string' is not assignable to type 'number'.\n", exit_code: 2,
    duration: { secs: 8, nanos: 412000000 }, formatted_output: "src/cart.ts(12,7): error TS2322: Type 'string' is not assignable to type 'number'.\n", status: 'failed',
  }, 8.3);
  w.output('call_build', "Command: /bin/bash -lc 'pnpm build'\nChunk ID: 3f9a1c\nOutput:\nsrc/cart.ts(12,7): error TS2322: Type 'string' is not assignable to type 'number'.\n", 0.1);
  w.exec('call_status', { cmd: 'git status --short', workdir: '/home/dev/shop' }, 1.5);
  w.tokens(420, 0, 40, 0);
  // An output with neither body nor exit line; its end event, after it, has both.
  w.output('call_status', 'Chunk ID: cc526c\nOutput:\n', 0.3);
  w.line('event_msg', {
    type: 'exec_command_end', call_id: 'call_status', process_id: '42', turn_id: 't1', command: ['/bin/bash', '-lc', 'git status --short'], cwd: '/home/dev/shop',
    parsed_cmd: [{ type: 'unknown', cmd: 'git status --short' }], source: 'unified_exec_startup', stdout: ' M src/cart.ts\n', stderr: '', aggregated_output: ' M src/cart.ts\n',
    exit_code: 0, duration: { secs: 0, nanos: 61000000 }, formatted_output: ' M src/cart.ts\n', status: 'completed',
  }, 0.01);
  w.line('response_item', { type: 'custom_tool_call', status: 'completed', call_id: 'call_patch', name: 'apply_patch', input: '*** Begin Patch\n*** Update File: src/cart.ts\n@@\n-  total: string;\n+  total: number;\n*** End Patch\n' }, 4);
  w.tokens(640, 512, 88, 32);
  w.line('event_msg', { type: 'patch_apply_end', call_id: 'call_patch', turn_id: 't1', stdout: 'Success. Updated the following files:\nM src/cart.ts\n', stderr: '', success: true, changes: {}, status: 'completed' }, 0.1);
  w.line('response_item', { type: 'custom_tool_call_output', call_id: 'call_patch', output: JSON.stringify({ output: 'Success. Updated the following files:\nM src/cart.ts\n', metadata: { exit_code: 0, duration_seconds: 0.0 } }) }, 0.01);
  // Tests bind a local port: the model asks to leave the sandbox; the user approves 90 s later.
  w.exec('call_test', { cmd: 'pnpm test -- --run', workdir: '/home/dev/shop', sandbox_permissions: 'require_escalated', justification: 'vitest binds a local port for the API tests' }, 2);
  w.tokens(700, 640, 70, 16);
  w.output('call_test', "Command: /bin/bash -lc 'pnpm test -- --run'\nChunk ID: 77b2e0\nWall time: 3.2000 seconds\nProcess exited with code 0\nOriginal token count: 24\nOutput:\n Test Files  4 passed (4)\n      Tests  31 passed (31)\n", 93.4);
  w.exec('call_dev', { cmd: 'pnpm dev', workdir: '/home/dev/shop', yield_time_ms: 5000, tty: false }, 2);
  w.tokens(500, 448, 60, 0);
  w.output('call_dev', "Command: /bin/bash -lc 'pnpm dev'\nChunk ID: 0c11aa\nWall time: 5.0010 seconds\nProcess running with session ID 7\nOriginal token count: 12\nOutput:\n  VITE v6.2.0  ready in 812 ms\n  ➜  Local:   http://localhost:5173/\n", 5.2);
  w.line('response_item', { type: 'function_call', name: 'write_stdin', arguments: JSON.stringify({ session_id: 7, chars: 'q\n', yield_time_ms: 1000 }), call_id: 'call_quit' }, 1.5);
  w.tokens(300, 256, 30, 0);
  // Started without a tty, the process has no stdin to type into: the poll fails, the server runs on.
  w.output('call_quit', 'write_stdin failed: stdin is closed for this session; rerun exec_command with tty=true to keep stdin open', 0.05);
  w.line('response_item', { type: 'function_call', name: 'write_stdin', arguments: JSON.stringify({ session_id: 7, chars: '', yield_time_ms: 30000 }), call_id: 'call_wait' }, 1.2);
  w.tokens(310, 256, 28, 0);
  w.output('call_wait', 'Chunk ID: 5d0e42\nWall time: 30.0003 seconds\nProcess exited with code 0\nOriginal token count: 4\nOutput:\n  server stopped\n', 30.1);
  w.line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '`total` was typed as a string; it is a number now. The build passes and all 31 tests pass.' }], phase: 'final_answer' }, 2);
  w.line('event_msg', { type: 'agent_message', message: '`total` was typed as a string; it is a number now. The build passes and all 31 tests pass.', phase: 'final_answer' }, 0);
  w.tokens(820, 768, 52, 0);
  w.line('event_msg', { type: 'task_complete', turn_id: 't1', last_agent_message: '`total` was typed as a string; it is a number now.' }, 0.1);
  write(join(CODEX, 'sessions', '2026', '04', '14', `rollout-2026-04-14T11-00-00-${id}.jsonl`), w.lines);
}

/**
 * Codex 0.42 (wrapped lines, the structured output style): a call and its output written together
 * under one timestamp, so only `metadata.duration_seconds` says how long the command ran.
 */
function codex0042(): void {
  const id = '0199a3f0-0042-7000-8000-0000000a0042';
  const w = codexWriter('2025-10-02T14:30:00.000Z');
  w.line('session_meta', { id, timestamp: '2025-10-02T14:30:00.118Z', instructions: null, cwd: '/home/dev/shop', originator: 'codex_cli_rs', cli_version: '0.42.0', git: { commit_hash: '0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d', branch: 'main' } }, 0.1);
  w.user(ENVIRONMENT, 0);
  w.line('turn_context', { cwd: '/home/dev/shop', approval_policy: 'on-request', sandbox_policy: { mode: 'workspace-write', network_access: false }, model: 'gpt-5-codex', effort: 'medium', summary: 'auto' }, 0);
  w.user('install the dependencies and tell me how long it took', 1);
  w.line('event_msg', { type: 'user_message', message: 'install the dependencies and tell me how long it took', kind: 'plain' }, 0);
  w.line('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: '**Installing dependencies**' }], content: null, encrypted_content: 'gAAAAABo-drift-0042-a' }, 44);
  w.sameStamp('response_item', { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'pnpm install --frozen-lockfile'], workdir: '/home/dev/shop', timeout_ms: 300000 }), call_id: 'call_install' });
  w.sameStamp('response_item', { type: 'function_call_output', call_id: 'call_install', output: JSON.stringify({ output: 'Lockfile is up to date\nPackages: +812\nDone in 41.3s\n', metadata: { exit_code: 0, duration_seconds: 41.3 } }) });
  w.sameStamp('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: 6100, cached_input_tokens: 4096, output_tokens: 180, reasoning_output_tokens: 128, total_tokens: 6280 }, last_token_usage: { input_tokens: 6100, cached_input_tokens: 4096, output_tokens: 180, reasoning_output_tokens: 128, total_tokens: 6280 }, model_context_window: 272000 } });
  w.line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Installed 812 packages in 41.3 s.' }] }, 3);
  w.line('event_msg', { type: 'agent_message', message: 'Installed 812 packages in 41.3 s.' }, 0);
  write(join(CODEX, 'sessions', '2025', '10', '02', `rollout-2025-10-02T16-30-00-${id}.jsonl`), w.lines);
}

/**
 * Current Codex (the line types of codex-rs `history/src/rollout_payload.rs` `RolloutItemWire`):
 * lines carry an `ordinal`, response items a harness `metadata`; world-state baselines,
 * token-usage records, inter-agent metadata and retained context sit between them; a compaction
 * writes `compacted` (with its window ids) then `context_compacted`.
 */
function codexCurrent(): void {
  const id = '019e2b40-0141-7000-8000-0000000c0141';
  const w = codexWriter('2026-09-21T07:45:00.000Z');
  let ordinal = 0;
  const o = () => ({ ordinal: (ordinal += 1) });
  w.line('session_meta', { id, timestamp: '2026-09-21T07:45:00.090Z', cwd: '/home/dev/shop', originator: 'codex_cli_rs', cli_version: '0.141.0', source: 'cli', model_provider: 'openai', memory_mode: 'enabled' }, 0.1, o());
  w.line('world_state', { full: true, entries: { agents_md: { path: '/home/dev/shop/AGENTS.md', digest: 'sha256:9f2c' } } }, 0, o());
  w.line('turn_context', { turn_id: 't1', cwd: '/home/dev/shop', approval_policy: 'never', sandbox_policy: { type: 'danger-full-access' }, model: 'gpt-5.4-codex', effort: 'high', summary: 'auto' }, 0, o());
  w.line('event_msg', { type: 'task_started', turn_id: 't1', model_context_window: 400000 }, 0, o());
  w.line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Bump vite to 6.3 and check the build still passes.' }] }, 1, { ...o(), metadata: { user_input_order: 1 } });
  w.line('inter_agent_communication_metadata', { trigger_turn: false }, 0, o());
  w.line('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: '**Bumping vite**' }], content: null, encrypted_content: 'gAAAAABo-drift-0141-a' }, 2, o());
  w.line('response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'pnpm up vite@6.3 && pnpm build', workdir: '/home/dev/shop' }), call_id: 'call_bump' }, 0.5, o());
  w.line('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: 12000, cached_input_tokens: 11000, output_tokens: 90, reasoning_output_tokens: 40, total_tokens: 12090 }, last_token_usage: { input_tokens: 12000, cached_input_tokens: 11000, output_tokens: 90, reasoning_output_tokens: 40, total_tokens: 12090 }, model_context_window: 400000 }, rate_limits: null }, 0.2, o());
  w.line('token_usage_record', { turn_id: 't1', total: { input_tokens: 12000, cached_input_tokens: 11000, output_tokens: 90, reasoning_output_tokens: 40, total_tokens: 12090 } }, 0, o());
  w.line('response_item', { type: 'function_call_output', call_id: 'call_bump', output: "Command: /bin/bash -lc 'pnpm up vite@6.3 && pnpm build'\nChunk ID: 9a8b7c\nWall time: 14.2000 seconds\nProcess exited with code 0\nOriginal token count: 9\nOutput:\n+ vite 6.3.1\n✓ built in 3.10s\n" }, 14.4, o());
  w.line('retained_context', { kind: 'delivered_assistant_message', turn_id: 't1' }, 0, o());
  w.line('security_risk_score', { turn_id: 't1', score: 0.02 }, 0, o());
  w.line('compacted', { message: 'Summary: the user asked to bump vite to 6.3; it is bumped and the build passes.', replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Bump vite to 6.3 and check the build still passes.' }] }], window_number: 1, window_id: 'w-2' }, 2, o());
  w.line('event_msg', { type: 'context_compacted' }, 0, o());
  w.line('world_state', { full: true, entries: { agents_md: { path: '/home/dev/shop/AGENTS.md', digest: 'sha256:9f2c' } } }, 0, o());
  w.line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'vite is at 6.3.1 and the build passes.' }], phase: 'final_answer' }, 1, o());
  w.line('event_msg', { type: 'task_complete', turn_id: 't1', last_agent_message: 'vite is at 6.3.1 and the build passes.' }, 0.1, o());
  write(join(CODEX, 'sessions', '2026', '09', '21', `rollout-2026-09-21T09-45-00-${id}.jsonl`), w.lines);
}

/** A rollout of a release nobody has read yet: its records are of kinds retrace does not know. */
function codexFuture(): void {
  const id = '019f0000-0150-7000-8000-0000000f0150';
  const w = codexWriter('2027-01-05T10:00:00.000Z');
  w.line('session_meta', { id, timestamp: '2027-01-05T10:00:00.010Z', cwd: '/home/dev/shop', originator: 'codex_cli_rs', cli_version: '0.150.0', source: 'cli' }, 0);
  for (let turn = 1; turn <= 3; turn += 1) {
    w.line('turn_frame', { turn_id: `t${turn}`, model: 'gpt-6-codex' }, 1);
    w.line('conversation_item', { kind: 'user_input', text: `step ${turn}` }, 1);
    w.line('conversation_item', { kind: 'assistant_output', text: `did step ${turn}` }, 2);
  }
  write(join(CODEX, 'future', `rollout-2027-01-05T11-00-00-${id}.jsonl`), w.lines);
}

// ---------------------------------------------------------------------------------------------
// Claude Code
// ---------------------------------------------------------------------------------------------

const CLAUDE = join(ROOT, 'claude', 'drift');
const PROJECT = join(CLAUDE, 'projects', '-home-dev-shop');
const SESSION = '7c0ffee0-2222-4aaa-8bbb-000000000001';
const CWD = '/home/dev/shop';
const VERSION = '2.1.88';

interface ClaudeWriter {
  lines: object[];
  record(type: string, fields: object, seconds?: number): string;
  prompt(content: string | object[], fields?: object, seconds?: number): string;
  block(messageId: string, requestId: string, content: object, seconds?: number, stop?: string): string;
  result(toolUseId: string, content: unknown, sidecar: unknown, isError?: boolean, seconds?: number): string;
}

/** Claude Code's envelope (docs/formats/claude-code.md): uuid chain, one line per content block. */
function claudeWriter(start: string, envelope: object, uuidPrefix: string): ClaudeWriter {
  const tick = clock(start);
  const lines: object[] = [];
  let n = 0;
  let parent: string | null = null;
  const uuid = () => `${uuidPrefix}-${String((n += 1)).padStart(4, '0')}-4000-8000-${String(n).padStart(12, '0')}`;
  const record = (type: string, fields: object, seconds = 1): string => {
    const id = uuid();
    lines.push({ parentUuid: parent, isSidechain: false, userType: 'external', cwd: CWD, sessionId: SESSION, version: VERSION, gitBranch: 'main', ...envelope, type, uuid: id, timestamp: tick(seconds), ...fields });
    parent = id;
    return id;
  };
  return {
    lines,
    record,
    prompt: (content, fields = {}, seconds = 1) => record('user', { message: { role: 'user', content }, ...fields }, seconds),
    block: (messageId, requestId, content, seconds = 1, stop = 'tool_use') =>
      record('assistant', {
        requestId,
        message: {
          model: 'claude-opus-4-7', id: messageId, type: 'message', role: 'assistant', content: [content], stop_reason: stop, stop_sequence: null,
          usage: { input_tokens: 6, cache_creation_input_tokens: 1200, cache_read_input_tokens: 24000, output_tokens: 180, service_tier: 'standard', server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 } },
        },
      }, seconds),
    result: (toolUseId, content, sidecar, isError = false, seconds = 2) =>
      record('user', { message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content, is_error: isError }] }, ...(sidecar === undefined ? {} : { toolUseResult: sidecar }) }, seconds),
  };
}

const bash = (id: string, command: string, description: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command, description } });
const persisted = (size: string, file: string, preview: string) =>
  `<persisted-output>\nOutput too large (${size}). Full output saved to: /home/dev/.claude/projects/-home-dev-shop/${SESSION}/tool-results/${file}\n\nPreview (first 2KB):\n${preview}\n</persisted-output>`;

function buildLog(): string {
  const lines = ['> shop@1.4.0 build /home/dev/shop', '> tsc -p . && vite build', ''];
  for (let i = 1; i <= 150; i += 1) lines.push(`src/legacy/module-${String(i).padStart(3, '0')}.ts(4,1): warning TS6133: 'unused${i}' is declared but its value is never read.`);
  lines.push("src/cart.ts(12,7): error TS2322: Type 'string' is not assignable to type 'number'.", ' ELIFECYCLE  Command failed with exit code 2.');
  return lines.join('\n');
}

function testLog(): string {
  const lines = ['', ' RUN  v3.2.4 /home/dev/shop', ''];
  for (let i = 1; i <= 120; i += 1) lines.push(` ✓ test/cart/case-${String(i).padStart(3, '0')}.test.ts (1 test) ${(i % 7) + 2}ms`);
  lines.push('', ' Test Files  120 passed (120)', '      Tests  120 passed (120)');
  return lines.join('\n');
}

/**
 * Claude Code 2.1: an IDE preamble before the request, three `<persisted-output>` results (the
 * whole output in `toolUseResult.stdout`; in `tool-results/<id>.txt` beside the session; in
 * neither), provider-run `server_tool_use` web search and fetch with their result blocks, and a
 * `compact_boundary` followed by its `isCompactSummary` record.
 */
function claudeSession(): ClaudeWriter {
  const w = claudeWriter('2026-08-03T16:00:00.000Z', { entrypoint: 'claude-vscode', slug: 'quiet-amber-fox' }, '7c0ffee0');
  w.lines.push({ type: 'file-history-snapshot', messageId: '7c0ffee0-0000-4000-8000-000000000000', snapshot: { messageId: '7c0ffee0-0000-4000-8000-000000000000', trackedFileBackups: {}, timestamp: '2026-08-03T16:00:00.000Z' }, isSnapshotUpdate: false });
  w.prompt([
    { type: 'text', text: '<ide_opened_file>The user opened the file /home/dev/shop/src/cart.ts in the IDE. This may or may not be related to the current task.</ide_opened_file>' },
    { type: 'text', text: 'The cart build fails. Find out why and fix it.' },
  ], { promptId: 'p-1', permissionMode: 'default' });
  const build = buildLog();
  w.block('msg_01Drift0Build', 'req_01Drift0A', bash('toolu_01Build', 'pnpm build', 'Build the shop'), 3);
  // A failure: the sidecar is the error string, so only the file beside the session has the whole output.
  w.result('toolu_01Build', `Exit code 2\n${persisted('48.2KB', 'b7k2m9xq1.txt', build.slice(0, 600))}`, 'Error: Exit code 2\n<persisted-output>…', true, 9);
  const tests = testLog();
  w.block('msg_01Drift0Test', 'req_01Drift0B', bash('toolu_01Tests', 'pnpm test -- --run', 'Run the unit tests'), 4);
  w.result('toolu_01Tests', persisted('16.9KB', 'c3p8w2zr6.txt', tests.slice(0, 500)), { stdout: tests, stderr: '', interrupted: false, isImage: false, noOutputExpected: false, persistedOutputPath: `/home/dev/.claude/projects/-home-dev-shop/${SESSION}/tool-results/c3p8w2zr6.txt` }, false, 6);
  w.block('msg_01Drift0Grep', 'req_01Drift0C', { type: 'tool_use', id: 'toolu_01Grep', name: 'Grep', input: { pattern: 'total', path: 'src', output_mode: 'content' } }, 2);
  // Neither in the line nor on disk (the file was cleaned up): the preview stays, truncated.
  w.result('toolu_01Grep', persisted('31.0KB', 'd9f4h1ke0.txt', 'src/cart.ts:12:  total: string;\nsrc/cart.ts:40:  return total;'), { mode: 'content', numFiles: 118, numLines: 2044 }, false, 1);
  w.block('msg_01Drift0Web', 'req_01Drift0D', { type: 'text', text: 'Let me check whether vite 6 changed how it type-checks.' }, 2);
  w.block('msg_01Drift0Web', 'req_01Drift0D', { type: 'server_tool_use', id: 'srvtoolu_01Search', name: 'web_search', input: { query: 'vite 6 tsc TS2322 build' } }, 0.4);
  w.block('msg_01Drift0Web', 'req_01Drift0D', {
    type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01Search', content: [
      { type: 'web_search_result', title: 'Vite 6 migration guide', url: 'https://vite.dev/guide/migration', encrypted_content: 'EqgfCioIARgBIiQ3', page_age: '2025-11-02' },
      { type: 'web_search_result', title: 'TS2322 explained', url: 'https://example.com/ts2322', encrypted_content: 'EpwBCioIARgB', page_age: null },
    ],
  }, 2.1);
  w.block('msg_01Drift0Web', 'req_01Drift0D', { type: 'server_tool_use', id: 'srvtoolu_01Fetch', name: 'web_fetch', input: { url: 'https://intranet.example.com/shop/build-notes' } }, 0.3);
  w.block('msg_01Drift0Web', 'req_01Drift0D', { type: 'web_fetch_tool_result', tool_use_id: 'srvtoolu_01Fetch', content: { type: 'web_fetch_tool_error', error_code: 'url_not_accessible' } }, 1.2);
  w.block('msg_01Drift0Web', 'req_01Drift0D', { type: 'text', text: 'Nothing changed in vite: `total` is typed as a string in src/cart.ts. Changing it to number.' }, 1, 'end_turn');
  w.record('system', {
    subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, level: 'info',
    compactMetadata: { trigger: 'auto', preTokens: 155432 }, logicalParentUuid: '7c0ffee0-0011-4000-8000-000000000011', parentUuid: null,
  }, 30);
  w.prompt('This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nThe cart build failed on TS2322 in src/cart.ts; `total` was a string.', { isCompactSummary: true, isVisibleInTranscriptOnly: true }, 0.1);
  w.prompt('Now add a test for the total.', { promptId: 'p-2' }, 20);
  w.block('msg_01Drift0Done', 'req_01Drift0E', { type: 'text', text: 'Added test/cart/total.test.ts; it passes.' }, 5, 'end_turn');
  write(join(PROJECT, `${SESSION}.jsonl`), w.lines);
  write(join(PROJECT, SESSION, 'tool-results', 'b7k2m9xq1.txt'), build);
  return w;
}

/**
 * The side-question agent (`/btw`, `agent-aside_question-<16 hex>.jsonl`): a fork that writes the
 * parent's conversation into its own file first, under new uuids but with the parent's
 * `message.id`, `requestId` and tool ids (as readers that dedupe it describe), then the question.
 */
function claudeAside(parent: ClaudeWriter): void {
  const agentId = 'aside_question-5c1e9a7b3d2f4e60';
  const w = claudeWriter('2026-08-03T16:01:10.000Z', { isSidechain: true, agentId }, '5c1e9a7b');
  const conversation = parent.lines.filter((line) => {
    const record = line as { type?: string; isCompactSummary?: boolean };
    return (record.type === 'user' || record.type === 'assistant') && record.isCompactSummary !== true;
  });
  for (const line of conversation.slice(0, 7)) {
    const { uuid: _uuid, parentUuid: _parent, timestamp: _time, isSidechain: _side, ...rest } = line as Record<string, unknown>;
    w.record(String(rest['type']), { ...rest, isSidechain: true, agentId }, 0.001);
  }
  w.prompt('btw, what does TS2322 mean?', {}, 1);
  w.block('msg_01Aside0Answer', 'req_01Aside0A', { type: 'text', text: 'TS2322: a value of one type is assigned where another type is expected.' }, 3, 'end_turn');
  write(join(PROJECT, SESSION, 'subagents', `agent-${agentId}.jsonl`), w.lines);
}

/** An ordinary Explore subagent beside it (new layout, with its meta.json): read as it always was. */
function claudeExplore(): void {
  const agentId = 'a3f9c2e81b7d4a605';
  const w = claudeWriter('2026-08-03T16:02:00.000Z', { isSidechain: true, agentId }, 'a3f9c2e8');
  w.prompt('Find every place that reads cart.total.', {}, 0);
  w.block('msg_01Explore0A', 'req_01Explore0A', bash('toolu_01ExploreGrep', 'grep -rn "\\.total" src', 'Find reads of total'), 2);
  w.result('toolu_01ExploreGrep', 'src/cart.ts:40:  return total;\nsrc/checkout.ts:18:  pay(cart.total)', { stdout: 'src/cart.ts:40:  return total;\nsrc/checkout.ts:18:  pay(cart.total)', stderr: '', interrupted: false, isImage: false }, false, 1);
  w.block('msg_01Explore0B', 'req_01Explore0B', { type: 'text', text: 'Two readers: src/cart.ts:40 and src/checkout.ts:18.' }, 2, 'end_turn');
  write(join(PROJECT, SESSION, 'subagents', `agent-${agentId}.jsonl`), w.lines);
  write(join(PROJECT, SESSION, 'subagents', `agent-${agentId}.meta.json`), `${JSON.stringify({ agentType: 'Explore', description: 'Find reads of cart.total', toolUseId: 'toolu_01Task' })}\n`);
}

/** A transcript of a release nobody has read yet: records of kinds retrace does not know, no message. */
function claudeFuture(): void {
  const tick = clock('2027-02-01T08:00:00.000Z');
  const sessionId = '0fe70000-3333-4ccc-8ddd-000000000300';
  const base = { sessionId, version: '2.3.0', cwd: CWD };
  const lines: object[] = [];
  for (let i = 1; i <= 4; i += 1) {
    lines.push({ ...base, type: 'turn', uuid: `0fe70000-000${i}-4000-8000-00000000000${i}`, parentUuid: null, timestamp: tick(), turn: { input: `step ${i}` } });
    lines.push({ ...base, type: 'reply', uuid: `0fe70000-001${i}-4000-8000-00000000001${i}`, parentUuid: null, timestamp: tick(), reply: { text: `did ${i}` } });
  }
  write(join(CLAUDE, 'future', '-home-dev-shop', `${sessionId}.jsonl`), lines);
}

codex0118();
codex0042();
codexCurrent();
codexFuture();
claudeAside(claudeSession());
claudeExplore();
claudeFuture();

if (stale.length > 0) {
  console.error(`differ from what scripts/build-drift-fixtures.ts writes (run it and commit):\n  ${stale.join('\n  ')}`);
  process.exit(1);
}
