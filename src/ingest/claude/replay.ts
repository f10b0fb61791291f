import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { readLines, type Line } from '../io/line-reader.js';
import { isZstdFile, readZstdLines } from '../io/zstd-lines.js';
import { isJsonObject, type JsonObject } from '../jsonl/parse-line.js';
import type { ClaudeRecord } from './schema.js';

/**
 * Subagents Claude Code forks with the parent's context (`runForkedAgent`: the side-question agent
 * `agent-aside_question-<id>.jsonl`, compaction `agent-acompact-<id>.jsonl`, summaries, worktree
 * forks) write the parent conversation into their own file first, then their own exchange. The
 * replayed records keep the parent's `message.id`/`requestId` and tool ids (often its uuids too);
 * ccusage and other readers drop them when counting. retrace stores only the fork's own records:
 * the parent's calls and messages are already stored once, with the parent.
 */
export interface ParentRecords {
  uuids: Set<string>;
  messageIds: Set<string>;
  toolUseIds: Set<string>;
  /** Digests of the parent's typed prompts, for replayed prompts written under new uuids. */
  prompts: Set<string>;
}

function digest(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

/** The text of a user record's prompt (string content, or its text blocks joined), or null. */
export function promptText(value: JsonObject): string | null {
  const content = isJsonObject(value['message']) ? value['message']['content'] : undefined;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts = content.filter((block): block is JsonObject => isJsonObject(block) && block['type'] === 'text' && typeof block['text'] === 'string');
  return texts.length > 0 ? texts.map((block) => block['text'] as string).join('\n\n') : null;
}

function blocksOf(value: JsonObject): JsonObject[] {
  const content = isJsonObject(value['message']) ? value['message']['content'] : undefined;
  return Array.isArray(content) ? content.filter(isJsonObject) : [];
}

function note(records: ParentRecords, value: JsonObject): void {
  if (typeof value['uuid'] === 'string') records.uuids.add(value['uuid']);
  if (value['type'] === 'assistant') {
    const id = isJsonObject(value['message']) ? value['message']['id'] : undefined;
    if (typeof id === 'string') records.messageIds.add(id);
    for (const block of blocksOf(value)) if (typeof block['id'] === 'string') records.toolUseIds.add(block['id']);
  } else {
    const text = promptText(value);
    if (text !== null) records.prompts.add(digest(text));
  }
}

async function linesOf(file: string): Promise<AsyncGenerator<Line>> {
  return (await isZstdFile(file)) ? readZstdLines(file) : readLines(file);
}

/** The ids of a parent transcript's own conversation records (its top-level `user`/`assistant` lines). */
export async function readParentRecords(file: string): Promise<ParentRecords> {
  const records: ParentRecords = { uuids: new Set(), messageIds: new Set(), toolUseIds: new Set(), prompts: new Set() };
  for await (const line of await linesOf(file)) {
    // Cheap test first: most lines of a long session are neither.
    if (!line.text.includes('"type":"user"') && !line.text.includes('"type":"assistant"')) continue;
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch {
      continue;
    }
    // Top-level records only: `progress` lines mirror subagent records, which are not the parent's.
    if (isJsonObject(value) && (value['type'] === 'user' || value['type'] === 'assistant')) note(records, value);
  }
  return records;
}

const cache = new Map<string, { stamp: string; records: Promise<ParentRecords> }>();
const MAX_CACHED_PARENTS = 4;

/** The parent's records, read once per version of the file for all its subagents; null if it is missing. */
export async function parentRecordsOf(file: string): Promise<ParentRecords | null> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return null;
  const stamp = `${info.size}:${info.mtimeMs}`;
  const known = cache.get(file);
  if (known && known.stamp === stamp) return known.records;
  const records = readParentRecords(file);
  cache.delete(file);
  cache.set(file, { stamp, records });
  if (cache.size > MAX_CACHED_PARENTS) cache.delete(cache.keys().next().value as string);
  return records;
}

/**
 * Tells a fork's replayed records from its own. A record is the parent's when its uuid, its
 * `message.id` or (for a tool result) its `tool_use_id` is the parent's; a prompt written under a
 * new uuid is the parent's when it repeats a parent prompt before the fork said anything itself.
 */
export class ReplayFilter {
  private ownReply = false;
  replayed = 0;

  constructor(private readonly parent: ParentRecords) {}

  isReplay(record: ClaudeRecord, value: JsonObject): boolean {
    const replay = this.judge(record, value);
    if (replay) this.replayed += 1;
    else if (record.type === 'assistant') this.ownReply = true;
    return replay;
  }

  private judge(record: ClaudeRecord, value: JsonObject): boolean {
    if (record.uuid !== undefined && this.parent.uuids.has(record.uuid)) return true;
    if (record.type === 'assistant') {
      const id = isJsonObject(value['message']) ? value['message']['id'] : undefined;
      return typeof id === 'string' && this.parent.messageIds.has(id);
    }
    if (record.type !== 'user') return false;
    const results = blocksOf(value).filter((block) => block['type'] === 'tool_result');
    if (results.length > 0) return results.every((block) => typeof block['tool_use_id'] === 'string' && this.parent.toolUseIds.has(block['tool_use_id']));
    const text = promptText(value);
    return !this.ownReply && text !== null && this.parent.prompts.has(digest(text));
  }
}
