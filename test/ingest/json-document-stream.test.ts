import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonDocumentScanner, type JsonDocumentEvent } from '../../src/ingest/io/json-document-stream.js';

function scan(text: string, chunkSize: number): JsonDocumentEvent[] {
  const scanner = new JsonDocumentScanner(new Set(['messages']));
  const bytes = Buffer.from(text);
  const events: JsonDocumentEvent[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) events.push(...scanner.feed(bytes.subarray(i, i + chunkSize)));
  events.push(...scanner.end());
  return events;
}

describe('JsonDocumentScanner', () => {
  it('yields top-level properties whole and streamed array elements one by one, with their lines', () => {
    const doc = JSON.stringify({ info: { id: 'ses_1', tricky: 'a"}]\\' }, messages: [{ a: 1 }, [2], 'three', null], tail: 5 }, null, 2);
    const events = scan(doc, 3);
    expect(events.map((e) => e.kind)).toEqual(['property', 'element', 'element', 'element', 'element', 'property']);
    expect(JSON.parse((events[0] as { text: string }).text)).toEqual({ id: 'ses_1', tricky: 'a"}]\\' });
    expect(events.filter((e) => e.kind === 'element').map((e) => JSON.parse((e as { text: string }).text))).toEqual([{ a: 1 }, [2], 'three', null]);
    expect((events[1] as { line: number }).line).toBe(7);
  });

  it('reports a document cut short, naming the element it was in and the line it started on', () => {
    const doc = JSON.stringify({ info: {}, messages: [{ a: 1 }, { b: 'long text' }] }, null, 2);
    const events = scan(doc.slice(0, doc.indexOf('long')), 4);
    const error = events.find((e) => e.kind === 'error');
    expect(error).toMatchObject({ kind: 'error', path: '$.messages[1]' });
    expect((error as { message: string }).message).toMatch(/ends early.*started on line/);
    expect(events.filter((e) => e.kind === 'element')).toHaveLength(1);
  });

  it('rejects a document that is not an object', () => {
    expect(scan('[1,2]', 10)).toEqual([{ kind: 'error', message: 'the document is not a JSON object', line: 1, path: '$' }]);
  });

  it('gives the same result for any chunking of any JSON document (property)', () => {
    fc.assert(
      fc.property(
        fc.record({ info: fc.jsonValue(), messages: fc.array(fc.jsonValue(), { maxLength: 8 }) }),
        fc.integer({ min: 1, max: 64 }),
        fc.boolean(),
        (doc, chunk, pretty) => {
          const text = JSON.stringify(doc, null, pretty ? 2 : 0);
          const events = scan(text, chunk);
          const elements = events.filter((e) => e.kind === 'element').map((e) => JSON.parse((e as { text: string }).text));
          const info = events.find((e) => e.kind === 'property' && e.key === 'info') as { text: string } | undefined;
          expect(events.some((e) => e.kind === 'error')).toBe(false);
          expect(elements).toEqual(JSON.parse(JSON.stringify(doc.messages)));
          expect(info && JSON.parse(info.text)).toEqual(JSON.parse(JSON.stringify(doc.info)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
