import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/cli.js';
import { queryStore } from '../helpers/ingest.js';

/** The Claude Code and Codex fixtures (test/fixtures/README.md) and the counts stated for them. */
export const FIXTURES = join(REPO_ROOT, 'test', 'fixtures');
export const CLAUDE_PROJECT = join(FIXTURES, 'claude', 'projects', '-home-ops-gptoss');
export const CLAUDE_A = join(CLAUDE_PROJECT, 'd96690bf-84e5-4021-84e4-48dbd0b8dfa3.jsonl');
export const CLAUDE_A_SUBAGENT = join(CLAUDE_PROJECT, 'd96690bf-84e5-4021-84e4-48dbd0b8dfa3', 'subagents', 'agent-a1fa2b2b182f4b48c.jsonl');
export const CLAUDE_B = join(CLAUDE_PROJECT, '9572fbe8-2f61-4b6b-98a6-d20b6e222bae.jsonl');
export const CLAUDE_B_SUBAGENT = join(CLAUDE_PROJECT, 'agent-f8043c8c.jsonl');
const CODEX_SESSIONS = join(FIXTURES, 'codex', 'sessions');
export const CODEX_C = join(CODEX_SESSIONS, '2026/03/11/rollout-2026-03-11T09-14-03-019cdc2c-b578-75be-8b9e-001e204112ed.jsonl');
export const CODEX_C_SUBAGENT = join(CODEX_SESSIONS, '2026/03/11/rollout-2026-03-11T09-43-01-019cdc47-3b0f-72ff-ae00-524767c862ca.jsonl');
export const CODEX_D_LEGACY = join(CODEX_SESSIONS, '2025/09/02/rollout-2025-09-02T16-40-11-109f3f13-322e-4df5-93ed-6c95893ae1b0.jsonl');
export const CODEX_E_ZST = join(CODEX_SESSIONS, '2026/03/12/rollout-2026-03-12T08-05-51-019ce114-a1f2-7011-ada0-35d9c733931e.jsonl.zst');

export interface FixtureCounts {
  userPrompts: number;
  assistantMessages: number;
  toolCalls: number;
  byTool: Record<string, number>;
  failed: number;
  timedOut: number;
  parallelGroups: number;
}

export interface ExpectedSession {
  agent: 'claude' | 'codex';
  file: string;
  /** The session id in the store: a Claude subagent is `<sessionId>:<agentId>`. */
  storeId: string;
  parentId: string | null;
  counts: FixtureCounts;
}

interface ExpectedFile {
  sessions: {
    agent: 'claude' | 'codex';
    file: string;
    sessionId: string;
    parentSessionId: string | null;
    agentId?: string;
    counts: FixtureCounts & { byType: unknown };
  }[];
}

export function expectedSessions(agent: 'claude' | 'codex'): ExpectedSession[] {
  const parsed = JSON.parse(readFileSync(join(FIXTURES, agent, 'expected.json'), 'utf8')) as ExpectedFile;
  return parsed.sessions.map((session) => {
    const { userPrompts, assistantMessages, toolCalls, byTool, failed, timedOut, parallelGroups } = session.counts;
    return {
      agent: session.agent,
      file: join(FIXTURES, agent, session.file),
      storeId: session.agentId ? `${session.sessionId}:${session.agentId}` : session.sessionId,
      parentId: session.parentSessionId,
      counts: { userPrompts, assistantMessages, toolCalls, byTool, failed, timedOut, parallelGroups },
    };
  });
}

/**
 * The same counts, read back from a store. Claude assistant messages are API responses (one per
 * `message.id`); a Codex assistant message is one model response too, and the README counts the
 * ones that said something (its `response_item` assistant messages), so those are the ones with text.
 */
export async function storedCounts(dbPath: string, sessionId: string, agent: 'claude' | 'codex'): Promise<FixtureCounts> {
  return queryStore(dbPath, async (db) => {
    const number = async (sql: string): Promise<number> => Number(await db.scalar(sql, [sessionId]));
    const assistantFilter = agent === 'codex' ? `AND text <> ''` : '';
    const byTool = await db.all(`SELECT tool, count(*) AS n FROM tool_calls WHERE session_id = ? GROUP BY tool`, [sessionId]);
    return {
      userPrompts: await number(`SELECT count(*) FROM messages WHERE session_id = ? AND role = 'user'`),
      assistantMessages: await number(`SELECT count(*) FROM messages WHERE session_id = ? AND role = 'assistant' ${assistantFilter}`),
      toolCalls: await number(`SELECT count(*) FROM tool_calls WHERE session_id = ?`),
      byTool: Object.fromEntries(byTool.map((row) => [String(row['tool']), Number(row['n'])])),
      failed: await number(`SELECT count(*) FROM tool_calls WHERE session_id = ? AND exit_code <> 0 AND NOT timed_out`),
      timedOut: await number(`SELECT count(*) FROM tool_calls WHERE session_id = ? AND timed_out`),
      parallelGroups: await number(`SELECT count(DISTINCT parallel_group) FROM tool_calls WHERE session_id = ?`),
    };
  });
}
