import { applyEdits, type TextEdit } from './apply-patch.js';
import type { FileTouch } from './file-events.js';
import type { Segment } from './segments.js';

/**
 * Each file the session wrote or edited, replayed event by event into the state the record ended
 * with: its whole content when a write or a full read showed it (then the edits applied on top),
 * else the edits alone (to apply in place on the host, where the file already is). Pure.
 */

export interface FileRecord {
  host: string | null;
  path: string;
  /** The final content, or null when only edits of a file never shown whole are known. */
  content: string | null;
  /** The edits made since the content was last known (all of them when it never was). */
  edits: TextEdit[];
  /** The file was there before the agent changed it: writing it again may overwrite another one. */
  existedBefore: boolean;
  /** Deleted by the end of the session. */
  deleted: boolean;
  /** Calls that changed it, in order. */
  changedBy: { callId: string; messageOrdinal: number }[];
  /** Shell lines that only wrote it (replaced by the file's own step). */
  writerSegments: Segment[];
  sudo: boolean;
}

export function fileKey(host: string | null, path: string): string {
  return `${host ?? ''}\u0000${path}`;
}

export function fileStates(touches: readonly FileTouch[]): FileRecord[] {
  const files = new Map<string, FileRecord>();
  for (const touch of touches) {
    const key = fileKey(touch.host, touch.path);
    let file = files.get(key);
    if (!file) {
      file = { host: touch.host, path: touch.path, content: null, edits: [], existedBefore: false, deleted: false, changedBy: [], writerSegments: [], sudo: false };
      files.set(key, file);
    }
    const { event } = touch;
    if (event.kind === 'read') {
      // A read before any change shows what was there; after changes it confirms (or corrects) them.
      if (file.changedBy.length === 0) file.existedBefore = true;
      file.content = event.content;
      file.edits = [];
      continue;
    }
    file.changedBy.push({ callId: touch.callId, messageOrdinal: touch.messageOrdinal });
    file.sudo ||= touch.sudo;
    if (touch.segment) file.writerSegments.push(touch.segment);
    if (event.kind === 'write') {
      if (file.changedBy.length === 1 && event.existed) file.existedBefore = true;
      file.content = event.content;
      file.edits = [];
      file.deleted = false;
    } else if (event.kind === 'delete') {
      file.deleted = true;
      file.content = null;
      file.edits = [];
    } else {
      if (file.changedBy.length === 1 && file.content === null) file.existedBefore = true;
      if (file.content !== null) {
        const edited = applyEdits(file.content, event.edits);
        if (edited !== null) file.content = edited;
        else {
          // The edit does not fit the content we had: keep the edits, to apply where the file is.
          file.content = null;
          file.edits = [...event.edits];
        }
      } else file.edits.push(...event.edits);
    }
  }
  return [...files.values()].filter((file) => file.changedBy.length > 0);
}
