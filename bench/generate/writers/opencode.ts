import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Prng } from '../../lib/prng.js';
import type { SessionInfo, Turn } from '../story/turns.js';
import { OpencodeIds, OpencodeMessages, sessionInfo, type OpencodeMessage } from './opencode-messages.js';
import { FileSink } from './sink.js';
import type { SessionLimits, WrittenSession } from './written.js';

/**
 * The two opencode layouts the adapter reads as files: `opencode export` documents
 * (`JSON.stringify(doc, null, 2)`, written here a message at a time with the same bytes) and the
 * v1.1 storage tree (one pretty-printed file per session, message and part; ids first).
 */

const indent = (text: string, spaces: string): string => text.replace(/\n/g, `\n${spaces}`);

function idsFirst(object: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const head: Record<string, unknown> = {};
  for (const key of keys) if (key in object) head[key] = object[key];
  for (const [key, value] of Object.entries(object)) if (!keys.includes(key)) head[key] = value;
  return head;
}

interface Started {
  sessionId: string;
  projectID: string;
  slug: string;
  builder: OpencodeMessages;
}

function start(prng: Prng, info: SessionInfo): Started {
  const ids = new OpencodeIds(prng);
  const sessionId = ids.descending(info.startMs);
  const slug = `${prng.pick(['steady', 'brisk', 'quiet'])}-${prng.pick(['harbor', 'falcon', 'cedar'])}`;
  return { sessionId, projectID: prng.hex(40), slug, builder: new OpencodeMessages(prng, ids, sessionId, info) };
}

/** Turns into messages until a limit is reached. */
function drive(turns: Iterable<Turn>, started: Started, limits: SessionLimits, bytesSoFar: () => number, onMessage: (m: OpencodeMessage) => void): { messages: number; toolCalls: number; endMs: number } {
  let messages = 0;
  let toolCalls = 0;
  let endMs = 0;
  for (const turn of turns) {
    onMessage(started.builder.message(turn));
    messages += 1;
    if (turn.role === 'assistant') {
      toolCalls += turn.calls.length;
      endMs = turn.endMs;
    }
    if (messages >= limits.messages || bytesSoFar() >= limits.bytes) break;
  }
  return { messages, toolCalls, endMs };
}

/**
 * `<root>/ses_….json`, one export document. The session's `time.updated` is only known at the
 * end, so the header is written with the start time (same width: 13 digits) and patched in place.
 */
export function writeOpencodeExport(prng: Prng, info: SessionInfo, turns: Iterable<Turn>, root: string, limits: SessionLimits): WrittenSession {
  const started = start(prng, info);
  const file = join(root, `${started.sessionId}.json`);
  const sink = new FileSink(file);
  const header = `{\n  "info": ${indent(JSON.stringify(sessionInfo(started.sessionId, started.projectID, info, started.slug, info.startMs), null, 2), '  ')},\n  "messages": [\n`;
  const updatedAt = Buffer.byteLength(header.slice(0, header.indexOf(`"updated": ${info.startMs}`))) + '"updated": '.length;
  sink.write(header);
  let first = true;
  const result = drive(turns, started, limits, () => sink.bytes, (message) => {
    sink.write(`${first ? '' : ',\n'}    ${indent(JSON.stringify(message, null, 2), '    ')}`);
    first = false;
  });
  sink.write('\n  ]\n}\n');
  sink.close();
  const fd = openSync(file, 'r+');
  writeSync(fd, String(Math.max(result.endMs, info.startMs)), updatedAt);
  closeSync(fd);
  return { id: started.sessionId, files: [file], bytes: sink.bytes, messages: result.messages, toolCalls: result.toolCalls };
}

function writeJson(file: string, value: unknown): number {
  const text = JSON.stringify(value, null, 2);
  writeFileSync(file, text);
  return Buffer.byteLength(text);
}

/**
 * `<root>/storage/{project,session,message,part}/…`: the v1.1 tree. Every file is one object;
 * message files carry `id` and `sessionID`, part files `id`, `sessionID` and `messageID`.
 */
export function writeOpencodeStorage(prng: Prng, info: SessionInfo, turns: Iterable<Turn>, root: string, limits: SessionLimits): WrittenSession {
  const started = start(prng, info);
  const storage = join(root, 'storage');
  const messageDir = join(storage, 'message', started.sessionId);
  mkdirSync(messageDir, { recursive: true });
  let bytes = 0;
  let files = 0;
  const result = drive(turns, started, limits, () => bytes, (message) => {
    bytes += writeJson(join(messageDir, `${message.info.id}.json`), idsFirst(message.info, ['id', 'sessionID']));
    const partDir = join(storage, 'part', message.info.id);
    mkdirSync(partDir, { recursive: true });
    for (const part of message.parts) bytes += writeJson(join(partDir, `${part.id}.json`), idsFirst(part, ['id', 'sessionID', 'messageID']));
    files += 1 + message.parts.length;
  });
  const projectDir = join(storage, 'project');
  const sessionDir = join(storage, 'session', started.projectID);
  mkdirSync(projectDir, { recursive: true });
  mkdirSync(sessionDir, { recursive: true });
  bytes += writeJson(join(projectDir, `${started.projectID}.json`), { id: started.projectID, worktree: info.cwd, vcs: 'git', sandboxes: [], time: { created: info.startMs, updated: result.endMs } });
  const sessionFile = join(sessionDir, `${started.sessionId}.json`);
  bytes += writeJson(sessionFile, sessionInfo(started.sessionId, started.projectID, info, started.slug, Math.max(result.endMs, info.startMs)));
  return { id: started.sessionId, files: [sessionFile], bytes, messages: result.messages, toolCalls: result.toolCalls, fileCount: files + 2 };
}
