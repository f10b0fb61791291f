import { open, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isJsonObject } from '../jsonl/parse-line.js';
import { extraOf, withExtra } from '../jsonl/values.js';
import type { IngestItem, ToolCallRecord } from '../../core/model.js';

/**
 * A tool result too large for the transcript (Claude Code 2.0.60 on): the line holds a preview
 * and the name of the file the whole output went to, beside the session:
 *
 *     <persisted-output>
 *     Output too large (36.8KB). Full output saved to: /home/u/.claude/projects/<key>/<session>/tool-results/bqqw0ykde.txt
 *
 *     Preview (first 2KB):
 *     …
 *     </persisted-output>
 *
 * The whole output is kept when the line itself holds it (a Bash result's `toolUseResult.stdout`)
 * or when that file exists beside the session; otherwise the preview is kept, `truncated`.
 */
const MARKER = /<persisted-output>\s*([\s\S]*?)\s*(?:<\/persisted-output>|$)/;
const SAVED_TO = /(?:Full output saved to|Output has been saved to):?\s*(\S[^\n]*?)\s*$/m;
const PREVIEW = /^Preview[^\n]*:\n([\s\S]*)$/m;
/** A file name Claude Code writes there (`<id>.txt`, `<tool_use_id>.json`): never a path. */
const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,200}$/;
/** Larger files are left out: the preview stays, `truncated`. */
const MAX_RESTORED_BYTES = 64 * 1024 * 1024;

export interface PersistedOutput {
  /** The file name the marker (or `toolUseResult.persistedOutputPath`) names. */
  fileName: string | null;
  preview: string;
}

/** The marker's file name and preview, or null when the result holds no marker. */
export function persistedOutputOf(output: string, persistedPath: string | null): PersistedOutput | null {
  const marker = MARKER.exec(output);
  if (!marker && persistedPath === null) return null;
  const body = marker?.[1] ?? output;
  const named = SAVED_TO.exec(body)?.[1] ?? persistedPath;
  // Windows paths in transcripts copied to Linux: the name is after the last separator of either kind.
  const fileName = named ? basename(named.replace(/\\/g, '/')) : null;
  return { fileName: fileName && SAFE_NAME.test(fileName) ? fileName : null, preview: PREVIEW.exec(body)?.[1] ?? body };
}

/** The whole output the result line itself holds: a shell result's `stdout` (and `stderr`). */
export function wholeOutputInLine(sidecar: Record<string, unknown> | null, preview: string): string | null {
  if (!isJsonObject(sidecar) || typeof sidecar['stdout'] !== 'string') return null;
  const stderr = typeof sidecar['stderr'] === 'string' ? sidecar['stderr'] : '';
  const whole = stderr === '' ? sidecar['stdout'] : `${sidecar['stdout']}\n${stderr}`;
  return whole.length > preview.length ? whole : null;
}

/**
 * Where a transcript's persisted outputs live: `<session>/tool-results/` beside a main session
 * file, and the same folder for a subagent under `<session>/subagents/`.
 */
export function toolResultsDir(transcript: string, sessionId: string | null): string | null {
  const underSession = /^(.*)\/subagents\/(?:.*\/)?agent-[^/]+$/.exec(transcript);
  if (underSession) return join(underSession[1] as string, 'tool-results');
  return sessionId ? join(dirname(transcript), sessionId, 'tool-results') : null;
}

async function readWhole(file: string): Promise<string | null> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile() || info.size > MAX_RESTORED_BYTES) return null;
  const handle = await open(file, 'r');
  try {
    return (await handle.readFile()).toString('utf8');
  } finally {
    await handle.close();
  }
}

async function restore(call: ToolCallRecord, dir: string): Promise<ToolCallRecord> {
  const fileName = extraOf(call)['persistedFile'];
  if (typeof fileName !== 'string' || !SAFE_NAME.test(fileName)) return call;
  const whole = await readWhole(join(dir, fileName)).catch(() => null);
  if (whole === null) return call;
  return withExtra({ ...call, output: whole, truncated: false }, { persistedFile: null, persistedOutput: 'tool-results' });
}

/**
 * The items of a Claude Code transcript with every persisted output that waits for its file
 * (`extra.persistedFile`) read from `dir`: the one I/O edge of the format, kept out of the
 * line converter.
 */
export async function* withPersistedOutputs(items: AsyncIterable<IngestItem>, dir: string | null): AsyncGenerator<IngestItem> {
  for await (const item of items) {
    if (dir === null || item.kind !== 'message' || !item.toolCalls.some((call) => typeof extraOf(call)['persistedFile'] === 'string')) {
      yield item;
      continue;
    }
    const toolCalls: ToolCallRecord[] = [];
    for (const call of item.toolCalls) toolCalls.push(await restore(call, dir));
    yield { ...item, toolCalls };
  }
}
