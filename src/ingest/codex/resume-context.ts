import { linesBefore, objectOf, scanFromStart } from '../jsonl/lines-before.js';
import { isJsonObject, type JsonObject } from '../jsonl/parse-line.js';
import type { ResumePoint } from '../../core/source.js';
import { INJECTED_USER_TEXT, messageItemSchema } from './schema.js';
import { textOf } from './items.js';

const TURN_CONTEXT = Buffer.from('"type":"turn_context"');
const USER_ROLE = Buffer.from('"role":"user"');

/** What a rollout read from mid-file needs from the lines before: they are not read again. */
export interface CodexResumeContext {
  /** Line 1: session_meta (or the legacy header), the thread's identity. */
  firstLine: JsonObject | null;
  /** The last turn_context before the resume point: the model of the turn being read. */
  turnContext: JsonObject | null;
  /** The message id of the last prompt before it, the parent of the responses that follow. */
  lastPromptId: string | null;
  /** The model of the first turn: the session's model. */
  firstModel: string | null;
}

async function firstLine(file: string): Promise<JsonObject | null> {
  let first: JsonObject | null = null;
  await scanFromStart(file, 2, (value) => {
    first = value;
    return true;
  });
  return first;
}

function isPrompt(value: JsonObject): boolean {
  const item = isJsonObject(value['payload']) ? value['payload'] : value;
  const parsed = messageItemSchema.safeParse(item);
  return parsed.success && parsed.data.role === 'user' && !INJECTED_USER_TEXT.test(textOf(parsed.data.content));
}

export async function codexResumeContext(file: string, resume: ResumePoint): Promise<CodexResumeContext> {
  const context: CodexResumeContext = { firstLine: await firstLine(file), turnContext: null, lastPromptId: null, firstModel: null };
  await scanFromStart(file, resume.line, (value) => {
    const payload = value['type'] === 'turn_context' && isJsonObject(value['payload']) ? value['payload'] : null;
    if (payload && typeof payload['model'] === 'string') context.firstModel = payload['model'];
    return context.firstModel !== null;
  });
  for await (const line of linesBefore(file, resume.offset, resume.line)) {
    if (context.turnContext === null && line.bytes.includes(TURN_CONTEXT)) {
      const value = objectOf(line.bytes);
      if (value?.['type'] === 'turn_context' && isJsonObject(value['payload'])) context.turnContext = value['payload'];
    }
    if (context.lastPromptId === null && line.bytes.includes(USER_ROLE)) {
      const value = objectOf(line.bytes);
      if (value && isPrompt(value)) context.lastPromptId = `line-${line.number}`;
    }
    if (context.turnContext !== null && context.lastPromptId !== null) break;
  }
  return context;
}
