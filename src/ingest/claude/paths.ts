import { basename, dirname, join } from 'node:path';

/**
 * Where Claude Code keeps transcripts: `$CLAUDE_CONFIG_DIR/projects` for each directory that
 * variable names (comma-separated), then `~/.claude/projects` and `~/.config/claude/projects`.
 */
export function claudeProjectDirs(env: NodeJS.ProcessEnv, home: string): string[] {
  const configured = (env['CLAUDE_CONFIG_DIR'] ?? '')
    .split(',')
    .map((dir) => dir.trim())
    .filter((dir) => dir.length > 0)
    .map((dir) => join(dir, 'projects'));
  const defaults = [join(home, '.claude', 'projects'), join(home, '.config', 'claude', 'projects')];
  return [...new Set([...configured, ...defaults])];
}

export interface ClaudePathIds {
  sessionId: string | null;
  agentId: string | null;
  /** `agent-<id>.meta.json` beside a subagent transcript, where late 2.1 writes its parent link. */
  metaFile: string | null;
}

const TRANSCRIPT_EXT = /\.jsonl(\.zst)?$/;
const AGENT_FILE = /^agent-(.+?)\.jsonl(\.zst)?$/;

/**
 * The ids a transcript's path implies: `<session>.jsonl`, `<session>/subagents/…/agent-<id>.jsonl`
 * (newer) or `agent-<id>.jsonl` beside the sessions (2.0). Records override them.
 */
export function claudePathIds(path: string): ClaudePathIds {
  const name = basename(path);
  const agent = AGENT_FILE.exec(name);
  if (!agent) return { sessionId: name.replace(TRANSCRIPT_EXT, ''), agentId: null, metaFile: null };
  const agentId = agent[1] as string;
  const underSession = /\/([^/]+)\/subagents\/(?:.*\/)?agent-[^/]+$/.exec(path);
  return {
    sessionId: underSession?.[1] ?? null,
    agentId,
    metaFile: join(dirname(path), `agent-${agentId}.meta.json`),
  };
}

/**
 * The main transcript a subagent under `<project>/<session>/subagents/` belongs to,
 * `<project>/<session>.jsonl`; null for a main transcript or the older flat layout.
 */
export function parentTranscriptOf(path: string): string | null {
  const underSession = /^(.*)\/subagents\/(?:.*\/)?agent-[^/]+$/.exec(path);
  return underSession ? `${underSession[1] as string}.jsonl` : null;
}
