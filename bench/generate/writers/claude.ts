import { join } from 'node:path';
import type { Prng } from '../../lib/prng.js';
import { AGENT_MODELS } from '../story/catalog.js';
import type { AssistantStep, Call, SessionInfo, ShellCall, Turn } from '../story/turns.js';
import { FileSink } from './sink.js';
import type { SessionLimits, WrittenSession } from './written.js';

/**
 * Claude Code JSONL (docs/formats/claude-code.md, test/fixtures/claude): one line per content
 * block of a response, tool results as user records with the `toolUseResult` sidecar, progress
 * and bookkeeping lines between them, titles at the end.
 */

const VERSION = '2.1.19';
const CLAUDE_MAX_TIMEOUT_MS = 600_000;

const iso = (ms: number): string => new Date(ms).toISOString();

/** `/home/ops/gptoss` → `-home-ops-gptoss`, as Claude Code names project folders. */
export function projectKey(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

function duration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const seconds = ((ms % 60_000) / 1000).toFixed(1);
  return minutes > 0 ? `${minutes}m ${seconds}s` : `${seconds}s`;
}

/**
 * How much bookkeeping a session carries. `heavy`: the shape of the 734 MB session that crashed
 * ccusage — a `file-history-snapshot` after every turn listing every file tracked so far (the list
 * grows, and each snapshot repeats it), and `bash_progress` lines for every shell call.
 */
export interface ClaudeStyle {
  heavy: boolean;
}

const TRACKED_PER_TURN = 12;
const TRACKED_CAP = 3000;

class ClaudeSessionWriter {
  private readonly sink: FileSink;
  private readonly tracked: string[] = [];
  private readonly envelope: Record<string, unknown>;
  private parent: string | null = null;
  private promptId = '';
  private lastPrompt = '';
  private turnStartMs = 0;
  private turnMessages = 0;

  constructor(
    private readonly prng: Prng,
    readonly sessionId: string,
    private readonly info: SessionInfo,
    file: string,
    private readonly style: ClaudeStyle = { heavy: false },
  ) {
    this.sink = new FileSink(file);
    this.envelope = {
      isSidechain: false,
      userType: 'external',
      entrypoint: 'cli',
      cwd: info.cwd,
      sessionId,
      version: VERSION,
      gitBranch: 'main',
      slug: `${prng.pick(['steady', 'quiet', 'amber', 'brisk'])}-${prng.pick(['harbor', 'lighthouse', 'falcon', 'meadow'])}-${prng.pick(['north', 'river', 'stone'])}`,
    };
  }

  get bytes(): number {
    return this.sink.bytes;
  }

  private line(record: Record<string, unknown>): void {
    this.sink.write(`${JSON.stringify(record)}\n`);
  }

  /** A threaded record: parentUuid first, then the envelope, as Claude Code orders them. */
  private threaded(fields: Record<string, unknown>, at: number): string {
    const uuid = this.prng.uuid();
    this.line({ parentUuid: this.parent, ...this.envelope, ...fields, uuid, timestamp: iso(at) });
    this.parent = uuid;
    return uuid;
  }

  writeTurn(turn: Turn): void {
    if (turn.role === 'user') this.writePrompt(turn.text, turn.atMs);
    else this.writeStep(turn);
  }

  private writePrompt(text: string, at: number): void {
    const uuid = this.prng.uuid();
    this.line({ type: 'file-history-snapshot', messageId: uuid, snapshot: { messageId: uuid, trackedFileBackups: {}, timestamp: iso(at - 30) }, isSnapshotUpdate: false });
    this.promptId = this.prng.uuid();
    this.lastPrompt = text;
    this.turnStartMs = at;
    this.turnMessages = 1;
    this.line({ parentUuid: this.parent, ...this.envelope, type: 'user', promptId: this.promptId, message: { role: 'user', content: text }, uuid, timestamp: iso(at), thinkingMetadata: { level: 'high', disabled: false, triggers: [] }, todos: [], permissionMode: 'default' });
    this.parent = uuid;
  }

  private writeStep(step: AssistantStep): void {
    const messageId = `msg_01${this.prng.base62(22)}`;
    const requestId = `req_011C${this.prng.base62(20)}`;
    const usage = {
      input_tokens: step.tokens.input,
      cache_creation_input_tokens: step.tokens.cacheWrite,
      cache_read_input_tokens: step.tokens.cacheRead,
      cache_creation: { ephemeral_5m_input_tokens: step.tokens.cacheWrite, ephemeral_1h_input_tokens: 0 },
      output_tokens: step.tokens.output,
      service_tier: 'standard',
    };
    const stop = step.calls.length > 0 ? 'tool_use' : 'end_turn';
    const blocks: Record<string, unknown>[] = [];
    if (step.reasoning) blocks.push({ type: 'thinking', thinking: step.reasoning, signature: this.prng.base62(220) });
    if (step.text) blocks.push({ type: 'text', text: step.text });
    const callIds = step.calls.map(() => `toolu_01${this.prng.base62(22)}`);
    step.calls.forEach((call, index) => blocks.push({ type: 'tool_use', id: callIds[index], name: toolName(call), input: toolInput(call) }));
    const spacing = Math.max(1, Math.floor(((step.calls[0]?.startMs ?? step.endMs) - step.startMs) / Math.max(1, blocks.length)));
    const issuers: string[] = [];
    blocks.forEach((block, index) => {
      const uuid = this.threaded({ message: { model: AGENT_MODELS.claude.model, id: messageId, type: 'message', role: 'assistant', content: [block], stop_reason: stop, stop_sequence: null, usage }, requestId, type: 'assistant' }, step.startMs + Math.floor(spacing * (index + 1)));
      if (block['type'] === 'tool_use') issuers.push(uuid);
    });
    this.turnMessages += 1;
    // Results arrive as each call finishes; each hangs off the tool_use line that issued it.
    const order = step.calls.map((call, index) => ({ call, index })).sort((a, b) => a.call.endMs - b.call.endMs);
    for (const { call, index } of order) {
      const issuer = issuers[index] as string;
      if (call.kind === 'shell' && (this.style.heavy || (call.endMs - call.startMs > 60_000 && this.prng.chance(0.5)))) this.progress(call, callIds[index] as string, issuer);
      this.parent = issuer;
      const { content, isError, sidecar } = toolResult(call, this.prng);
      this.threaded({ promptId: this.promptId, type: 'user', message: { role: 'user', content: [{ tool_use_id: callIds[index], type: 'tool_result', content, is_error: isError }] }, toolUseResult: sidecar, sourceToolAssistantUUID: issuer }, call.endMs);
    }
    if (this.style.heavy) this.snapshotUpdate(step.endMs);
    if (step.final) {
      this.threaded({ type: 'system', subtype: 'turn_duration', durationMs: step.endMs - this.turnStartMs, messageCount: this.turnMessages, isMeta: true }, step.endMs + 5);
    }
  }

  /** The files edited so far, each with its backup: the snapshot Claude Code writes after a turn. */
  private snapshotUpdate(at: number): void {
    for (let i = 0; i < TRACKED_PER_TURN && this.tracked.length < TRACKED_CAP; i += 1) {
      this.tracked.push(`${this.info.cwd}/${this.prng.pick(['src', 'deploy', 'scripts', 'configs', 'notes'])}/${this.prng.base62(8)}.${this.prng.pick(['py', 'sh', 'yaml', 'md', 'json'])}`);
    }
    const backups: Record<string, unknown> = {};
    this.tracked.forEach((path, index) => {
      backups[path] = { backupFileName: `${this.prng.hex(16)}@v${1 + (index % 4)}`, version: 1 + (index % 4), backupTime: iso(at - index * 1000) };
    });
    const messageId = this.prng.uuid();
    this.line({ type: 'file-history-snapshot', messageId, snapshot: { messageId, trackedFileBackups: backups, timestamp: iso(at) }, isSnapshotUpdate: true });
  }

  /** `bash_progress` lines a long Bash call leaves while it runs (2.0.x – early 2.1); a heavy session has more. */
  private progress(call: ShellCall, callId: string, issuer: string): void {
    const lines = call.output.split('\n').filter(Boolean);
    const steps = this.style.heavy ? 8 : 2;
    for (let i = 1; i <= steps; i += 1) {
      const shown = lines.slice(0, Math.ceil((lines.length * i) / (steps + 1)));
      this.line({ parentUuid: issuer, ...this.envelope, type: 'progress', data: { type: 'bash_progress', output: shown.slice(-5).join('\n'), fullOutput: shown.join('\n'), elapsedTimeSeconds: Math.floor(((call.endMs - call.startMs) * i) / ((steps + 1) * 1000)), totalLines: shown.length }, toolUseID: `bash-progress-${i - 1}`, parentToolUseID: callId, uuid: this.prng.uuid(), timestamp: iso(call.startMs + ((call.endMs - call.startMs) * i) / (steps + 1)) });
    }
  }

  close(): void {
    this.line({ type: 'last-prompt', lastPrompt: this.lastPrompt, leafUuid: this.parent, sessionId: this.sessionId });
    this.line({ type: 'ai-title', aiTitle: this.info.title, sessionId: this.sessionId });
    this.sink.close();
  }
}

function toolName(call: Call): string {
  return call.kind === 'shell' ? 'Bash' : call.kind === 'search' ? 'WebSearch' : 'WebFetch';
}

function toolInput(call: Call): Record<string, unknown> {
  if (call.kind === 'search') return { query: call.query };
  if (call.kind === 'fetch') return { url: call.url, prompt: 'Summarise what this page says about running the model on this hardware: images, versions, flags.' };
  const input: Record<string, unknown> = { command: call.command, description: call.description };
  if (call.timeoutMs !== 120_000) input['timeout'] = Math.min(call.timeoutMs, CLAUDE_MAX_TIMEOUT_MS);
  return input;
}

function toolResult(call: Call, prng: Prng): { content: string; isError: boolean; sidecar: unknown } {
  const output = call.output.replace(/\n$/, '');
  if (call.kind === 'search') {
    const links = [...output.matchAll(/Title: (.*)\nURL: (.*)/g)].map((m) => ({ title: m[1], url: m[2] }));
    const content = `Web search results for query: "${call.query}"\n\nLinks: ${JSON.stringify(links)}\n\n${output}`;
    return { content, isError: false, sidecar: { query: call.query, results: [{ tool_use_id: `srvtoolu_01${prng.base62(22)}`, content: links }, output], durationSeconds: (call.endMs - call.startMs) / 1000 } };
  }
  if (call.kind === 'fetch') {
    return { content: output, isError: false, sidecar: { bytes: output.length * 3, code: 200, codeText: 'OK', result: output, durationMs: call.endMs - call.startMs, url: call.url } };
  }
  if (call.timedOut) {
    const text = `Command timed out after ${duration(call.timeoutMs)}\n${output}`;
    return { content: text, isError: true, sidecar: `Error: ${text}` };
  }
  if (call.exit !== 0) {
    const text = `Exit code ${call.exit}\n${output}`;
    return { content: text, isError: true, sidecar: `Error: ${text}` };
  }
  return { content: output, isError: false, sidecar: { stdout: output, stderr: '', interrupted: false, isImage: false, noOutputExpected: false } };
}

/** Writes one session as `<root>/projects/<project-key>/<sessionId>.jsonl`, stopping at the limits. */
export function writeClaudeSession(prng: Prng, info: SessionInfo, turns: Iterable<Turn>, root: string, limits: SessionLimits, style?: ClaudeStyle): WrittenSession {
  const sessionId = prng.uuid();
  const file = join(root, 'projects', projectKey(info.cwd), `${sessionId}.jsonl`);
  const writer = new ClaudeSessionWriter(prng, sessionId, info, file, style);
  let messages = 0;
  let toolCalls = 0;
  for (const turn of turns) {
    writer.writeTurn(turn);
    messages += 1;
    if (turn.role === 'assistant') toolCalls += turn.calls.length;
    if (messages >= limits.messages || writer.bytes >= limits.bytes) break;
  }
  writer.close();
  return { id: sessionId, files: [file], bytes: writer.bytes, messages, toolCalls };
}
