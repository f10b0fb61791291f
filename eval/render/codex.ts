// Codex CLI rollout JSONL (docs/formats/codex.md): wrapped `{timestamp, type, payload}` lines,
// `session_meta`, a `turn_context` per turn, `response_item`s and `event_msg`s, and the shell tool
// and output style of the story's Codex version (`session.codex_style`).
import type { CodexStyle, Story } from '../schema.js';
import { Random } from './random.js';
import { buildTimeline, combinedOutput, fullCommand, iso, type TimedCall, type TimedStep } from './timeline.js';
import { truncateMiddle } from './text.js';
import type { Rendered } from './types.js';

type Json = Record<string, unknown>;
interface Line { at: number; type: string; payload: Json }

const YIELD_MS = 10_000;

/** A unified-exec command still running after its first yield. */
interface Running { timed: TimedCall; sessionId: number; shownUntil: number; lines: string[]; streams: boolean }
const POLL_YIELDS_MS = [30_000, 60_000, 120_000, 300_000];

function roundTimeout(seconds: number): number {
  for (const limit of [60_000, 120_000, 300_000, 600_000, 1_200_000, 1_800_000, 3_600_000]) {
    if (limit > seconds * 1000 * 1.3) return limit;
  }
  return 7_200_000;
}

class CodexRenderer {
  private readonly random: Random;
  private readonly style: CodexStyle;
  private readonly lines: Line[] = [];
  private readonly threadId: string;
  private totals = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
  private nextSession = 0;

  constructor(private readonly story: Story) {
    this.random = new Random(`codex:${story.id}`);
    this.style = story.session.codex_style ?? 'shell-freeform';
    this.threadId = this.random.uuid7(Date.parse(story.session.start) - 1800);
    this.nextSession = this.random.int(1000, 60000);
  }

  private emit(at: number, type: string, payload: Json): void {
    const last = this.lines[this.lines.length - 1];
    // File order is append order; a later line never carries an earlier time.
    this.lines.push({ at: Math.max(at, last?.at ?? at), type, payload });
  }

  private get modern(): boolean {
    return this.style === 'shell-command' || this.style === 'unified-exec';
  }

  render(): Rendered {
    const { session } = this.story;
    const start = Date.parse(session.start);
    const timeline = buildTimeline(this.story, this.random, { defaultTimeoutMs: 10_000, baseContext: 7_800 });
    const meta: Json = { id: this.threadId, timestamp: iso(start - 1800), cwd: session.cwd, originator: 'codex_cli_rs', cli_version: session.version };
    if (!this.modern) meta.instructions = null;
    meta.source = 'cli';
    meta.model_provider = 'openai';
    meta.git = { commit_hash: this.random.hex(40), branch: session.git_branch, repository_url: `git@git.lab.internal:infra/${session.cwd.split('/').pop() ?? 'ops'}.git` };
    this.emit(start - 1795, 'session_meta', meta);
    let turnId = '';
    let firstTurn = true;
    let lastMessage = '';
    for (let index = 0; index < timeline.length; index += 1) {
      const turn = timeline[index]!;
      if (turn.kind === 'user') {
        turnId = this.random.uuid7(turn.at);
        this.userTurn(turn.text, turn.at, turnId, firstTurn);
        firstTurn = false;
        continue;
      }
      this.step(turn);
      if (turn.step.text !== undefined) lastMessage = turn.step.text;
      if (turn.final && this.modern) this.emit(turn.end + 300, 'event_msg', { type: 'task_complete', turn_id: turnId, last_agent_message: lastMessage });
    }
    const stamp = iso(start).slice(0, 19).replaceAll(':', '-');
    const day = iso(start).slice(0, 10).replaceAll('-', '/');
    const text = this.lines.map((line) => JSON.stringify({ timestamp: iso(line.at), type: line.type, payload: line.payload })).join('\n') + '\n';
    return { sessionId: this.threadId, files: [{ path: `sessions/${day}/rollout-${stamp}-${this.threadId}.jsonl`, kind: 'text', text }] };
  }

  private userTurn(text: string, at: number, turnId: string, first: boolean): void {
    const { session } = this.story;
    if (this.modern) this.emit(at, 'event_msg', { type: 'task_started', turn_id: turnId, model_context_window: 272000 });
    if (first) {
      if (this.modern) {
        this.emit(at, 'response_item', { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions instructions>\nFilesystem sandboxing defines which files can be read or written. sandbox_mode is danger-full-access: No filesystem sandboxing - all commands are permitted. Network access is enabled.\nApprovals are your mechanism to get user consent to run shell commands without the sandbox. approval_policy is on-request.\n</permissions instructions>' }] });
      }
      const env = `<environment_context>\n  <cwd>${session.cwd}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>danger-full-access</sandbox_mode>\n  <network_access>enabled</network_access>\n  <shell>bash</shell>\n</environment_context>`;
      this.emit(at, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: env }] });
    }
    this.emit(at, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
    this.emit(at, 'event_msg', this.style === 'shell-json' ? { type: 'user_message', message: text, kind: 'plain' } : { type: 'user_message', message: text, images: [] });
    const sandbox = this.style === 'shell-json' ? { mode: 'danger-full-access' } : { type: 'danger-full-access' };
    const context: Json = this.modern ? { turn_id: turnId } : {};
    Object.assign(context, { cwd: session.cwd, approval_policy: 'on-request', sandbox_policy: sandbox, model: session.model, effort: 'medium', summary: 'auto' });
    if (this.modern) context.truncation_policy = { mode: 'bytes', limit: 10000 };
    this.emit(at + 2, 'turn_context', context);
  }

  private tokenCount(at: number, usage: TimedStep['usage']): void {
    const input = usage.context + usage.fresh;
    const last = { input_tokens: input, cached_input_tokens: Math.floor(usage.context / 256) * 256, output_tokens: usage.output, reasoning_output_tokens: Math.floor(usage.output * 0.4), total_tokens: input + usage.output };
    this.totals = {
      input_tokens: this.totals.input_tokens + last.input_tokens, cached_input_tokens: this.totals.cached_input_tokens + last.cached_input_tokens,
      output_tokens: this.totals.output_tokens + last.output_tokens, reasoning_output_tokens: this.totals.reasoning_output_tokens + last.reasoning_output_tokens,
      total_tokens: this.totals.total_tokens + last.total_tokens,
    };
    const used = Math.min(95, 3 + this.totals.total_tokens / 60000);
    const resets = this.modern
      ? { primary: { used_percent: Math.round(used * 10) / 10, window_minutes: 300, resets_at: Math.floor(at / 1000) + 9000 }, secondary: { used_percent: Math.round(used * 3) / 10, window_minutes: 10080, resets_at: Math.floor(at / 1000) + 400000 } }
      : { primary: { used_percent: Math.round(used * 10) / 10, window_minutes: 299, resets_in_seconds: 9000 }, secondary: { used_percent: Math.round(used * 3) / 10, window_minutes: 10079, resets_in_seconds: 400000 } };
    this.emit(at, 'event_msg', { type: 'token_count', info: { total_token_usage: { ...this.totals }, last_token_usage: last, model_context_window: 272000 }, rate_limits: resets });
  }

  private step(timed: TimedStep): void {
    const { step } = timed;
    if (step.reasoning !== undefined) {
      this.emit(timed.reasoningEnd, 'event_msg', { type: 'agent_reasoning', text: step.reasoning });
      this.emit(timed.reasoningEnd, 'response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: step.reasoning }], content: null, encrypted_content: `gAAAAAB${this.random.opaque(320)}` });
    }
    if (step.text !== undefined) {
      const phase = timed.calls.length > 0 ? 'commentary' : 'final_answer';
      this.emit(timed.textAt, 'event_msg', this.style === 'unified-exec' ? { type: 'agent_message', message: step.text, phase } : { type: 'agent_message', message: step.text });
      const item: Json = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: step.text }] };
      if (this.style === 'unified-exec') item.phase = phase;
      this.emit(timed.textAt, 'response_item', item);
    }
    const pending: { at: number; payload: Json }[] = [];
    const running: Running[] = [];
    timed.calls.forEach((call, index) => {
      const callId = `call_${this.random.base62(24)}`;
      const at = Math.min(call.start, timed.textAt + 30 * (index + 1));
      const out = this.callItems(call, callId, at);
      if (out.output !== undefined) pending.push({ at: out.outputAt ?? call.end, payload: out.output });
      if (out.running !== undefined) running.push(out.running);
    });
    this.tokenCount(Math.min(...timed.calls.map((call) => call.start), timed.textAt + 200), timed.usage);
    for (const output of pending.sort((a, b) => a.at - b.at)) this.emit(output.at, 'response_item', output.payload);
    for (const run of running) this.poll(run);
  }

  /** Emits a call's item; returns its output (written once every call of the step is issued). */
  private callItems(timed: TimedCall, callId: string, at: number): { output?: Json; outputAt?: number; running?: Running } {
    const call = timed.call;
    const cwd = this.story.session.cwd;
    const seconds = (timed.end - timed.start) / 1000;
    const fn = (name: string, args: Json): void => this.emit(at, 'response_item', { type: 'function_call', name, arguments: JSON.stringify(args), call_id: callId });
    switch (call.tool) {
      case 'bash': case 'read': {
        const command = call.tool === 'bash' ? fullCommand(call) : `sed -n '1,220p' ${call.path}`;
        const output = call.tool === 'bash' ? combinedOutput(call) : call.output;
        const exit = call.tool === 'bash' ? call.exit : 0;
        const timedOut = call.tool === 'bash' && call.timeout;
        // A long command gets a timeout the model chose; a killed one had the one it asked for (or the default).
        const timeoutMs = call.tool !== 'bash' ? undefined : timedOut ? call.timeout_ms : call.timeout_ms ?? (seconds > 8 ? roundTimeout(seconds) : undefined);
        if (this.style === 'unified-exec') {
          const args: Json = { cmd: command, workdir: cwd };
          if (seconds > 8) args.yield_time_ms = YIELD_MS;
          fn('exec_command', args);
          if (seconds * 1000 <= YIELD_MS + 500) return { output: { type: 'function_call_output', call_id: callId, output: this.chunk(seconds, exit, output) } };
          const sessionId = this.nextSession++;
          const lines = output.split('\n');
          // A pipe (`| tail`) or a leading sleep holds the output back until the command ends.
          const streams = !/\||\bsleep\b/.test(command);
          const shown = streams ? Math.floor(lines.length * (YIELD_MS / (seconds * 1000))) : 0;
          return {
            output: { type: 'function_call_output', call_id: callId, output: this.chunk(YIELD_MS / 1000 + 0.0021, null, lines.slice(0, shown).join('\n'), sessionId) },
            outputAt: timed.start + YIELD_MS,
            running: { timed, sessionId, shownUntil: shown, lines, streams },
          };
        }
        if (this.style === 'shell-command') {
          const args: Json = { command, workdir: cwd };
          if (timeoutMs !== undefined) args.timeout_ms = timeoutMs;
          fn('shell_command', args);
        } else {
          const args: Json = { command: ['bash', '-lc', command], workdir: cwd };
          if (timeoutMs !== undefined) args.timeout_ms = timeoutMs;
          fn('shell', args);
        }
        if (call.tool === 'bash' && call.rejected) return { output: { type: 'function_call_output', call_id: callId, output: 'exec command rejected by user' } };
        const body = timedOut ? `command timed out after ${timeoutMs ?? 10_000} milliseconds\n${output}` : output;
        return { output: { type: 'function_call_output', call_id: callId, output: this.shellOutput(timedOut ? 124 : exit ?? 1, seconds, body) } };
      }
      case 'edit': case 'write': {
        const patch = call.tool === 'edit'
          ? `*** Begin Patch\n*** Update File: ${call.path}\n@@\n${call.old.split('\n').map((l) => `-${l}`).join('\n')}\n${call.new.split('\n').map((l) => `+${l}`).join('\n')}\n*** End Patch`
          : `*** Begin Patch\n*** Add File: ${call.path}\n${call.content.replace(/\n$/, '').split('\n').map((l) => `+${l}`).join('\n')}\n*** End Patch`;
        this.emit(at, 'response_item', { type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input: patch });
        const text = `Success. Updated the following files:\n${call.tool === 'edit' ? 'M' : 'A'} ${call.path}\n`;
        const output = this.style === 'shell-json' ? JSON.stringify({ output: text, metadata: { exit_code: 0, duration_seconds: 0.0 } }) : `Exit code: 0\nWall time: 0 seconds\nOutput:\n${text}`;
        return { output: { type: 'custom_tool_call_output', call_id: callId, output } };
      }
      case 'websearch':
        this.emit(at, 'response_item', { type: 'web_search_call', status: 'completed', action: { type: 'search', query: call.query } });
        return {};
      case 'webfetch':
        this.emit(at, 'response_item', { type: 'web_search_call', status: 'completed', action: { type: 'open_page', url: call.url } });
        return {};
      case 'todo':
        fn('update_plan', { plan: call.items.map((item) => ({ step: item.text, status: item.status })) });
        return { output: { type: 'function_call_output', call_id: callId, output: 'Plan updated' } };
      case 'task':
        throw new Error(`${this.story.id}: Codex stories have no task calls`);
    }
  }

  private shellOutput(exit: number, seconds: number, body: string): string {
    const cut = truncateMiddle(body);
    if (this.style === 'shell-json') {
      return JSON.stringify({ output: cut.text, metadata: { exit_code: exit, duration_seconds: Math.round(seconds * 10) / 10 } });
    }
    const header = [`Exit code: ${exit}`, `Wall time: ${(Math.round(seconds * 10) / 10).toFixed(1)} seconds`];
    if (cut.truncated) header.push(`Total output lines: ${cut.totalLines}`);
    return `${header.join('\n')}\nOutput:\n${cut.text}`;
  }

  private chunk(seconds: number, exit: number | null, body: string, sessionId?: number): string {
    const cut = truncateMiddle(body);
    const status = exit === null ? `Process running with session ID ${sessionId ?? 0}` : `Process exited with code ${exit}`;
    return [`Chunk ID: ${this.random.hex(6)}`, `Wall time: ${seconds.toFixed(4)} seconds`, status, `Original token count: ${Math.ceil(body.length / 4)}`, `Output:`, cut.text].join('\n');
  }

  /** A command still running after its yield: the model polls it with write_stdin until it exits. */
  private poll(run: Running): void {
    const { timed, lines } = run;
    const exit = timed.call.tool === 'bash' ? timed.call.exit : 0;
    let at = timed.start + YIELD_MS + this.random.between(1500, 4000);
    let shown = run.shownUntil;
    for (let attempt = 0; ; attempt += 1) {
      const yieldMs = POLL_YIELDS_MS[Math.min(attempt, POLL_YIELDS_MS.length - 1)]!;
      const callId = `call_${this.random.base62(24)}`;
      this.emit(at, 'response_item', { type: 'function_call', name: 'write_stdin', arguments: JSON.stringify({ session_id: run.sessionId, chars: '', yield_time_ms: yieldMs }), call_id: callId });
      this.tokenCount(at + 5, { context: 30_000, fresh: 400, output: 40 });
      const done = at + yieldMs >= timed.end;
      const end = done ? Math.max(timed.end, at + this.random.between(5, 40)) : at + yieldMs;
      // Output arrives in proportion to the time the command has run (all of it at the end when it does not stream).
      const until = done ? lines.length : run.streams ? Math.floor(lines.length * ((end - timed.start) / (timed.end - timed.start))) : shown;
      const body = lines.slice(shown, until).join('\n');
      this.emit(end, 'response_item', { type: 'function_call_output', call_id: callId, output: this.chunk((end - at) / 1000, done ? exit ?? 1 : null, body, run.sessionId) });
      shown = until;
      if (done) return;
      at = end + this.random.between(1200, 3500);
    }
  }
}

export function renderCodex(story: Story): Rendered {
  return new CodexRenderer(story).render();
}

