// Claude Code 2.1.x JSONL (docs/formats/claude-code.md): one line per content block, a
// uuid/parentUuid chain, tool results as user records with a `toolUseResult` sidecar, subagents
// in `<sessionId>/subagents/agent-<id>.jsonl`.
import type { Call, Story } from '../schema.js';
import { Random } from './random.js';
import { buildTimeline, combinedOutput, fullCommand, iso, type TimedCall, type TimedStep } from './timeline.js';
import { FileTracker, gerund, hunk, lineOfText, splitLines } from './text.js';
import type { Rendered, RenderedFile } from './types.js';

const REJECTED = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
const TODO_OK = 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable';

type Json = Record<string, unknown>;

interface Thread {
  lines: Json[];
  parent: string | null;
  agentId?: string;
}

function duration(ms: number): string {
  const total = ms / 1000;
  if (total < 60) return `${total.toFixed(1)}s`;
  const minutes = Math.floor(total / 60);
  return `${minutes}m ${(total - minutes * 60).toFixed(1)}s`;
}

function catN(text: string, start = 1): string {
  return splitLines(text).map((line, index) => `${String(start + index).padStart(6)}→${line}`).join('\n');
}

function projectKey(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

class ClaudeRenderer {
  private readonly random: Random;
  private readonly files = new FileTracker();
  readonly sessionId: string;
  private readonly slug: string;
  private readonly subagents: RenderedFile[] = [];

  constructor(private readonly story: Story) {
    this.random = new Random(`claude:${story.id}`);
    this.sessionId = this.random.uuid4();
    const words = ['quiet', 'amber', 'rolling', 'copper', 'hidden', 'lucky', 'brave', 'sunny', 'frosty', 'wandering', 'humming', 'silver'];
    const nouns = ['falcon', 'harbor', 'meadow', 'lantern', 'otter', 'canyon', 'pebble', 'comet', 'willow', 'badger'];
    this.slug = `${words[this.random.int(0, words.length - 1)]}-${words[this.random.int(0, words.length - 1)]}-${nouns[this.random.int(0, nouns.length - 1)]}`;
  }

  private envelope(thread: Thread): Json {
    const base: Json = { parentUuid: thread.parent, isSidechain: thread.agentId !== undefined, userType: 'external', cwd: this.story.session.cwd, sessionId: this.sessionId, version: this.story.session.version, gitBranch: this.story.session.git_branch };
    if (thread.agentId !== undefined) base.agentId = thread.agentId;
    base.slug = this.slug;
    return base;
  }

  private push(thread: Thread, fields: Json, at: number): string {
    const uuid = this.random.uuid4();
    thread.lines.push({ ...this.envelope(thread), ...fields, uuid, timestamp: iso(at) });
    thread.parent = uuid;
    return uuid;
  }

  render(): Rendered {
    const timeline = buildTimeline(this.story, this.random, { defaultTimeoutMs: 120_000, baseContext: 18_000 });
    const main: Thread = { lines: [], parent: null };
    let promptId = '';
    let turnStart = 0;
    for (const turn of timeline) {
      if (turn.kind === 'user') {
        promptId = this.random.uuid4();
        turnStart = turn.at;
        const uuid = this.random.uuid4();
        main.lines.push({ type: 'file-history-snapshot', messageId: uuid, snapshot: { messageId: uuid, trackedFileBackups: {}, timestamp: iso(turn.at) }, isSnapshotUpdate: false });
        main.lines.push({
          ...this.envelope(main), promptId, type: 'user', message: { role: 'user', content: turn.text }, uuid, timestamp: iso(turn.at),
          thinkingMetadata: { maxThinkingTokens: 31999 }, todos: [], permissionMode: 'default',
        });
        main.parent = uuid;
        continue;
      }
      this.step(main, turn, promptId);
      if (turn.final) {
        this.push(main, { type: 'system', subtype: 'turn_duration', durationMs: turn.end + 400 - turnStart, isMeta: false }, turn.end + 400);
      }
    }
    if (this.story.session.title !== undefined) {
      main.lines.push({ type: 'ai-title', aiTitle: this.story.session.title, sessionId: this.sessionId });
    }
    const dir = `projects/${projectKey(this.story.session.cwd)}`;
    const jsonl = (lines: Json[]): string => lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
    return {
      sessionId: this.sessionId,
      files: [
        { path: `${dir}/${this.sessionId}.jsonl`, kind: 'text', text: jsonl(main.lines) },
        ...this.subagents.map((file) => ({ ...file, path: `${dir}/${this.sessionId}/subagents/${file.path}` })),
      ],
    };
  }

  private step(thread: Thread, timed: TimedStep, promptId: string): void {
    const random = this.random;
    const message = { model: this.story.session.model, id: `msg_01${random.base62(22)}`, type: 'message', role: 'assistant' };
    const requestId = `req_011C${random.base62(20)}`;
    const stop = timed.calls.length > 0 ? 'tool_use' : 'end_turn';
    const cacheWrite = timed.usage.fresh;
    const usage = {
      input_tokens: random.int(3, 12), cache_creation_input_tokens: cacheWrite, cache_read_input_tokens: timed.usage.context,
      cache_creation: { ephemeral_5m_input_tokens: cacheWrite, ephemeral_1h_input_tokens: 0 }, output_tokens: timed.usage.output, service_tier: 'standard',
    };
    const block = (content: Json, at: number): void => {
      this.push(thread, { message: { ...message, content: [content], stop_reason: stop, stop_sequence: null, usage }, requestId, type: 'assistant' }, at);
    };
    const { step } = timed;
    if (step.reasoning !== undefined) block({ type: 'thinking', thinking: step.reasoning, signature: random.opaque(240) }, timed.reasoningEnd);
    if (step.text !== undefined) block({ type: 'text', text: step.text }, timed.textAt);
    const uses = timed.calls.map((call, index) => {
      const id = `toolu_01${random.base62(22)}`;
      block({ type: 'tool_use', id, name: this.toolName(call.call), input: this.input(call.call), caller: { type: 'direct' } }, Math.min(call.start, timed.textAt + 40 * (index + 1)));
      return { id, uuid: thread.parent as string, call };
    });
    const finished = [...uses].sort((a, b) => a.call.end - b.call.end);
    for (const use of finished) {
      const result = this.result(use.call);
      const uuid = random.uuid4();
      thread.lines.push({
        ...this.envelope({ ...thread, parent: use.uuid }), promptId, type: 'user',
        message: { role: 'user', content: [{ tool_use_id: use.id, type: 'tool_result', content: result.content, is_error: result.isError }] },
        uuid, timestamp: iso(use.call.end), toolUseResult: result.sidecar, sourceToolAssistantUUID: use.uuid,
      });
      thread.parent = uuid;
    }
  }

  private toolName(call: Call): string {
    const names = { bash: 'Bash', read: 'Read', edit: 'Edit', write: 'Write', websearch: 'WebSearch', webfetch: 'WebFetch', todo: 'TodoWrite', task: 'Task' } as const;
    return names[call.tool];
  }

  private input(call: Call): Json {
    switch (call.tool) {
      case 'bash': {
        const input: Json = { command: fullCommand(call) };
        if (call.timeout_ms !== undefined) input.timeout = call.timeout_ms;
        if (call.description !== undefined) input.description = call.description;
        return input;
      }
      case 'read': return { file_path: call.path };
      case 'edit': return { file_path: call.path, old_string: call.old, new_string: call.new };
      case 'write': return { file_path: call.path, content: call.content };
      case 'websearch': return { query: call.query };
      case 'webfetch': return { url: call.url, prompt: call.prompt ?? 'Summarise what this page says about the question at hand.' };
      case 'todo': return { todos: call.items.map((item) => ({ content: item.text, status: item.status, activeForm: gerund(item.text) })) };
      case 'task': return { description: call.description, prompt: call.prompt, subagent_type: call.subagent_type };
    }
  }

  private result(timed: TimedCall): { content: unknown; isError: boolean; sidecar: unknown } {
    const call = timed.call;
    const random = this.random;
    switch (call.tool) {
      case 'bash': {
        if (call.rejected) return { content: REJECTED, isError: true, sidecar: `Error: ${REJECTED}` };
        const stdout = call.output.replace(/\n+$/, '');
        const stderr = (call.stderr ?? '').replace(/\n+$/, '');
        const text = combinedOutput(call).replace(/\n+$/, '');
        if (call.timeout) {
          const head = `Command timed out after ${duration(call.timeout_ms ?? 120_000)}`;
          const content = text === '' ? head : `${head}\n${text}`;
          return { content, isError: true, sidecar: `Error: ${content}` };
        }
        if (call.exit !== 0) {
          const content = `Exit code ${call.exit ?? 1}\n${text}`;
          return { content, isError: true, sidecar: `Error: ${content}` };
        }
        return { content: text, isError: false, sidecar: { stdout, stderr, interrupted: false, isImage: false } };
      }
      case 'read': {
        this.files.set(call.path, call.output);
        const lines = splitLines(call.output);
        return { content: catN(call.output), isError: false, sidecar: { type: 'text', file: { filePath: call.path, content: call.output, numLines: lines.length, startLine: 1, totalLines: lines.length } } };
      }
      case 'edit': {
        const { before, after } = this.files.edit(call.path, call.old, call.new);
        const start = lineOfText(after, call.new);
        const from = Math.max(1, start - 4);
        const snippet = splitLines(after).slice(from - 1, start - 1 + splitLines(call.new).length + 4).join('\n');
        return {
          content: `The file ${call.path} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${catN(snippet, from)}`,
          isError: false,
          sidecar: { filePath: call.path, oldString: call.old, newString: call.new, originalFile: before, structuredPatch: [hunk(before, call.old, call.new)], userModified: false, replaceAll: false },
        };
      }
      case 'write': {
        const existed = this.files.seen(call.path) !== undefined;
        this.files.set(call.path, call.content);
        return {
          content: existed ? `The file ${call.path} has been updated.` : `File created successfully at: ${call.path}`,
          isError: false,
          sidecar: { type: existed ? 'update' : 'create', filePath: call.path, content: call.content, structuredPatch: [], originalFile: null },
        };
      }
      case 'websearch': {
        const links = call.results.map((result) => ({ title: result.title, url: result.url }));
        const summary = call.summary ?? call.results.map((result) => `- ${result.title}: ${result.text}`).join('\n');
        return {
          content: `Web search results for query: "${call.query}"\n\nLinks: ${JSON.stringify(links)}\n\n${summary}`,
          isError: false,
          sidecar: { query: call.query, results: [{ tool_use_id: `srvtoolu_01${random.base62(22)}`, content: links }, summary], durationSeconds: (timed.end - timed.start) / 1000 },
        };
      }
      case 'webfetch':
        return {
          content: call.output, isError: false,
          sidecar: { bytes: random.int(40_000, 260_000), code: 200, codeText: 'OK', result: call.output, durationMs: timed.end - timed.start, url: call.url },
        };
      case 'todo': {
        const todos = call.items.map((item) => ({ content: item.text, status: item.status, activeForm: gerund(item.text) }));
        return { content: TODO_OK, isError: false, sidecar: { oldTodos: [], newTodos: todos } };
      }
      case 'task': {
        const agentId = `a${random.hex(16)}`;
        this.subagent(call, timed, agentId);
        const toolUses = timed.steps.reduce((sum, step) => sum + step.calls.length, 0);
        const content = [{ type: 'text', text: call.output }];
        return {
          content, isError: false,
          sidecar: {
            status: 'completed', prompt: call.prompt, agentId, content, totalDurationMs: timed.end - timed.start,
            totalTokens: timed.steps.reduce((sum, step) => sum + step.usage.output + step.usage.fresh, 9000), totalToolUseCount: toolUses,
            usage: { input_tokens: 6, cache_creation_input_tokens: 2100, cache_read_input_tokens: 31000, output_tokens: 900, service_tier: 'standard' },
          },
        };
      }
    }
  }

  private subagent(call: Extract<Call, { tool: 'task' }>, timed: TimedCall, agentId: string): void {
    const thread: Thread = { lines: [], parent: null, agentId };
    const promptId = this.random.uuid4();
    this.push(thread, { promptId, type: 'user', message: { role: 'user', content: call.prompt } }, timed.start + 150);
    for (const step of timed.steps) this.step(thread, { ...step, final: false }, promptId);
    const last = timed.steps[timed.steps.length - 1];
    const reportAt = (last?.end ?? timed.start) + 1200;
    const finalStep: TimedStep = {
      kind: 'assistant', turn: -1, step: { text: call.output, calls: [], sequential: false }, start: reportAt - 900, reasoningStart: reportAt - 800,
      reasoningEnd: reportAt - 800, textAt: reportAt, calls: [], end: reportAt + 100, usage: { context: 14_000, fresh: 800, output: Math.ceil(call.output.length / 3.7) }, final: true,
    };
    this.step(thread, finalStep, promptId);
    this.subagents.push({ path: `agent-${agentId}.jsonl`, kind: 'text', text: thread.lines.map((line) => JSON.stringify(line)).join('\n') + '\n' });
  }
}

export function renderClaude(story: Story): Rendered {
  return new ClaudeRenderer(story).render();
}
