import type { IngestItem } from '../core/model.js';
import type { Database } from './database.js';

/** A session stored under another id than its own, because another agent's session had that id. */
export interface RenamedSession {
  id: string;
  agent: string;
  stored_as: string;
  file: string;
}

/**
 * Keeps two agents' sessions apart when they share an id. Every table is keyed by session id
 * alone, so a Codex rollout and a Claude Code transcript with the same UUID used to merge into one
 * session silently. The first agent to store an id keeps it; a session of another agent with the
 * same id is stored as `<agent>:<id>` (its messages, calls, unknown records and subagents'
 * parent links with it), and the ingest summary says so. The same file ingested again maps to
 * the same qualified id, so re-ingesting stays idempotent.
 */
export class SessionIdentity {
  /** Who holds each id: read from the store once, or claimed during this ingest. */
  private readonly owners = new Map<string, string | null>();
  private readonly reported = new Set<string>();
  readonly renamed: RenamedSession[] = [];

  constructor(private readonly db: Database) {}

  private async owner(id: string): Promise<string | null> {
    if (!this.owners.has(id)) {
      const agent = await this.db.scalar(`SELECT agent FROM sessions WHERE id = ?`, [id]);
      this.owners.set(id, agent === undefined || agent === null ? null : String(agent));
    }
    return this.owners.get(id) ?? null;
  }

  /** The id a session of `agent` is stored under; an id nobody holds is claimed for `agent`. */
  async storedId(id: string, agent: string, file: string): Promise<string> {
    const owner = await this.owner(id);
    if (owner === null) {
      this.owners.set(id, agent);
      return id;
    }
    if (owner === agent) return id;
    const qualified = `${agent}:${id}`;
    if (!this.reported.has(qualified)) {
      this.reported.add(qualified);
      this.renamed.push({ id, agent, stored_as: qualified, file });
    }
    return qualified;
  }

  /** The id a reference (a subagent's parent) to a session of `agent` resolves to; claims nothing. */
  async referencedId(id: string, agent: string): Promise<string> {
    const owner = await this.owner(id);
    return owner === null || owner === agent ? id : `${agent}:${id}`;
  }

  /** The item with its session ids as stored. */
  async apply(item: IngestItem, agent: string, file: string): Promise<IngestItem> {
    switch (item.kind) {
      case 'session': {
        const id = await this.storedId(item.session.id, agent, file);
        const parentId = item.session.parentId === null ? null : await this.referencedId(item.session.parentId, agent);
        return id === item.session.id && parentId === item.session.parentId ? item : { ...item, session: { ...item.session, id, parentId } };
      }
      case 'message': {
        const id = await this.storedId(item.message.sessionId, agent, file);
        if (id === item.message.sessionId) return item;
        return { ...item, message: { ...item.message, sessionId: id }, toolCalls: item.toolCalls.map((call) => ({ ...call, sessionId: id })) };
      }
      case 'unknown': {
        if (item.sessionId === null) return item;
        const id = await this.storedId(item.sessionId, agent, file);
        return id === item.sessionId ? item : { ...item, sessionId: id };
      }
      default:
        return item;
    }
  }
}
