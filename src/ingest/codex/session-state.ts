import { titleFromRequest } from '../jsonl/prompt-title.js';
import { extraJson, timeOf } from '../jsonl/values.js';
import type { IngestItem } from '../../core/model.js';
import { subagentSourceSchema, type SessionMeta } from './schema.js';

/** The thread id in a rollout's file name (`rollout-<local time>-<uuid>.jsonl[.zst]`). */
export function threadIdFromPath(path: string): string | null {
  return /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(\.zst)?$/i.exec(path)?.[1] ?? null;
}

/**
 * What a rollout says about its thread: id (session_meta or the legacy header), the parent of a
 * spawned subagent thread, folder, time span, the model of the current turn and a title.
 */
export class CodexSessionState {
  id: string | null = null;
  legacy = false;
  provider: string | null = null;
  /** The model of the turn being read (`turn_context`); a user can switch it between turns. */
  model: string | null = null;
  private parentId: string | null = null;
  private firstModel: string | null = null;
  private directory: string | null = null;
  private startedAt: number | null = null;
  private endedAt: number | null = null;
  private threadName: string | null = null;
  private promptTitle: string | null = null;
  private details: Record<string, unknown> = {};

  /** False when earlier lines, read by an earlier ingest, already made the session. */
  private fresh = true;
  /** False when an earlier ingest already saw the first prompt (and titled the session after it). */
  private titleFromPrompt = true;

  constructor(private readonly file: string) {}

  /** Resuming mid-file: what the earlier lines established, so values the session began with win. */
  primeResumed(firstModel: string | null, promptBefore: boolean): void {
    this.fresh = this.id === null;
    this.titleFromPrompt = !promptBefore;
    this.firstModel = firstModel;
  }

  fromMeta(meta: SessionMeta): void {
    if (this.id !== null && this.id !== meta.id) return; // a replayed or forked thread's meta: the file's own came first
    this.id = meta.id;
    this.directory ??= meta.cwd ?? null;
    this.provider = meta.model_provider ?? this.provider;
    this.noteTime(timeOf(meta.timestamp));
    const source = subagentSourceSchema.safeParse(meta.source);
    const spawn = source.success && typeof source.data.subagent === 'object' ? source.data.subagent.thread_spawn : undefined;
    this.parentId = spawn?.parent_thread_id ?? null;
    this.details = {
      cliVersion: meta.cli_version,
      originator: meta.originator,
      source: source.success ? (typeof source.data.subagent === 'string' ? `subagent:${source.data.subagent}` : 'subagent') : meta.source,
      agentNickname: meta.agent_nickname ?? spawn?.agent_nickname,
      agentRole: meta.agent_role ?? spawn?.agent_role,
      forkedFromId: meta.forked_from_id,
      git: meta.git,
    };
  }

  fromLegacyHeader(id: string, timestamp: string | undefined, git: unknown): void {
    this.id = id;
    this.legacy = true;
    this.noteTime(timeOf(timestamp));
    this.details = { format: 'legacy', git };
  }

  noteModel(model: string | undefined, cwd: string | undefined): void {
    if (model) {
      this.model = model;
      this.firstModel ??= model;
    }
    this.directory ??= cwd ?? null;
  }

  noteTime(at: number | null): void {
    if (at === null) return;
    this.startedAt = this.startedAt === null ? at : Math.min(this.startedAt, at);
    this.endedAt = this.endedAt === null ? at : Math.max(this.endedAt, at);
  }

  /** A prompt: the first that holds a request of the user's own (not an IDE preamble) titles the session. */
  notePrompt(text: string): void {
    this.promptTitle ??= titleFromRequest(text);
  }

  setThreadName(name: string): void {
    this.threadName = name;
  }

  sessionId(): string {
    this.id ??= threadIdFromPath(this.file) ?? this.file;
    return this.id;
  }

  finish(): IngestItem[] {
    if (this.id === null) return [];
    const title = this.threadName ?? (this.titleFromPrompt ? this.promptTitle : null);
    return [
      {
        kind: 'session',
        session: {
          id: this.id,
          agent: 'codex',
          parentId: this.parentId,
          title,
          directory: this.directory,
          startedAt: this.startedAt,
          endedAt: this.endedAt,
          model: this.firstModel,
          // A resumed read reports its extra only with a new title: the store keeps the last extra whole.
          extra: !this.fresh && title === null ? null : extraJson({ ...this.details, titleSource: this.threadName ? 'thread-name' : title ? 'first-prompt' : null }),
        },
        location: { file: this.file, line: 1 },
        agentVersion: typeof this.details['cliVersion'] === 'string' ? this.details['cliVersion'] : null,
      },
    ];
  }
}
