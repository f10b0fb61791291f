// The opencode data model of a story (docs/formats/opencode.md): Session.Info, one user message per
// prompt, one assistant message per model step with its parts, ids minted from the clock. Both the
// `opencode export` document and the `opencode.db` rows are written from it.
import type { Call, Story } from '../schema.js';
import { Random } from './random.js';
import { buildTimeline, combinedOutput, fullCommand, type TimedCall, type TimedStep } from './timeline.js';
import { FileTracker, relativeTo, splitLines, unifiedDiff } from './text.js';

export type Json = Record<string, unknown>;

export interface OpencodeMessage { info: Json; parts: Json[] }
export interface OpencodeSession { info: Json; messages: OpencodeMessage[] }
export interface OpencodeDocument {
  session: OpencodeSession;
  /** Sessions the task tool opened (opencode keeps them as sessions with a parentID). */
  children: OpencodeSession[];
  projectId: string;
  /** opencode ≥ 1.2 reads rows back as `{...data, id}`, so its exports list ids last. */
  idsLast: boolean;
}

const PRICES: Record<string, { input: number; output: number; cacheRead: number; cacheWrite: number }> = {
  anthropic: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  openai: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
};

const MAX_LINES = 2000;
const MAX_BYTES = 50 * 1024;

function versionAtLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

/** Ids: `<prefix>_<12 hex of ms·4096+counter><14 base62>`; sessions count down so they sort newest first. */
class Ids {
  private lastMs = -1;
  private counter = 0;

  constructor(private readonly random: Random) {}

  make(prefix: string, ms: number, descending = false): string {
    if (ms === this.lastMs) this.counter += 1;
    else { this.lastMs = ms; this.counter = 1; }
    let value = BigInt(Math.round(ms)) * 0x1000n + BigInt(this.counter);
    if (descending) value = ~value;
    const hex = (value & 0xffffffffffffn).toString(16).padStart(12, '0');
    return `${prefix}_${hex}${this.random.base62(14)}`;
  }
}

class OpencodeBuilder {
  private readonly random: Random;
  private readonly ids: Ids;
  private readonly files = new FileTracker();
  private readonly children: OpencodeSession[] = [];
  private readonly idsLast: boolean;
  private readonly snapshot: string;
  private readonly home: string;
  readonly projectId: string;

  constructor(private readonly story: Story) {
    this.random = new Random(`opencode:${story.id}`);
    this.ids = new Ids(this.random);
    this.idsLast = versionAtLeast(story.session.version, 1, 2);
    this.snapshot = this.random.hex(40);
    this.projectId = this.random.hex(40);
    this.home = story.session.cwd.split('/').slice(0, 3).join('/');
  }

  private order(fields: Json, ids: Json): Json {
    return this.idsLast ? { ...fields, ...ids } : { ...ids, ...fields };
  }

  build(): OpencodeDocument {
    const timeline = buildTimeline(this.story, this.random, { defaultTimeoutMs: 120_000, baseContext: 14_000 });
    const created = Date.parse(this.story.session.start) - 1500;
    const sessionId = this.ids.make('ses', created, true);
    const messages: OpencodeMessage[] = [];
    let parentId = '';
    let updated = created;
    for (const turn of timeline) {
      if (turn.kind === 'user') {
        parentId = this.userMessage(messages, sessionId, turn.text, turn.at);
        updated = turn.at;
        continue;
      }
      this.stepMessage(messages, sessionId, parentId, turn);
      updated = turn.end + 80;
    }
    const info = this.sessionInfo(sessionId, this.story.session.title ?? this.story.title, created, updated);
    return { session: { info, messages }, children: this.children, projectId: this.projectId, idsLast: this.idsLast };
  }

  private sessionInfo(id: string, title: string, created: number, updated: number, parentId?: string): Json {
    const { session } = this.story;
    const info: Json = { id };
    if (versionAtLeast(session.version, 1, 1)) info.slug = this.random.int(0, 1) === 0 ? 'brisk-lantern' : 'calm-river';
    info.projectID = this.projectId;
    info.directory = session.cwd;
    if (parentId !== undefined) info.parentID = parentId;
    info.title = title;
    info.version = session.version;
    if (parentId === undefined) info.summary = { additions: 0, deletions: 0, files: 0 };
    info.time = { created, updated };
    return info;
  }

  private userMessage(messages: OpencodeMessage[], sessionId: string, text: string, at: number): string {
    const { session } = this.story;
    const id = this.ids.make('msg', at);
    const info = this.order({ role: 'user', time: { created: at }, summary: { diffs: [] }, agent: 'build', model: { providerID: session.provider, modelID: session.model } }, { id, sessionID: sessionId });
    const part = this.order({ type: 'text', text }, { id: this.ids.make('prt', at + 1), sessionID: sessionId, messageID: id });
    messages.push({ info, parts: [part] });
    return id;
  }

  private stepMessage(messages: OpencodeMessage[], sessionId: string, parentId: string, timed: TimedStep, agent = 'build'): void {
    const { session } = this.story;
    const random = this.random;
    const created = timed.start;
    const id = this.ids.make('msg', created);
    const ids = (at: number): Json => ({ id: this.ids.make('prt', at), sessionID: sessionId, messageID: id });
    const parts: Json[] = [];
    const finish = timed.calls.length > 0 ? 'tool-calls' : 'stop';
    const anthropic = session.provider === 'anthropic';
    const tokens = {
      input: anthropic ? random.int(3, 12) : timed.usage.fresh + random.int(20, 90),
      output: timed.usage.output,
      reasoning: anthropic ? 0 : Math.floor(timed.usage.output * 0.3),
      cache: { read: timed.usage.context, write: anthropic ? timed.usage.fresh : 0 },
    };
    const price = PRICES[session.provider] ?? PRICES.anthropic!;
    const cost = Math.round(((tokens.input * price.input + tokens.output * price.output + tokens.cache.read * price.cacheRead + tokens.cache.write * price.cacheWrite) / 1e6) * 1e8) / 1e8;
    parts.push(this.order({ type: 'step-start', snapshot: this.snapshot }, ids(timed.reasoningStart - 200)));
    if (timed.step.reasoning !== undefined) {
      parts.push(this.order({ type: 'reasoning', text: timed.step.reasoning, time: { start: timed.reasoningStart, end: timed.reasoningEnd } }, ids(timed.reasoningStart)));
    }
    if (timed.step.text !== undefined) {
      parts.push(this.order({ type: 'text', text: timed.step.text, time: { start: timed.textAt, end: timed.textAt } }, ids(timed.textAt)));
    }
    for (const call of timed.calls) {
      const callId = anthropic ? `toolu_01${random.base62(22)}` : `call_${random.base62(24)}`;
      // The part is minted when the tool's input starts streaming, after the text before it.
      const partIds = ids(Math.max(timed.textAt + 5, call.start - random.int(300, 900)));
      parts.push(this.order({ type: 'tool', callID: callId, tool: this.toolName(call.call), state: this.state(call, sessionId) }, partIds));
    }
    const end = timed.end + random.int(40, 400);
    parts.push(this.order({ type: 'step-finish', reason: finish, snapshot: this.snapshot, cost, tokens }, ids(end)));
    const info = this.order({
      role: 'assistant', time: { created, completed: end + 30 }, parentID: parentId, modelID: session.model, providerID: session.provider,
      mode: agent, agent, path: { cwd: session.cwd, root: session.cwd }, cost, tokens, finish,
    }, { id, sessionID: sessionId });
    messages.push({ info, parts });
  }

  private toolName(call: Call): string {
    const names = { bash: 'bash', read: 'read', edit: 'edit', write: 'write', websearch: 'exa_web_search_exa', webfetch: 'webfetch', todo: 'todowrite', task: 'task' } as const;
    return names[call.tool];
  }

  private truncate(text: string): { output: string; truncated: boolean; outputPath?: string } {
    const lines = splitLines(text);
    if (lines.length <= MAX_LINES && Buffer.byteLength(text) <= MAX_BYTES) return { output: text, truncated: false };
    const head: string[] = [];
    let bytes = 0;
    for (const line of lines) {
      if (head.length >= MAX_LINES || bytes + Buffer.byteLength(line) + 1 > MAX_BYTES) break;
      head.push(line);
      bytes += Buffer.byteLength(line) + 1;
    }
    const byLines = head.length >= MAX_LINES;
    const dropped = byLines ? `${lines.length - head.length} lines` : `${Buffer.byteLength(text) - bytes} bytes`;
    const outputPath = `${this.home}/.local/share/opencode/tool-output/tool_${this.random.hex(12)}${this.random.base62(14)}`;
    return {
      output: `${head.join('\n')}\n\n...${dropped} truncated...\n\nThe tool call succeeded but the output was truncated. Full output saved to: ${outputPath}\nUse the Task tool to have explore agent process this file with Grep and Read (with offset/limit). Do NOT read the full file yourself - delegate to save context.`,
      truncated: true,
      outputPath,
    };
  }

  private state(timed: TimedCall, sessionId: string): Json {
    const call = timed.call;
    const time = { start: timed.start, end: timed.end };
    const cwd = this.story.session.cwd;
    switch (call.tool) {
      case 'bash': {
        const input: Json = { command: fullCommand(call) };
        if (call.timeout_ms !== undefined) input.timeout = call.timeout_ms;
        const description = call.description ?? fullCommand(call).split('\n')[0]!.slice(0, 60);
        input.description = description;
        if (call.rejected) {
          return { status: 'error', input, error: 'The user rejected permission to use this specific tool call. You may try again with different parameters.', time };
        }
        let text = combinedOutput(call);
        if (call.timeout) text += `\n\n<bash_metadata>\nbash tool terminated command after exceeding timeout ${call.timeout_ms ?? 120_000} ms\n</bash_metadata>`;
        const cut = this.truncate(text);
        const metadata: Json = { output: text.length > 30_000 ? `${text.slice(0, 30_000)}\n\n...` : text, exit: call.timeout ? null : call.exit, description, truncated: cut.truncated };
        if (cut.outputPath !== undefined) metadata.outputPath = cut.outputPath;
        return { status: 'completed', input, output: cut.output, title: description, metadata, time };
      }
      case 'read': {
        this.files.set(call.path, call.output);
        const lines = splitLines(call.output);
        const numbered = lines.map((line, index) => `${String(index + 1).padStart(5, '0')}| ${line}`).join('\n');
        return {
          status: 'completed', input: { filePath: call.path },
          output: `<file>\n${numbered}\n\n(End of file - total ${lines.length} lines)\n</file>`,
          title: relativeTo(cwd, call.path), metadata: { preview: lines.slice(0, 20).join('\n'), truncated: false }, time,
        };
      }
      case 'edit': {
        const { before, after } = this.files.edit(call.path, call.old, call.new);
        const diff = unifiedDiff(call.path, before, call.old, call.new);
        return {
          status: 'completed', input: { filePath: call.path, oldString: call.old, newString: call.new }, output: 'Edit applied successfully.',
          title: relativeTo(cwd, call.path),
          metadata: { diagnostics: {}, diff, filediff: { file: call.path, before, after, additions: splitLines(call.new).length, deletions: splitLines(call.old).length } }, time,
        };
      }
      case 'write': {
        const exists = this.files.seen(call.path) !== undefined;
        this.files.set(call.path, call.content);
        return {
          status: 'completed', input: { content: call.content, filePath: call.path }, output: 'Wrote file successfully.',
          title: relativeTo(cwd, call.path), metadata: { diagnostics: {}, filepath: call.path, exists }, time,
        };
      }
      case 'websearch': {
        const output = call.results.map((result) => `Title: ${result.title}\nURL: ${result.url}\nPublished: N/A\nAuthor: N/A\nText: ${result.text}`).join('\n\n');
        return { status: 'completed', input: { query: call.query, numResults: Math.max(5, call.results.length) }, output, title: '', metadata: { truncated: false }, time, attachments: [] };
      }
      case 'webfetch':
        return { status: 'completed', input: { url: call.url, format: 'markdown' }, output: call.output, title: `${call.url} (text/html; charset=utf-8)`, metadata: {}, time };
      case 'todo': {
        const todos = call.items.map((item, index) => ({ content: item.text, status: item.status, priority: index === 0 ? 'high' : 'medium', id: String(index + 1) }));
        return { status: 'completed', input: { todos }, output: JSON.stringify(todos, null, 2), title: `${todos.filter((todo) => todo.status !== 'completed').length} todos`, metadata: { todos }, time };
      }
      case 'task': {
        const childId = this.child(call, timed, sessionId);
        return {
          status: 'completed', input: { description: call.description, prompt: call.prompt, subagent_type: call.subagent_type },
          output: `${call.output}\n\n<task_metadata>\nsession_id: ${childId}\n</task_metadata>`, title: call.description,
          metadata: { summary: [], sessionId: childId }, time,
        };
      }
    }
  }

  /** The task tool's child session: its prompt, the subagent's steps, its final report. */
  private child(call: Extract<Call, { tool: 'task' }>, timed: TimedCall, parentSessionId: string): string {
    const created = timed.start + 60;
    const sessionId = this.ids.make('ses', created, true);
    const messages: OpencodeMessage[] = [];
    const userId = this.userMessage(messages, sessionId, call.prompt, created + 20);
    for (const step of timed.steps) this.stepMessage(messages, sessionId, userId, step, call.subagent_type);
    const last = timed.steps[timed.steps.length - 1];
    const reportAt = (last?.end ?? created) + 900;
    this.stepMessage(messages, sessionId, userId, {
      kind: 'assistant', turn: -1, step: { text: call.output, calls: [], sequential: false }, start: reportAt - 1500, reasoningStart: reportAt - 1200,
      reasoningEnd: reportAt - 1200, textAt: reportAt, calls: [], end: reportAt + 60, usage: { context: 12_000, fresh: 600, output: Math.ceil(call.output.length / 3.7) }, final: true,
    }, call.subagent_type);
    this.children.push({ info: this.sessionInfo(sessionId, `${call.description} (@${call.subagent_type} subagent)`, created, reportAt + 200, parentSessionId), messages });
    return sessionId;
  }
}

export function buildOpencode(story: Story): OpencodeDocument {
  return new OpencodeBuilder(story).build();
}
