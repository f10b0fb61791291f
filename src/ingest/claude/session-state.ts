import { titleFromRequest } from '../jsonl/prompt-title.js';
import { extraJson } from '../jsonl/values.js';
import type { IngestItem } from '../../core/model.js';
import type { ClaudeFileContext } from './convert.js';
import { KNOWN_RECORD_FIELDS, recordSchema, type ClaudeRecord } from './schema.js';

type TitleSource = 'custom' | 'ai' | 'summary' | 'subagent' | 'first-prompt';
const TITLE_PRIORITY: readonly TitleSource[] = ['custom', 'ai', 'summary', 'subagent', 'first-prompt'];
const MAX_KEPT_SUMMARIES = 100;

/**
 * What one transcript says about its session: ids (a subagent is `<sessionId>:<agentId>`, linked
 * to its parent), title, folder, time span and model. Values the session began with win, and a
 * read resumed after lines that already made the session reports only what its lines add (a
 * title, a later end), so the store keeps what the earlier lines said.
 */
export class ClaudeSessionState {
  private id: string | null = null;
  private parentId: string | null = null;
  private agentId: string | null = null;
  private readonly titles = new Map<TitleSource, string>();
  private readonly summaryLines: string[] = [];
  private directory: string | null = null;
  private version: string | null = null;
  private gitBranch: string | null = null;
  private slug: string | null = null;
  private startedAt: number | null = null;
  private endedAt: number | null = null;
  private model: string | null = null;
  private readonly unknownFields = new Map<string, number>();

  /** False when earlier lines, read by an earlier ingest, already made the session. */
  private readonly fresh: boolean;
  /** False when an earlier ingest already saw the first prompt (and titled the session after it). */
  private readonly titleFromPrompt: boolean;

  constructor(private readonly context: ClaudeFileContext) {
    if (context.meta?.description) this.titles.set('subagent', context.meta.description);
    const first = recordSchema.safeParse(context.resumed?.firstRecord);
    if (first.success) this.noteIdentity(first.data);
    this.fresh = !first.success;
    this.titleFromPrompt = context.resumed?.lastPromptId === undefined || context.resumed.lastPromptId === null;
    this.model = context.resumed?.firstModel ?? null;
  }

  noteRecord(record: ClaudeRecord, value: Record<string, unknown>, at: number | null): void {
    this.noteIdentity(record);
    if (at !== null) {
      this.startedAt = this.startedAt === null ? at : Math.min(this.startedAt, at);
      this.endedAt = this.endedAt === null ? at : Math.max(this.endedAt, at);
    }
    if (record.type === 'user' || record.type === 'assistant') {
      for (const key of Object.keys(value)) {
        if (!KNOWN_RECORD_FIELDS.has(key)) this.unknownFields.set(`record.${key}`, (this.unknownFields.get(`record.${key}`) ?? 0) + 1);
      }
    }
  }

  /** Who and where, as the session began (first values win, so a resumed read agrees with a whole one). */
  private noteIdentity(record: ClaudeRecord): void {
    if (this.id === null && record.sessionId) this.identify(record.sessionId, record.agentId ?? null);
    this.directory ??= record.cwd ?? null;
    this.version ??= record.version ?? null;
    this.gitBranch ??= record.gitBranch ?? null;
    this.slug ??= record.slug ?? null;
  }

  noteModel(model: string): void {
    this.model ??= model;
  }

  /** A prompt: the first that holds a request of the user's own (not an IDE or command preamble) can title the session. */
  notePrompt(text: string): void {
    if (this.titles.has('first-prompt')) return;
    const title = titleFromRequest(text);
    if (title) this.titles.set('first-prompt', title);
  }

  setTitle(source: 'custom' | 'ai' | 'summary', title: string, raw?: string): void {
    this.titles.set(source, title);
    if (raw !== undefined && this.summaryLines.length < MAX_KEPT_SUMMARIES) this.summaryLines.push(raw);
  }

  /** The session id for records of this file (from the records, else from the path). */
  sessionId(): string {
    if (this.id === null) this.identify(this.context.pathSessionId ?? this.context.file, this.context.pathAgentId);
    return this.id as string;
  }

  /** For records kept raw: the session id, or the one the path suggests before any record named it. */
  sessionIdOrNull(): string | null {
    if (this.id !== null) return this.id;
    const { pathSessionId, pathAgentId } = this.context;
    if (pathSessionId === null) return null;
    return pathAgentId ? `${pathSessionId}:${pathAgentId}` : pathSessionId;
  }

  /** The session record; `replayed`: records of the parent a forked subagent repeated, not stored again. */
  finish(replayed = 0): IngestItem[] {
    if (this.id === null) {
      // Older Claude Code wrote files holding only summaries of conversations kept elsewhere.
      return this.summaryLines.map((raw) => ({ kind: 'unknown', sessionId: null, what: 'line:summary', raw, location: { file: this.context.file }, expected: true }));
    }
    const titleSource = TITLE_PRIORITY.find((source) => this.titles.has(source) && (this.titleFromPrompt || source !== 'first-prompt'));
    // A resumed read reports its extra only with a new title: the store keeps the last extra whole.
    const extra = !this.fresh && !titleSource ? null : extraJson({
      version: this.version,
      gitBranch: this.gitBranch,
      slug: this.slug,
      agentId: this.agentId,
      agentType: this.context.meta?.agentType,
      spawnedBy: this.context.meta?.toolUseId,
      titleSource,
      replayedParentRecords: replayed > 0 ? replayed : null,
    });
    return [
      {
        kind: 'session',
        session: {
          id: this.id,
          agent: 'claude',
          parentId: this.parentId,
          title: titleSource ? (this.titles.get(titleSource) ?? null) : null,
          directory: this.directory,
          startedAt: this.fresh ? this.startedAt : null,
          endedAt: this.endedAt,
          model: this.model,
          extra,
        },
        location: { file: this.context.file },
        unknownFields: Object.fromEntries(this.unknownFields),
        agentVersion: this.version,
      },
    ];
  }

  private identify(sessionId: string, agentId: string | null): void {
    const agent = agentId ?? this.context.pathAgentId;
    this.agentId = agent;
    this.id = agent ? `${sessionId}:${agent}` : sessionId;
    this.parentId = agent ? sessionId : null;
  }
}
