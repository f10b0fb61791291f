// Small text helpers shared by the renderers: how tools number file lines, patch hunks, and the
// file contents a session has seen so far (so an edit can show what the file looked like).

/** Files the session read or wrote, so later edits know the text around them. */
export class FileTracker {
  private readonly files = new Map<string, string>();

  seen(path: string): string | undefined {
    return this.files.get(path);
  }

  set(path: string, content: string): void {
    this.files.set(path, content);
  }

  /** Applies an edit and returns the file before and after (the old text alone when never read). */
  edit(path: string, oldText: string, newText: string): { before: string; after: string } {
    const before = this.files.get(path) ?? oldText;
    const after = before.includes(oldText) ? before.replace(oldText, newText) : newText;
    this.files.set(path, after);
    return { before, after };
  }
}

export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The 1-based line where `needle` starts in `haystack`, or 1. */
export function lineOfText(haystack: string, needle: string): number {
  const index = haystack.indexOf(needle);
  if (index < 0) return 1;
  return haystack.slice(0, index).split('\n').length;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** One hunk replacing the old text by the new, with up to 3 lines of context. */
export function hunk(before: string, oldText: string, newText: string): Hunk {
  const beforeLines = splitLines(before);
  const start = lineOfText(before, oldText);
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  const headFrom = Math.max(1, start - 3);
  const head = beforeLines.slice(headFrom - 1, start - 1);
  const tail = beforeLines.slice(start - 1 + oldLines.length, start - 1 + oldLines.length + 3);
  return {
    oldStart: headFrom,
    oldLines: head.length + oldLines.length + tail.length,
    newStart: headFrom,
    newLines: head.length + newLines.length + tail.length,
    lines: [...head.map((l) => ` ${l}`), ...oldLines.map((l) => `-${l}`), ...newLines.map((l) => `+${l}`), ...tail.map((l) => ` ${l}`)],
  };
}

export function unifiedDiff(path: string, before: string, oldText: string, newText: string): string {
  const h = hunk(before, oldText, newText);
  return [
    `Index: ${path}`,
    '===================================================================',
    `--- ${path}`,
    `+++ ${path}`,
    `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
    ...h.lines,
    '',
  ].join('\n');
}

/** A present-participle form of a to-do ("Pull the image" → "Pulling the image"). */
export function gerund(text: string): string {
  const [first = '', ...rest] = text.split(' ');
  let verb = first;
  if (/ing$/i.test(verb)) return text;
  if (/[^aeiou]e$/i.test(verb) && !/ee$/i.test(verb)) verb = verb.slice(0, -1);
  else if (/^(run|stop|get|set|put|cut|plan)$/i.test(verb)) verb += verb.slice(-1);
  return [`${verb}ing`, ...rest].join(' ');
}

export function relativeTo(cwd: string, path: string): string {
  if (path.startsWith(`${cwd}/`)) return path.slice(cwd.length + 1);
  return path;
}

/** Codex-style model-side truncation: head and tail kept, the middle replaced by a marker. */
export function truncateMiddle(text: string, maxLines = 256, maxBytes = 10240): { text: string; totalLines: number; truncated: boolean } {
  const lines = splitLines(text);
  const totalLines = lines.length;
  if (totalLines <= maxLines && Buffer.byteLength(text) <= maxBytes) return { text, totalLines, truncated: false };
  let kept = lines;
  if (totalLines > maxLines) {
    const half = Math.floor(maxLines / 2);
    kept = [...lines.slice(0, half), `[... omitted ${totalLines - maxLines} of ${totalLines} lines ...]`, ...lines.slice(totalLines - half)];
  }
  let body = `${kept.join('\n')}\n`;
  if (Buffer.byteLength(body) > maxBytes) {
    const half = Math.floor(maxBytes / 2);
    const omitted = Buffer.byteLength(body) - maxBytes;
    body = `${body.slice(0, half)}\n[... omitted ${omitted} bytes ...]\n${body.slice(body.length - half)}`;
  }
  return { text: body, totalLines, truncated: true };
}
