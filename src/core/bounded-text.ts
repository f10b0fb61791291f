import { createHash } from 'node:crypto';
import type { MessageItem, ToolCallRecord, UnknownItem } from './model.js';

/**
 * Texts too long for the store are kept as their head and tail. The store writes a source in one
 * transaction under a bounded memory limit (see BULK_WRITE_MEMORY_LIMIT), and DuckDB holds a
 * transaction's strings in memory until it commits: one 122 MB tool output was enough to fail
 * its whole file. A text over TEXT_LIMIT_BYTES keeps its first and last KEPT_CHARS characters
 * around a marker that gives its full size and SHA-256 (of the text as stored, after redaction),
 * the record says which fields were cut (`extra.retrace_cut`, and `truncated` on a tool call),
 * and every other record of the file is kept.
 */

export const TEXT_LIMIT_BYTES = 16 * 1024 * 1024;
export const KEPT_CHARS = 4 * 1024 * 1024;

/** What was cut from one field: the whole text's size in UTF-8 bytes and its SHA-256. */
export interface TextCut {
  bytes: number;
  sha256: string;
}

export type TextCuts = Record<string, TextCut>;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The text as stored, and what was cut from it (null when it fits). */
export function boundText(text: string): { text: string; cut: TextCut | null } {
  // A UTF-16 unit is at most 3 UTF-8 bytes: short texts are never measured.
  if (text.length * 3 <= TEXT_LIMIT_BYTES) return { text, cut: null };
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= TEXT_LIMIT_BYTES) return { text, cut: null };
  const sha256 = createHash('sha256').update(text, 'utf8').digest('hex');
  // Never split a surrogate pair: the stored text stays valid UTF-16 (and UTF-8).
  const headEnd = isHighSurrogate(text.charCodeAt(KEPT_CHARS - 1)) ? KEPT_CHARS - 1 : KEPT_CHARS;
  const tailStart = isHighSurrogate(text.charCodeAt(text.length - KEPT_CHARS - 1)) ? text.length - KEPT_CHARS + 1 : text.length - KEPT_CHARS;
  const marker =
    `\n[… retrace kept the first and last ${KEPT_CHARS.toLocaleString('en-US')} characters of this text: ` +
    `${bytes.toLocaleString('en-US')} bytes in all, sha256 ${sha256} …]\n`;
  return { text: `${text.slice(0, headEnd)}${marker}${text.slice(tailStart)}`, cut: { bytes, sha256 } };
}

/** A JSON text cut as a text would be, wrapped so the column still holds valid JSON. */
function boundJsonText(text: string): { text: string; cut: TextCut | null } {
  const bounded = boundText(text);
  return bounded.cut ? { text: JSON.stringify({ retrace_cut_text: bounded.text }), cut: bounded.cut } : bounded;
}

function withCuts(extra: string | null, cuts: TextCuts): string | null {
  if (Object.keys(cuts).length === 0) return extra;
  let fields: Record<string, unknown> = {};
  if (extra !== null) {
    try {
      const parsed: unknown = JSON.parse(extra);
      fields = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { retrace_extra: parsed };
    } catch {
      fields = { retrace_extra: extra };
    }
  }
  return JSON.stringify({ ...fields, retrace_cut: cuts });
}

/** Cuts the texts of a record, field by field, collecting what was cut under the field's name. */
class Cutter {
  readonly cuts: TextCuts = {};

  text(field: string, text: string): string {
    const bounded = boundText(text);
    if (bounded.cut) this.cuts[field] = bounded.cut;
    return bounded.text;
  }

  nullable(field: string, text: string | null): string | null {
    return text === null ? null : this.text(field, text);
  }

  json(field: string, text: string | null): string | null {
    if (text === null) return null;
    const bounded = boundJsonText(text);
    if (bounded.cut) this.cuts[field] = bounded.cut;
    return bounded.text;
  }
}

function boundToolCall(call: ToolCallRecord): { call: ToolCallRecord; cut: number } {
  const cutter = new Cutter();
  const bounded = {
    ...call,
    input: cutter.json('input', call.input) ?? '{}',
    command: cutter.nullable('command', call.command),
    output: cutter.nullable('output', call.output),
    title: cutter.nullable('title', call.title),
    extra: cutter.json('extra', call.extra),
  };
  const cut = Object.keys(cutter.cuts).length;
  return { call: cut === 0 ? call : { ...bounded, truncated: true, extra: withCuts(bounded.extra, cutter.cuts) }, cut };
}

/** A message and its calls with every text within TEXT_LIMIT_BYTES; `cut`: how many texts were cut. */
export function boundMessageItem(item: MessageItem): { item: MessageItem; cut: number } {
  const cutter = new Cutter();
  const message = {
    ...item.message,
    text: cutter.text('text', item.message.text),
    reasoning: cutter.text('reasoning', item.message.reasoning),
    error: cutter.nullable('error', item.message.error),
    extra: cutter.json('extra', item.message.extra),
  };
  let cut = Object.keys(cutter.cuts).length;
  const toolCalls = item.toolCalls.map((call) => {
    const bounded = boundToolCall(call);
    cut += bounded.cut;
    return bounded.call;
  });
  if (cut === 0) return { item, cut };
  return { item: { ...item, message: { ...message, extra: withCuts(message.extra, cutter.cuts) }, toolCalls }, cut };
}

/** An unknown record's raw text within TEXT_LIMIT_BYTES (the marker inside says what was cut). */
export function boundUnknownItem(item: UnknownItem): { item: UnknownItem; cut: number } {
  const bounded = boundJsonText(item.raw);
  return bounded.cut ? { item: { ...item, raw: bounded.text }, cut: 1 } : { item, cut: 0 };
}
