import { join } from 'node:path';
import type { Prng } from '../../lib/prng.js';
import type { SessionInfo } from '../story/turns.js';
import { projectKey } from './claude.js';
import { FileSink } from './sink.js';
import type { WrittenSession } from './written.js';

/**
 * A Claude Code session of `lines` tiny lines (~150–250 bytes): short prompts and replies with the
 * fewest envelope fields the format has, and `hook_progress` lines between them — what per-line
 * overhead (a parse, a validation, a row) costs when nothing else does.
 */
export function writeTinyLines(prng: Prng, info: SessionInfo, root: string, lines: number): WrittenSession {
  const sessionId = prng.uuid();
  const file = join(root, 'projects', projectKey(info.cwd), `${sessionId}.jsonl`);
  const sink = new FileSink(file);
  let parent: string | null = null;
  let at = info.startMs;
  let messages = 0;
  const stamp = (): string => new Date((at += prng.int(50, 4000))).toISOString();
  for (let written = 0; written < lines; written += 1) {
    const uuid = prng.uuid();
    const kind = written % 4;
    let record: Record<string, unknown>;
    if (kind === 0) record = { parentUuid: parent, sessionId, cwd: info.cwd, type: 'user', message: { role: 'user', content: prng.pick(['go on', 'next', 'yes', 'ok, continue', 'check again']) }, uuid, timestamp: stamp() };
    else if (kind === 1) record = { parentUuid: parent, sessionId, cwd: info.cwd, type: 'assistant', message: { role: 'assistant', id: `msg_${prng.base62(8)}`, content: [{ type: 'text', text: `step ${written >> 2} done` }] }, uuid, timestamp: stamp() };
    else record = { parentUuid: parent, sessionId, type: 'progress', data: { type: 'hook_progress', hookEvent: 'PostToolUse' }, uuid, timestamp: stamp() };
    if (kind < 2) {
      parent = uuid;
      messages += 1;
    }
    sink.write(`${JSON.stringify(record)}\n`);
  }
  sink.close();
  return { id: sessionId, files: [file], bytes: sink.bytes, messages, toolCalls: 0 };
}
