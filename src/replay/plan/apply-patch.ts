/**
 * Codex's `apply_patch` format (also opencode's `patch` tool): `*** Begin Patch`, then per file
 * `*** Add File: P` (every line `+`), `*** Delete File: P`, or `*** Update File: P` (optionally
 * `*** Move to: Q`) with hunks under `@@` whose lines are context (` `), removed (`-`) or added
 * (`+`). Read into plain replacements: each hunk's old text and new text. Pure.
 */

export interface TextEdit {
  old: string;
  new: string;
  /** Replace every occurrence (Claude's replace_all), not just the first. */
  all: boolean;
}

export type PatchOperation =
  | { kind: 'add'; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; moveTo: string | null; edits: TextEdit[] };

const HEADER = /^\*\*\* (Add|Delete|Update) File: (.+)$/;

function hunkEdit(lines: readonly string[]): TextEdit | null {
  const old: string[] = [];
  const now: string[] = [];
  for (const line of lines) {
    const mark = line[0];
    const text = line.slice(1);
    if (mark === '-') old.push(text);
    else if (mark === '+') now.push(text);
    else {
      // A context line: a leading space, or an empty line some writers leave bare.
      old.push(mark === ' ' ? text : line);
      now.push(mark === ' ' ? text : line);
    }
  }
  if (old.join('\n') === now.join('\n')) return null;
  // Whole lines: each ends with a newline, so `x` never matches the start of `xy`.
  return { old: old.length > 0 ? `${old.join('\n')}\n` : '', new: now.length > 0 ? `${now.join('\n')}\n` : '', all: false };
}

export function parsePatch(text: string): PatchOperation[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const operations: PatchOperation[] = [];
  let current: PatchOperation | null = null;
  let hunk: string[] | null = null;
  const closeHunk = (): void => {
    if (current?.kind === 'update' && hunk) {
      const edit = hunkEdit(hunk);
      if (edit) current.edits.push(edit);
    }
    hunk = null;
  };
  for (const line of lines) {
    const header = HEADER.exec(line);
    if (header) {
      closeHunk();
      const path = (header[2] ?? '').trim();
      current = header[1] === 'Add' ? { kind: 'add', path, content: '' } : header[1] === 'Delete' ? { kind: 'delete', path } : { kind: 'update', path, moveTo: null, edits: [] };
      operations.push(current);
      continue;
    }
    if (line === '*** Begin Patch' || line === '*** End of File') continue;
    if (line === '*** End Patch') {
      closeHunk();
      current = null;
      continue;
    }
    if (!current) continue;
    if (current.kind === 'add') {
      if (line.startsWith('+')) current.content += `${line.slice(1)}\n`;
      continue;
    }
    if (current.kind !== 'update') continue;
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (move) current.moveTo = (move[1] ?? '').trim();
    else if (line.startsWith('@@')) {
      closeHunk();
      hunk = [];
    } else if (hunk) hunk.push(line);
    else if (/^[ +-]/.test(line)) hunk = [line];
  }
  closeHunk();
  return operations;
}

/**
 * Applies replacements in order. Null when one of them does not find its old text: the content
 * the record had is then not what we think, and the caller must not guess.
 */
export function applyEdits(content: string, edits: readonly TextEdit[]): string | null {
  let text = content;
  for (const edit of edits) {
    if (edit.old === '') {
      text += edit.new;
      continue;
    }
    if (!text.includes(edit.old)) return null;
    text = edit.all ? text.split(edit.old).join(edit.new) : text.replace(edit.old, () => edit.new);
  }
  return text;
}
