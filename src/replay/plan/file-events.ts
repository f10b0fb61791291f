import { parseCommandLine, type ParsedCommand } from '../../query/shell/index.js';
import { parsePatch, type TextEdit } from './apply-patch.js';
import { normalizePath } from './leaves.js';
import { redirectTargets } from './lookups.js';
import { inputField, type RecordedCall } from './recorded.js';
import type { Segment } from './segments.js';

/**
 * What a session did to files, event by event: a file tool writing or editing one (Claude
 * Write/Edit/MultiEdit, opencode write/edit/patch, Codex apply_patch), a read that shows the whole
 * file (Read, opencode read, `cat F`, `sed -n '1,Np' F`), and a shell line that writes one from a
 * here-document or printf (`cat > F <<EOF`, `sudo tee F <<EOF`, `printf '…' | tee F`). Pure.
 */

export type FileEvent =
  | { kind: 'write'; content: string; existed: boolean }
  | { kind: 'edit'; edits: TextEdit[] }
  | { kind: 'read'; content: string }
  | { kind: 'delete' };

export interface FileTouch {
  callId: string;
  messageOrdinal: number;
  /** The recorded host (null: where the agent ran). */
  host: string | null;
  /** Absolute (or `~/…`) path. */
  path: string;
  event: FileEvent;
  /** The shell line that wrote it and did nothing else (it becomes the file's step), if any. */
  segment: Segment | null;
  /** Written with sudo (a shell `sudo tee`), so the replay needs it too. */
  sudo: boolean;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function resolvePath(path: string, cwd: string | null): string | null {
  if (path.startsWith('/') || path.startsWith('~')) return normalizePath(path);
  return cwd === null ? null : normalizePath(`${cwd}/${path}`);
}

/** A whole file from a Read result: Claude's `   N→text` lines or opencode's `00001| text`; null when partial. */
function readContent(tool: string, input: string, output: string): string | null {
  if (inputField(input, 'offset') !== undefined || inputField(input, 'limit') !== undefined) return null;
  if (/File has more lines|lines? truncated|\(Output truncated/i.test(output)) return null;
  const lines: string[] = [];
  const pattern = /^opencode|^read$/.test(tool) ? /^(\d{5})\| ?(.*)$/ : /^\s*(\d+)[→\t](.*)$/;
  let expected = 1;
  for (const line of output.split('\n')) {
    const match = pattern.exec(line);
    if (!match) continue;
    if (Number(match[1]) !== expected) return null;
    lines.push(match[2] ?? '');
    expected += 1;
  }
  if (lines.length === 0) return /empty|^\s*$/i.test(output.replace(/<\/?file>/g, '')) ? '' : null;
  return `${lines.join('\n')}\n`;
}

function editsOf(input: string): TextEdit[] {
  const many = inputField(input, 'edits');
  const list = Array.isArray(many) ? many : [JSON.parse(input) as unknown];
  return list.flatMap((item) => {
    if (item === null || typeof item !== 'object') return [];
    const record = item as Record<string, unknown>;
    const old = str(record['old_string'] ?? record['oldString']);
    const now = str(record['new_string'] ?? record['newString']);
    return old === null || now === null ? [] : [{ old, new: now, all: record['replace_all'] === true || record['replaceAll'] === true }];
  });
}

/** Events of a file tool call (not a shell). */
function toolEvents(call: RecordedCall, cwd: string | null): FileTouch[] {
  const tool = call.tool.toLowerCase();
  const touch = (path: string | null, event: FileEvent): FileTouch[] => {
    const resolved = path ? resolvePath(path, cwd) : null;
    return resolved ? [{ callId: call.callId, messageOrdinal: call.messageOrdinal, host: null, path: resolved, event, segment: null, sudo: false }] : [];
  };
  const path = str(inputField(call.input, 'file_path') ?? inputField(call.input, 'filePath') ?? inputField(call.input, 'path'));
  if (/error|denied|rejected|failed/i.test(call.output.slice(0, 200)) && !/success/i.test(call.output.slice(0, 200))) return [];
  if (tool === 'write') {
    const content = str(inputField(call.input, 'content'));
    return content === null ? [] : touch(path, { kind: 'write', content, existed: /has been (?:updated|overwritten)|overwrote/i.test(call.output) });
  }
  if (tool === 'edit' || tool === 'multiedit') return touch(path, { kind: 'edit', edits: editsOf(call.input) });
  if (tool === 'read') {
    const content = readContent(call.tool, call.input, call.output);
    return content === null ? [] : touch(path, { kind: 'read', content });
  }
  if (tool === 'apply_patch' || tool === 'patch') {
    const text = str(inputField(call.input, 'input') ?? inputField(call.input, 'patchText') ?? inputField(call.input, 'patch'));
    if (text === null) return [];
    return parsePatch(text).flatMap((op): FileTouch[] => {
      if (op.kind === 'add') return touch(op.path, { kind: 'write', content: op.content, existed: false });
      if (op.kind === 'delete') return touch(op.path, { kind: 'delete' });
      const edited = touch(op.path, { kind: 'edit', edits: op.edits });
      if (!op.moveTo) return edited;
      return [...edited, ...touch(op.moveTo, { kind: 'delete' })];
    });
  }
  return [];
}

/** printf's format as the file it writes: `\n`, `\t`, `\\`, `%%`; null when it takes arguments. */
function printfText(format: string): string | null {
  if (/%[^%]/.test(format.replace(/%%/g, ''))) return null;
  return format.replace(/\\(n|t|\\|"|'|r)|%%/g, (whole, escape: string | undefined) =>
    escape === 'n' ? '\n' : escape === 't' ? '\t' : escape === 'r' ? '\r' : escape ?? '%',
  );
}

/** The one file a simple command writes and the text it writes there, when the line says it all. */
function shellWrite(commands: readonly ParsedCommand[], cwd: string | null, rawText: string): { path: string; content: string; sudo: boolean } | null {
  const meaningful = commands.filter((c) => !(c.program === 'mkdir' || (c.program === 'chmod') || (c.program === 'chown')));
  const quotedHeredoc = /<<-?\s*(['"])\w+\1/.test(rawText);
  if (meaningful.length === 1) {
    const [only] = meaningful as [ParsedCommand];
    const targets = redirectTargets(only);
    if (only.program === 'cat' && only.stdin !== null && targets.length === 1 && only.argv.length === 1 && (quotedHeredoc || !/[$`\\]/.test(only.stdin))) {
      const path = resolvePath(targets[0] as string, cwd);
      return path ? { path, content: `${only.stdin}\n`, sudo: only.sudo } : null;
    }
    const teeFiles = only.program === 'tee' ? only.argv.slice(1).filter((w) => !w.startsWith('-')) : [];
    if (teeFiles.length === 1 && only.stdin !== null && !only.argv.includes('-a') && (quotedHeredoc || !/[$`\\]/.test(only.stdin))) {
      const path = resolvePath(teeFiles[0] as string, cwd);
      return path ? { path, content: `${only.stdin}\n`, sudo: only.sudo } : null;
    }
  }
  if (meaningful.length === 2) {
    const [first, second] = meaningful as [ParsedCommand, ParsedCommand];
    const teeFiles = second.program === 'tee' ? second.argv.slice(1).filter((w) => !w.startsWith('-')) : [];
    if ((first.program === 'printf' || first.program === 'echo') && second.pipelinePosition === 1 && teeFiles.length === 1 && !second.argv.includes('-a')) {
      const text = first.program === 'printf' ? (first.argv.length === 2 ? printfText(first.argv[1] as string) : null) : first.argv[1] === '-e' ? null : `${first.argv.slice(1).filter((w) => w !== '-n').join(' ')}${first.argv.includes('-n') ? '' : '\n'}`;
      const path = resolvePath(teeFiles[0] as string, cwd);
      if (text !== null && path && !/\$/.test(rawText.replace(/'[^']*'/g, ''))) return { path, content: text, sudo: second.sudo };
    }
  }
  return null;
}

/** `cat F` / `sed -n '1,Np' F` / `head -n N F` whose output is the whole file. */
function shellRead(commands: readonly ParsedCommand[], cwd: string | null, output: string): { path: string; content: string } | null {
  if (commands.length !== 1) return null;
  const [only] = commands as [ParsedCommand];
  const args = only.argv.slice(1);
  let file: string | undefined;
  if (only.program === 'cat' && args.length === 1 && !args[0]?.startsWith('-')) file = args[0];
  const sed = only.program === 'sed' && args[0] === '-n' ? /^1,(\d+)p$/.exec(args[1] ?? '') : null;
  if (sed && args.length === 3) {
    const lines = output.replace(/\n$/, '').split('\n').length;
    if (lines < Number(sed[1])) file = args[2];
  }
  if (!file || only.stdin !== null || redirectTargets(only).length > 0) return null;
  const path = resolvePath(file, cwd);
  return path ? { path, content: output.endsWith('\n') || output === '' ? output : `${output}\n` } : null;
}

export function fileEvents(call: RecordedCall, segments: readonly Segment[], cwdOf: (segment: Segment | null) => string | null): FileTouch[] {
  if (call.command === null) return toolEvents(call, cwdOf(null));
  const touches: FileTouch[] = [];
  for (const segment of segments) {
    const cwd = cwdOf(segment);
    const top = parseCommandLine(segment.command);
    const base = { callId: call.callId, messageOrdinal: call.messageOrdinal, host: segment.host };
    const wrote = call.exitCode === 0 || call.exitCode === null ? shellWrite(top, cwd, segment.command) : null;
    if (wrote) touches.push({ ...base, path: wrote.path, event: { kind: 'write', content: wrote.content, existed: false }, segment, sudo: wrote.sudo });
    const read = call.exitCode === 0 && segments.length === 1 ? shellRead(top, cwd, call.output) : null;
    if (read) touches.push({ ...base, path: read.path, event: { kind: 'read', content: read.content }, segment: null, sudo: false });
  }
  return touches;
}
