import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter, FileHead } from '../adapter.js';
import { detectJsonlHead, pickFromHead } from '../jsonl/head-lines.js';
import { jsonlSource } from '../jsonl/jsonl-source.js';
import type { SourceFormat } from '../../core/model.js';
import type { ResumePoint, Source } from '../../core/source.js';
import { ClaudeConverter } from './convert.js';
import { CLAUDE_HEAD } from './detect.js';
import { claudePathIds, claudeProjectDirs, parentTranscriptOf } from './paths.js';
import { toolResultsDir, withPersistedOutputs } from './persisted-output.js';
import { parentRecordsOf, ReplayFilter } from './replay.js';
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
  const parent = parentTranscriptOf(path);
  const source = await jsonlSource(path, 'claude-jsonl', async ({ file, resume }) => {
    const resumed = resume ? await claudeResumeContext(file, resume) : null;
    // A subagent beside its parent's transcript may be a fork replaying the parent (replay.ts).
    const parentRecords = parent ? ((await parentRecordsOf(parent)) ?? (await parentRecordsOf(`${parent}.zst`))) : null;
    const replay = parentRecords ? new ReplayFilter(parentRecords) : null;
    return new ClaudeConverter({ file, resumed, pathSessionId: ids.sessionId, pathAgentId: ids.agentId, meta, replay });
  });
  const results = toolResultsDir(path, ids.sessionId);
  return { ...source, read: (resume?: ResumePoint) => withPersistedOutputs(source.read(resume), results) };
}

const SUBAGENT_FILE = /^agent-.+\.jsonl(\.zst)?$/;

/** The subagent transcripts of a main session file: `<session>/subagents/**\/agent-*.jsonl`. */
async function subagentFiles(sessionFile: string): Promise<string[]> {
  const name = basename(sessionFile);
  if (name.startsWith('agent-')) return [];
  const root = join(dirname(sessionFile), name.replace(/\.jsonl(\.zst)?$/, ''), 'subagents');
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && SUBAGENT_FILE.test(entry.name)) found.push(path);
    }
  };
  await walk(root);
  return found;
}

export const claudeAdapter: Adapter = {
  agent: 'claude',
  formats: ['claude-jsonl'],

  detect(head: FileHead): SourceFormat | null {
    if (head.sqlite) return null;
    return detectJsonlHead(head.text, CLAUDE_HEAD) ? 'claude-jsonl' : null;
  },

  /** A session file brings its subagents along: ingesting one session reads all of it. */
  async sourcesForFile(path: string): Promise<Source[]> {
    const subagents = await subagentFiles(path);
    return [await claudeSource(path), ...(await Promise.all(subagents.map((file) => claudeSource(file))))];
  },

  versionOf(head: FileHead): string | null {
    return pickFromHead(head.text, (value) => (typeof value['version'] === 'string' && typeof value['sessionId'] === 'string' ? value['version'] : null));
  },

  defaultLocations(env, home) {
    return claudeProjectDirs(env, home);
  },
};
