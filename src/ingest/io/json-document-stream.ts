import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';

/**
 * Streams one large JSON object document (such as `opencode export` output) without holding it
 * in one string: each top-level property comes out whole, except the array properties named in
 * `streamedKeys`, whose elements come out one at a time. Every piece carries the line it starts on.
 */
export type JsonDocumentEvent =
  | { kind: 'property'; key: string; text: string; line: number; validUtf8: boolean }
  | { kind: 'element'; key: string; index: number; text: string; line: number; validUtf8: boolean }
  | { kind: 'error'; message: string; line: number; path: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

interface Captured {
  text: string;
  validUtf8: boolean;
}

/** Index of `byte` at or after `from`, or the chunk's length when there is none. */
function indexOr(chunk: Buffer, byte: number, from: number): number {
  const at = chunk.indexOf(byte, from);
  return at === -1 ? chunk.length : at;
}

type Phase =
  | 'before-root'
  | 'key-or-end'
  | 'in-key'
  | 'colon'
  | 'value'
  | 'in-value'
  | 'after-value'
  | 'element-or-end'
  | 'in-element'
  | 'after-element'
  | 'done';

/** The scanner's state, fed chunk by chunk; pure apart from its own fields. */
export class JsonDocumentScanner {
  private phase: Phase = 'before-root';
  private line = 1;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private key = '';
  private keyBytes: Buffer[] = [];
  private captured: Buffer[] = [];
  private captureStartLine = 0;
  private elementIndex = 0;
  private failed = false;

  constructor(private readonly streamedKeys: ReadonlySet<string>) {}

  feed(chunk: Buffer): JsonDocumentEvent[] {
    const events: JsonDocumentEvent[] = [];
    let captureFrom = -1;
    const startCapture = (at: number): void => {
      captureFrom = at;
      this.captured = [];
      this.captureStartLine = this.line;
    };
    const finishCapture = (until: number): { text: string; validUtf8: boolean } => {
      if (captureFrom >= 0) this.captured.push(chunk.subarray(captureFrom, until));
      captureFrom = -1;
      const bytes = Buffer.concat(this.captured);
      this.captured = [];
      return { text: bytes.toString('utf8'), validUtf8: isUtf8(bytes) };
    };
    if (this.phase === 'in-value' || this.phase === 'in-element') captureFrom = 0;
    let keyFrom = this.phase === 'in-key' ? 0 : -1;
    let nextQuote = -1;
    let nextBackslash = -1;

    for (let i = 0; i < chunk.length && !this.failed; i++) {
      const byte = chunk[i] as number;
      if (byte === NEWLINE) this.line += 1;
      if (this.inString) {
        if (!this.escaped && byte !== QUOTE && byte !== BACKSLASH) {
          // Jump to the next quote or backslash: string bodies are most of a transcript's bytes,
          // and raw newlines cannot occur inside a JSON string, so no line is skipped uncounted.
          // Positions are remembered per chunk so a chunk of many short strings stays linear.
          if (nextQuote < i) nextQuote = indexOr(chunk, QUOTE, i);
          if (nextBackslash < i) nextBackslash = indexOr(chunk, BACKSLASH, i);
          const quote = nextQuote === chunk.length ? -1 : nextQuote;
          const backslash = nextBackslash === chunk.length ? -1 : nextBackslash;
          const next = quote === -1 ? backslash : backslash === -1 ? quote : Math.min(quote, backslash);
          if (next === -1) {
            i = chunk.length;
            break;
          }
          i = next - 1;
          continue;
        }
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) {
          this.inString = false;
          if (this.phase === 'in-key') {
            this.keyBytes.push(chunk.subarray(keyFrom, i));
            this.key = Buffer.concat(this.keyBytes).toString('utf8');
            this.keyBytes = [];
            keyFrom = -1;
            this.phase = 'colon';
          } else if ((this.phase === 'in-value' || this.phase === 'in-element') && this.depth === this.baseDepth()) {
            this.endScalarIfString(events, finishCapture, i + 1);
          }
        }
        continue;
      }
      if (isSpace(byte)) {
        if ((this.phase === 'in-value' || this.phase === 'in-element') && this.depth === this.baseDepth() && this.scalarOpen) {
          this.emitCaptured(events, finishCapture(i));
        }
        continue;
      }
      switch (this.phase) {
        case 'before-root':
          if (byte === 0xef || byte === 0xbb || byte === 0xbf) break; // a UTF-8 byte order mark
          if (byte !== OPEN_OBJECT) return this.fail(events, 'the document is not a JSON object', '$');
          this.depth = 1;
          this.phase = 'key-or-end';
          break;
        case 'key-or-end':
          if (byte === CLOSE_OBJECT) {
            this.depth = 0;
            this.phase = 'done';
          } else if (byte === QUOTE) {
            this.inString = true;
            this.phase = 'in-key';
            keyFrom = i + 1;
          } else return this.fail(events, `expected a property name, found '${String.fromCharCode(byte)}'`, '$');
          break;
        case 'colon':
          if (byte !== COLON) return this.fail(events, `expected ':' after "${this.key}"`, `$.${this.key}`);
          this.phase = 'value';
          break;
        case 'value':
          if (byte === OPEN_ARRAY && this.streamedKeys.has(this.key)) {
            this.depth = 2;
            this.elementIndex = 0;
            this.phase = 'element-or-end';
          } else {
            this.phase = 'in-value';
            startCapture(i);
            this.openValue(byte);
          }
          break;
        case 'in-value':
        case 'in-element':
          if (this.scalarOpen && (byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY)) {
            this.emitCaptured(events, finishCapture(i));
            i -= 1; // let the separator be read again by the phase that follows the value
            break;
          }
          if (byte === QUOTE) this.inString = true;
          else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.depth += 1;
          else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
            this.depth -= 1;
            if (this.depth === this.baseDepth()) this.emitCaptured(events, finishCapture(i + 1));
          }
          break;
        case 'after-value':
          if (byte === COMMA) this.phase = 'key-or-end';
          else if (byte === CLOSE_OBJECT) {
            this.depth = 0;
            this.phase = 'done';
          } else return this.fail(events, `expected ',' or '}' after "${this.key}"`, `$.${this.key}`);
          break;
        case 'element-or-end':
          if (byte === CLOSE_ARRAY) {
            this.depth = 1;
            this.phase = 'after-value';
          } else {
            this.phase = 'in-element';
            startCapture(i);
            this.openValue(byte);
          }
          break;
        case 'after-element':
          if (byte === COMMA) this.phase = 'element-or-end';
          else if (byte === CLOSE_ARRAY) {
            this.depth = 1;
            this.phase = 'after-value';
          } else return this.fail(events, `expected ',' or ']' after element ${this.elementIndex - 1}`, this.elementPath(this.elementIndex - 1));
          break;
        case 'done':
          return this.fail(events, 'unexpected data after the end of the document', '$');
        case 'in-key':
          break;
      }
    }
    if (this.phase === 'in-key' && keyFrom >= 0) this.keyBytes.push(chunk.subarray(keyFrom));
    if (captureFrom >= 0) this.captured.push(chunk.subarray(captureFrom));
    return events;
  }

  /** Call at end of input: reports a document cut short. */
  end(): JsonDocumentEvent[] {
    if (this.failed || this.phase === 'done') return [];
    if (this.phase === 'before-root') return [{ kind: 'error', message: 'the file is empty', line: this.line, path: '$' }];
    const where = this.phase === 'in-element' || this.phase === 'element-or-end' || this.phase === 'after-element'
      ? this.elementPath(this.elementIndex)
      : `$.${this.key}`;
    const started = this.phase === 'in-element' || this.phase === 'in-value' ? ` (it started on line ${this.captureStartLine})` : '';
    return [{ kind: 'error', message: `the document ends early, inside ${where}${started}`, line: this.line, path: where }];
  }

  private scalarOpen = false;

  private baseDepth(): number {
    return this.phase === 'in-element' ? 2 : 1;
  }

  private openValue(byte: number): void {
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      this.depth += 1;
      this.scalarOpen = false;
    } else if (byte === QUOTE) {
      this.inString = true;
      this.scalarOpen = false;
      this.stringScalar = true;
    } else {
      this.scalarOpen = true;
    }
  }

  private stringScalar = false;

  private endScalarIfString(events: JsonDocumentEvent[], finish: (until: number) => Captured, until: number): void {
    if (!this.stringScalar) return;
    this.stringScalar = false;
    this.emitCaptured(events, finish(until));
  }

  private emitCaptured(events: JsonDocumentEvent[], { text, validUtf8 }: Captured): void {
    this.scalarOpen = false;
    if (this.phase === 'in-element') {
      events.push({ kind: 'element', key: this.key, index: this.elementIndex, text, line: this.captureStartLine, validUtf8 });
      this.elementIndex += 1;
      this.phase = 'after-element';
    } else {
      events.push({ kind: 'property', key: this.key, text, line: this.captureStartLine, validUtf8 });
      this.phase = 'after-value';
    }
  }

  private elementPath(index: number): string {
    return `$.${this.key}[${index}]`;
  }

  private fail(events: JsonDocumentEvent[], message: string, path: string): JsonDocumentEvent[] {
    this.failed = true;
    events.push({ kind: 'error', message, line: this.line, path });
    return events;
  }
}

/** Streams a JSON object document from a file; see JsonDocumentScanner. */
export async function* streamJsonDocument(file: string, streamedKeys: ReadonlySet<string>): AsyncGenerator<JsonDocumentEvent> {
  const scanner = new JsonDocumentScanner(streamedKeys);
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    yield* scanner.feed(chunk);
  }
  yield* scanner.end();
}
