import { isUtf8 } from 'node:buffer';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { hashStrings } from '../../core/io/hash.js';
import type { IngestItem } from '../../core/model.js';
import type { Source } from '../../core/source.js';
import { OpencodeSessionBuilder } from './convert.js';
import { parseJson } from '../../core/json-depth.js';

/**
 * opencode ≤ 1.1 storage tree: storage/session/<projectID>/<ses>.json,
 * storage/message/<ses>/<msg>.json, storage/part/<msg>/<prt>.json. One source per session.
 * A tree holds tens of thousands of tiny files: they are read synchronously, one system call
 * each, rather than through a promise per file.
 */
async function listJson(dir: string): Promise<string[]> {
  try {
    const names = readdirSync(dir);
    return names.filter((name) => name.endsWith('.json')).sort();
  } catch {
    return [];
  }
}

async function readJson(file: string): Promise<{ value: unknown } | { error: string }> {
  try {
    const bytes = readFileSync(file);
    if (!isUtf8(bytes)) return { error: 'not valid UTF-8' };
    return { value: parseJson(bytes.toString('utf8')) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** The message files of a session, in time order (ids sort by time; created time breaks ties). */
async function messageFiles(storage: string, sessionId: string): Promise<string[]> {
  return (await listJson(join(storage, 'message', sessionId))).map((name) => join(storage, 'message', sessionId, name));
}

async function* readSession(storage: string, sessionFile: string, sessionId: string): AsyncGenerator<IngestItem> {
  const builder = new OpencodeSessionBuilder(sessionFile);
  const info = await readJson(sessionFile);
  if ('error' in info) {
    yield { kind: 'problem', message: `invalid JSON: ${info.error}`, location: { file: sessionFile } };
  } else {
    yield* builder.setInfo(info.value, { file: sessionFile });
  }
  for (const file of await messageFiles(storage, sessionId)) {
    const message = await readJson(file);
    if ('error' in message) {
      yield { kind: 'problem', message: `invalid JSON: ${message.error}`, location: { file } };
      continue;
    }
    const messageId = (message.value as { id?: unknown }).id;
    const partDir = join(storage, 'part', typeof messageId === 'string' ? messageId : '');
    const parts: unknown[] = [];
    for (const name of typeof messageId === 'string' ? await listJson(partDir) : []) {
      const part = await readJson(join(partDir, name));
      if ('error' in part) {
        yield { kind: 'problem', message: `invalid JSON: ${part.error}`, location: { file: join(partDir, name) } };
      } else {
        parts.push(part.value);
      }
    }
    yield* builder.addMessage({ info: message.value, parts }, { file });
  }
  yield* builder.finish();
}

/** Cheap fingerprint: names, sizes and modification times of every file of the session. */
async function fingerprintSession(storage: string, sessionFile: string, sessionId: string): Promise<string> {
  const entries: string[] = [];
  const add = async (file: string): Promise<void> => {
    let info: { size: number; mtimeMs: number } | null = null;
    try {
      info = statSync(file);
    } catch {
      info = null;
    }
    entries.push(`${file}:${info?.size ?? -1}:${info?.mtimeMs ?? -1}`);
  };
  await add(sessionFile);
  for (const file of await messageFiles(storage, sessionId)) {
    await add(file);
    const messageId = file.slice(file.lastIndexOf('/') + 1, -'.json'.length);
    for (const name of await listJson(join(storage, 'part', messageId))) await add(join(storage, 'part', messageId, name));
  }
  return hashStrings(entries);
}

/** Every session of a storage tree as a source (`storage` is the folder holding session/, message/, part/). */
export async function storageSources(storage: string): Promise<Source[]> {
  const sources: Source[] = [];
  const sessionRoot = join(storage, 'session');
  let projects: string[] = [];
  try {
    // A project folder may be a symbolic link (statSync follows it).
    projects = readdirSync(sessionRoot).filter((name) => statSync(join(sessionRoot, name), { throwIfNoEntry: false })?.isDirectory()).sort();
  } catch {
    return [];
  }
  for (const project of projects) {
    for (const name of await listJson(join(sessionRoot, project))) {
      const sessionFile = join(sessionRoot, project, name);
      const sessionId = name.slice(0, -'.json'.length);
      const info = statSync(sessionFile);
      sources.push({
        key: sessionFile,
        path: sessionFile,
        format: 'opencode-storage',
        size: info.size,
        appendable: false,
        sessionId,
        fingerprint: () => fingerprintSession(storage, sessionFile, sessionId),
        read: () => readSession(storage, sessionFile, sessionId),
      } satisfies Source);
    }
  }
  return sources;
}
