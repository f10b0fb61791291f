import { join } from 'node:path';
import type { Prng } from '../../lib/prng.js';
import { AGENT_MODELS } from '../story/catalog.js';
import type { AssistantStep, Call, SessionInfo, Turn } from '../story/turns.js';
import { FileSink } from './sink.js';
import type { SessionLimits, WrittenSession } from './written.js';

/**
 * Codex rollouts, wrapped format (docs/formats/codex.md, test/fixtures/codex): session_meta, the
 * injected context messages, then per turn task_started / turn_context / the user message, and per
 * response its reasoning, calls (`shell` with an argv), token_count, then the outputs in the
 * freeform style (`Exit code: N\nWall time: …\nOutput:\n…`).
 */

const iso = (ms: number): string => new Date(ms).toISOString();

interface Usage {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
}

class CodexSessionWriter {
  private readonly sink: FileSink;
  private total: Usage = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
  private turnId: string | null = null;

  constructor(
    private readonly prng: Prng,
    readonly threadId: string,
    private readonly info: SessionInfo,
    file: string,
  ) {
    this.sink = new FileSink(file);
    const at = info.startMs;
    this.line(at, 'session_meta', {
      id: threadId,
      timestamp: iso(at),
      cwd: info.cwd,
      originator: 'codex_cli_rs',
      cli_version: '0.112.0',
      source: 'cli',
      model_provider: 'openai',
      base_instructions: { text: 'You are Codex, a coding agent based on GPT-5. You and the user share the same workspace and collaborate to achieve the user\'s goals.' },
      git: { commit_hash: prng.hex(40), branch: 'main', repository_url: 'git@github.com:example-ops/serving.git' },
    });
    this.line(at + 4, 'response_item', { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions instructions>\nFilesystem sandboxing: danger-full-access. Approval policy: never — commands run without asking.\n</permissions instructions>' }] });
    this.line(at + 4, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${info.cwd}</cwd>\n  <approval_policy>never</approval_policy>\n  <sandbox_mode>danger-full-access</sandbox_mode>\n  <network_access>enabled</network_access>\n  <shell>bash</shell>\n</environment_context>` }] });
  }

  get bytes(): number {
    return this.sink.bytes;
  }

  private line(at: number, type: string, payload: unknown): void {
    this.sink.write(`${JSON.stringify({ timestamp: iso(at), type, payload })}\n`);
  }

  writeTurn(turn: Turn): void {
    if (turn.role === 'assistant') {
      this.writeStep(turn);
      return;
    }
    if (this.turnId) this.line(turn.atMs - 50, 'event_msg', { type: 'task_complete', turn_id: this.turnId, last_agent_message: null });
    this.turnId = this.prng.uuidV7(turn.atMs);
    this.line(turn.atMs, 'event_msg', { type: 'task_started', turn_id: this.turnId, model_context_window: 272_000 });
    this.line(turn.atMs, 'turn_context', { turn_id: this.turnId, cwd: this.info.cwd, approval_policy: 'never', sandbox_policy: { type: 'danger-full-access' }, model: AGENT_MODELS.codex.model, effort: 'medium', summary: 'auto', truncation_policy: { mode: 'tokens', limit: 10_000 } });
    this.line(turn.atMs + 30, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: turn.text }] });
    this.line(turn.atMs + 30, 'event_msg', { type: 'user_message', message: turn.text, images: [], local_images: [], text_elements: [] });
  }

  private writeStep(step: AssistantStep): void {
    const thinkAt = step.startMs + 900;
    if (step.reasoning) {
      const summary = `**${step.reasoning.split(/[.:]/)[0]?.slice(0, 60) ?? 'Thinking'}**\n\n${step.reasoning}`;
      this.line(thinkAt, 'response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: summary }], content: null, encrypted_content: `gAAAAA${this.prng.base62(320)}==` });
      this.line(thinkAt, 'event_msg', { type: 'agent_reasoning', text: summary });
    }
    if (step.text) {
      const phase = step.final ? 'final_answer' : 'commentary';
      this.line(thinkAt + 200, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: step.text }], phase });
      this.line(thinkAt + 200, 'event_msg', { type: 'agent_message', message: step.text, phase });
    }
    const callIds = step.calls.map(() => `call_${this.prng.base62(24)}`);
    step.calls.forEach((call, index) => {
      if (call.kind === 'search') {
        this.line(call.startMs, 'response_item', { type: 'web_search_call', status: 'completed', action: { type: 'search', query: call.query } });
        return;
      }
      this.line(call.startMs, 'response_item', { type: 'function_call', name: 'shell', arguments: JSON.stringify(shellArguments(call, this.info.cwd)), call_id: callIds[index] });
    });
    this.tokenCount(step, (step.calls[0]?.startMs ?? step.endMs) + 60);
    const order = step.calls.map((call, index) => ({ call, index })).sort((a, b) => a.call.endMs - b.call.endMs);
    for (const { call, index } of order) {
      if (call.kind === 'search') continue;
      this.line(call.endMs, 'response_item', { type: 'function_call_output', call_id: callIds[index], output: freeformOutput(call) });
    }
  }

  private tokenCount(step: AssistantStep, at: number): void {
    const last: Usage = {
      input_tokens: step.tokens.input + step.tokens.cacheRead,
      cached_input_tokens: step.tokens.cacheRead,
      output_tokens: step.tokens.output,
      reasoning_output_tokens: Math.floor(step.tokens.output / 2),
      total_tokens: step.tokens.input + step.tokens.cacheRead + step.tokens.output,
    };
    this.total = {
      input_tokens: this.total.input_tokens + last.input_tokens,
      cached_input_tokens: this.total.cached_input_tokens + last.cached_input_tokens,
      output_tokens: this.total.output_tokens + last.output_tokens,
      reasoning_output_tokens: this.total.reasoning_output_tokens + last.reasoning_output_tokens,
      total_tokens: this.total.total_tokens + last.total_tokens,
    };
    const resets = Math.floor(at / 1000);
    this.line(at, 'event_msg', {
      type: 'token_count',
      info: { total_token_usage: this.total, last_token_usage: last, model_context_window: 272_000 },
      rate_limits: { primary: { used_percent: this.prng.int(1, 60), window_minutes: 300, resets_at: resets + 9000 }, secondary: { used_percent: this.prng.int(0, 30), window_minutes: 10_080, resets_at: resets + 400_000 }, credits: null, plan_type: null },
    });
  }

  close(endMs: number): void {
    if (this.turnId) this.line(endMs, 'event_msg', { type: 'task_complete', turn_id: this.turnId, last_agent_message: null });
    this.sink.close();
  }
}

/** A fetch has no Codex tool of its own: the model curls the page through the shell. */
function shellArguments(call: Exclude<Call, { kind: 'search' }>, cwd: string): Record<string, unknown> {
  const command = call.kind === 'fetch' ? `curl -sL "${call.url}" | python3 -c "import sys,html; print(html.unescape(sys.stdin.read())[:8000])"` : call.command;
  const timeout = call.kind === 'shell' ? call.timeoutMs : 60_000;
  return { command: ['bash', '-lc', command], workdir: cwd, timeout_ms: timeout };
}

function freeformOutput(call: Exclude<Call, { kind: 'search' }>): string {
  const wall = ((call.endMs - call.startMs) / 1000).toFixed(1);
  if (call.kind === 'shell' && call.timedOut) {
    return `Exit code: 124\nWall time: ${wall} seconds\nOutput:\ncommand timed out after ${call.timeoutMs} milliseconds\n${call.output}`;
  }
  const exit = call.kind === 'shell' ? (call.exit ?? 1) : 0;
  return `Exit code: ${exit}\nWall time: ${wall} seconds\nOutput:\n${call.output}`;
}

/** `sessions/YYYY/MM/DD/rollout-<local stamp>-<thread id>.jsonl` (the stamp is written in UTC here). */
export function writeCodexSession(prng: Prng, info: SessionInfo, turns: Iterable<Turn>, root: string, limits: SessionLimits): WrittenSession {
  const threadId = prng.uuidV7(info.startMs);
  const stamp = iso(info.startMs).slice(0, 19).replace(/:/g, '-');
  const [year, month, day] = stamp.slice(0, 10).split('-');
  const file = join(root, 'sessions', year ?? '2026', month ?? '01', day ?? '01', `rollout-${stamp}-${threadId}.jsonl`);
  const writer = new CodexSessionWriter(prng, threadId, info, file);
  let messages = 0;
  let toolCalls = 0;
  let endMs = info.startMs;
  for (const turn of turns) {
    writer.writeTurn(turn);
    messages += 1;
    if (turn.role === 'assistant') {
      toolCalls += turn.calls.length;
      endMs = turn.endMs;
    }
    if (messages >= limits.messages || writer.bytes >= limits.bytes) break;
  }
  writer.close(endMs + 100);
  return { id: threadId, files: [file], bytes: writer.bytes, messages, toolCalls };
}
