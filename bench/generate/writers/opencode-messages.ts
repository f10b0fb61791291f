import type { Prng } from '../../lib/prng.js';
import { AGENT_MODELS } from '../story/catalog.js';
import type { AssistantStep, Call, SessionInfo, Turn } from '../story/turns.js';

/**
 * opencode's data model (docs/formats/opencode.md, sessions/ses_*.json): messages as
 * `{info, parts}`, ids that sort by time, one assistant message per model step with
 * step-start / reasoning / text / tool / step-finish parts.
 */

type Json = Record<string, unknown>;

export interface OpencodeMessage {
  info: Json & { id: string };
  parts: (Json & { id: string })[];
}

const BASH_METADATA_CAP = 30_000;
const TRUNCATE_BYTES = 50 * 1024;
const TRUNCATE_LINES = 2000;

/** Ids as opencode mints them: 12 hex of (ms × 0x1000 + counter), then 14 random base62. */
export class OpencodeIds {
  private lastMs = -1;
  private counter = 0;

  constructor(private readonly prng: Prng) {}

  private value(ms: number): number {
    if (ms === this.lastMs) this.counter += 1;
    else {
      this.lastMs = ms;
      this.counter = 0;
    }
    return ms * 0x1000 + this.counter;
  }

  ascending(prefix: 'msg' | 'prt', ms: number): string {
    return `${prefix}_${(this.value(ms) % 2 ** 48).toString(16).padStart(12, '0')}${this.prng.base62(14)}`;
  }

  /** Session ids sort newest first: the bitwise NOT of the time value. */
  descending(ms: number): string {
    const inverted = 2 ** 48 - 1 - (this.value(ms) % 2 ** 48);
    return `ses_${inverted.toString(16).padStart(12, '0')}${this.prng.base62(14)}`;
  }
}

export function sessionInfo(id: string, projectID: string, info: SessionInfo, slug: string, endMs: number): Json {
  return {
    id,
    slug,
    projectID,
    directory: info.cwd,
    title: info.title,
    version: '1.2.6',
    summary: { additions: 0, deletions: 0, files: 0 },
    time: { created: info.startMs, updated: endMs },
  };
}

/** The bash tool's truncation: keep the head, say how much was cut and where the rest went. */
function truncated(output: string, callId: string): { text: string; cut: boolean; path: string | null } {
  const lines = output.split('\n');
  if (Buffer.byteLength(output) <= TRUNCATE_BYTES && lines.length <= TRUNCATE_LINES) return { text: output, cut: false, path: null };
  const byLines = lines.length > TRUNCATE_LINES;
  const head = byLines ? lines.slice(0, TRUNCATE_LINES).join('\n') : output.slice(0, TRUNCATE_BYTES);
  const path = `/home/aurora/.local/share/opencode/tool-output/tool_${callId.slice(-12)}`;
  const dropped = byLines ? `${lines.length - TRUNCATE_LINES} lines` : `${Buffer.byteLength(output) - Buffer.byteLength(head)} bytes`;
  return {
    text: `${head}\n\n...${dropped} truncated...\n\nThe tool call succeeded but the output was truncated. Full output saved to: ${path}\nUse the Read tool with offset/limit to view specific sections, or Grep to search it.`,
    cut: true,
    path,
  };
}

function toolState(call: Call, callId: string): Json {
  const time = { start: call.startMs, end: call.endMs };
  if (call.kind === 'search') {
    return { status: 'completed', input: { query: call.query, numResults: 8 }, output: call.output, title: '', metadata: { truncated: false }, time, attachments: [] };
  }
  if (call.kind === 'fetch') {
    return { status: 'completed', input: { maxCharacters: 8000, urls: [call.url] }, output: call.output, title: '', metadata: { truncated: false }, time, attachments: [] };
  }
  const input: Json = { command: call.command, description: call.description };
  if (call.timeoutMs !== 120_000) input['timeout'] = call.timeoutMs;
  let output = call.output;
  if (call.timedOut) output += `\n\n<bash_metadata>\nbash tool terminated command after exceeding timeout ${call.timeoutMs} ms\n</bash_metadata>`;
  const shown = truncated(output, callId);
  const capped = output.length > BASH_METADATA_CAP ? `${output.slice(0, BASH_METADATA_CAP)}\n\n...` : output;
  const metadata: Json = { output: capped, exit: call.exit, description: call.description, truncated: shown.cut };
  if (shown.path) metadata['outputPath'] = shown.path;
  return { status: 'completed', input, output: shown.text, title: call.description, metadata, time };
}

/** Builds each turn's message in the shape of an export (ids last, as opencode 1.2 reads rows back). */
export class OpencodeMessages {
  private parentId: string | null = null;
  private readonly snapshot: string;

  constructor(
    private readonly prng: Prng,
    private readonly ids: OpencodeIds,
    private readonly sessionId: string,
    private readonly info: SessionInfo,
  ) {
    this.snapshot = prng.hex(40);
  }

  private part(messageId: string, at: number, fields: Json): Json & { id: string } {
    return { ...fields, id: this.ids.ascending('prt', at), sessionID: this.sessionId, messageID: messageId };
  }

  message(turn: Turn): OpencodeMessage {
    return turn.role === 'user' ? this.user(turn.text, turn.atMs) : this.assistant(turn);
  }

  private user(text: string, at: number): OpencodeMessage {
    const id = this.ids.ascending('msg', at);
    this.parentId = id;
    return {
      info: { role: 'user', time: { created: at }, summary: { diffs: [] }, agent: 'build', model: { providerID: AGENT_MODELS.opencode.provider, modelID: AGENT_MODELS.opencode.model }, id, sessionID: this.sessionId },
      parts: [this.part(id, at + 1, { type: 'text', text })],
    };
  }

  private assistant(step: AssistantStep): OpencodeMessage {
    const id = this.ids.ascending('msg', step.startMs);
    const tokens = { input: step.tokens.input, output: step.tokens.output, reasoning: 0, cache: { read: step.tokens.cacheRead, write: step.tokens.cacheWrite } };
    const finish = step.final ? 'stop' : 'tool-calls';
    const parts: (Json & { id: string })[] = [this.part(id, step.startMs + 40, { type: 'step-start', snapshot: this.snapshot })];
    const firstCall = step.calls[0]?.startMs ?? step.endMs - 200;
    if (step.reasoning) parts.push(this.part(id, step.startMs + 60, { type: 'reasoning', text: step.reasoning, time: { start: step.startMs + 60, end: firstCall - 900 } }));
    if (step.text) parts.push(this.part(id, firstCall - 800, { type: 'text', text: step.text, time: { start: firstCall - 800, end: firstCall - 800 } }));
    for (const call of step.calls) {
      const callId = `toolu_01${this.prng.base62(22)}`;
      parts.push(this.part(id, call.startMs, { type: 'tool', callID: callId, tool: toolName(call), state: toolState(call, callId) }));
    }
    parts.push(this.part(id, step.endMs - 20, { type: 'step-finish', reason: finish, snapshot: this.snapshot, cost: step.cost, tokens }));
    return {
      info: {
        role: 'assistant',
        time: { created: step.startMs, completed: step.endMs },
        parentID: this.parentId,
        modelID: AGENT_MODELS.opencode.model,
        providerID: AGENT_MODELS.opencode.provider,
        mode: 'build',
        agent: 'build',
        path: { cwd: this.info.cwd, root: this.info.cwd },
        cost: step.cost,
        tokens,
        finish,
        id,
        sessionID: this.sessionId,
      },
      parts,
    };
  }
}

function toolName(call: Call): string {
  return call.kind === 'shell' ? 'bash' : call.kind === 'search' ? 'exa_web_search_exa' : 'exa_web_fetch_exa';
}
