import { readFile } from 'node:fs/promises';
import type { Adapter, FileHead } from '../adapter.js';
import { detectJsonlHead } from '../jsonl/head-lines.js';
import { jsonlSource } from '../jsonl/jsonl-source.js';
import type { SourceFormat } from '../../core/model.js';
import type { Source } from '../../core/source.js';
import { ClaudeConverter } from './convert.js';
import { CLAUDE_HEAD } from './detect.js';
import { claudePathIds, claudeProjectDirs } from './paths.js';
import { claudeResumeContext } from './resume-context.js';
import { subagentMetaSchema, type SubagentMeta } from './schema.js';

async function readSubagentMeta(metaFile: string | null): Promise<SubagentMeta | null> {
  if (!metaFile) return null;
  try {
    const parsed = subagentMetaSchema.safeParse(JSON.parse(await readFile(metaFile, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    // Missing (older layouts) or unreadable: the transcript's own records still link it.
    return null;
  }
}

/** One Claude Code transcript (main session or subagent) as an appendable source. */
export async function claudeSource(path: string): Promise<Source> {
  const ids = claudePathIds(path);
  const meta = await readSubagentMeta(ids.metaFile);
  return jsonlSource(path, 'claude-jsonl', async ({ file, resume }) => {
    const resumed = resume ? await claudeResumeContext(file, resume) : null;
    return new ClaudeConverter({ file, resumed, pathSessionId: ids.sessionId, pathAgentId: ids.agentId, meta });
  });
}

export const claudeAdapter: Adapter = {
  agent: 'claude',
  formats: ['claude-jsonl'],

  detect(head: FileHead): SourceFormat | null {
    if (head.sqlite) return null;
    return detectJsonlHead(head.text, CLAUDE_HEAD) ? 'claude-jsonl' : null;
  },

  async sourcesForFile(path: string): Promise<Source[]> {
    return [await claudeSource(path)];
  },

  defaultLocations(env, home) {
    return claudeProjectDirs(env, home);
  },
};
