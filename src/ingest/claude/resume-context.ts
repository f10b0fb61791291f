import { linesBefore, objectOf, scanFromStart } from '../jsonl/lines-before.js';
import { isJsonObject, type JsonObject } from '../jsonl/parse-line.js';
import type { ResumePoint } from '../../core/source.js';
import { SYNTHETIC_MODEL } from './assistant.js';

const USER_TYPE = Buffer.from('"type":"user"');
const QUEUED = Buffer.from('"queued_command"');

/** What a transcript read from mid-file needs from the lines before: they are not read again. */
export interface ClaudeResumeContext {
  /** The last prompt before the resume point: the parent of the assistant messages read next. */
  lastPromptId: string | null;
  /** The first record naming the session (null: the earlier lines held no session yet). */
  firstRecord: JsonObject | null;
  /** The model of the first assistant message: the session's model. */
  firstModel: string | null;
}

/** A line the converter turns into a `user` message (a typed or queued prompt), by the same rules. */
function isPrompt(value: JsonObject): boolean {
  if (value['type'] === 'attachment') return isJsonObject(value['attachment']) && value['attachment']['type'] === 'queued_command';
  if (value['type'] !== 'user' || value['isMeta'] === true || value['isCompactSummary'] === true) return false;
  const content = isJsonObject(value['message']) ? value['message']['content'] : undefined;
  if (typeof content === 'string') return true;
  return Array.isArray(content) && content.some((block: unknown) => isJsonObject(block) && (block['type'] === 'text' || block['type'] === 'image'));
}

async function lastPromptBefore(file: string, resume: ResumePoint): Promise<string | null> {
  for await (const line of linesBefore(file, resume.offset, resume.line)) {
    if (!line.bytes.includes(USER_TYPE) && !line.bytes.includes(QUEUED)) continue;
    const value = objectOf(line.bytes);
    if (value && isPrompt(value)) return typeof value['uuid'] === 'string' ? value['uuid'] : `line-${line.number}`;
  }
  return null;
}

export async function claudeResumeContext(file: string, resume: ResumePoint): Promise<ClaudeResumeContext> {
  const context: ClaudeResumeContext = { lastPromptId: await lastPromptBefore(file, resume), firstRecord: null, firstModel: null };
  await scanFromStart(file, resume.line, (value) => {
    if (context.firstRecord === null && typeof value['sessionId'] === 'string' && ('uuid' in value || 'parentUuid' in value)) {
      context.firstRecord = value;
    }
    const model = value['type'] === 'assistant' && isJsonObject(value['message']) ? value['message']['model'] : undefined;
    if (context.firstModel === null && typeof model === 'string' && model !== SYNTHETIC_MODEL) context.firstModel = model;
    return context.firstRecord !== null && context.firstModel !== null;
  });
  return context;
}
