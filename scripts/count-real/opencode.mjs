// Counts one opencode JSON storage tree (`storage/{session,message,part}`) or one `opencode export`.
// Definitions: test/fixtures/real/COUNTING.md, section "opencode".
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addDuration, clip, countExit, newTally, stripInjected, substantive } from './common.mjs';

const DEFAULT_BASH_TIMEOUT_MS = 120_000;
const TIMEOUT_MARKERS = [/bash tool terminated command after exceeding timeout/, /\(Command timed out after \d+ ?ms\)/];

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function jsonFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => name.endsWith('.json')).sort().map((name) => join(dir, name));
}

/** A killed bash call: the timeout marker in its output, or no exit status after running its full timeout. */
function bashTimedOut(state) {
  const output = `${state.output ?? ''}\n${state.metadata?.output ?? ''}`;
  if (TIMEOUT_MARKERS.some((re) => re.test(output))) return true;
  const ran = state.time?.end - state.time?.start;
  const limit = typeof state.input?.timeout === 'number' ? state.input.timeout : DEFAULT_BASH_TIMEOUT_MS;
  return state.status === 'completed' && state.metadata?.exit === null && ran >= limit;
}

function countParts(tally, parts) {
  for (const part of parts) {
    if (part.type !== 'tool') continue;
    tally.tool_calls += 1;
    const state = part.state ?? {};
    if (typeof state.time?.start === 'number' && typeof state.time?.end === 'number') addDuration(tally, state.time.end - state.time.start);
    if (part.tool !== 'bash') continue;
    tally.shell_calls += 1;
    const exit = state.status === 'completed' && typeof state.metadata?.exit === 'number' ? state.metadata.exit : null;
    countExit(tally, exit);
    if (bashTimedOut(state)) tally.timeouts += 1;
  }
}

function noteFirstRequest(tally, info, parts) {
  if (tally.firstRequest !== null || info.role !== 'user') return;
  const typed = parts.filter((p) => p.type === 'text' && p.synthetic !== true).map((p) => stripInjected(p.text ?? '')).join('\n').trim();
  if (substantive(typed)) tally.firstRequest = clip(typed);
}

/** `storage` is the folder holding `session/`, `message/` and `part/`. */
export function countOpencodeTree(storage) {
  const tally = newTally();
  const sessionDir = join(storage, 'session');
  const sessions = existsSync(sessionDir)
    ? readdirSync(sessionDir).flatMap((project) => jsonFiles(join(sessionDir, project))).map(readJson)
    : [];
  for (const session of sessions.sort((a, b) => (a.time?.created ?? 0) - (b.time?.created ?? 0))) {
    tally.sessions += 1;
    const messages = jsonFiles(join(storage, 'message', session.id)).map(readJson);
    for (const info of messages.sort((a, b) => (a.time?.created ?? 0) - (b.time?.created ?? 0))) {
      tally.messages += 1;
      const parts = jsonFiles(join(storage, 'part', info.id)).map(readJson);
      noteFirstRequest(tally, info, parts);
      countParts(tally, parts);
    }
  }
  return tally;
}

/** An `opencode export` document: `{info, messages: [{info, parts}]}`. */
export function countOpencodeExport(text) {
  const tally = newTally();
  const doc = JSON.parse(text);
  tally.sessions = 1;
  for (const message of doc.messages ?? []) {
    tally.messages += 1;
    noteFirstRequest(tally, message.info ?? {}, message.parts ?? []);
    countParts(tally, message.parts ?? []);
  }
  return tally;
}
