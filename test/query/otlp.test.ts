import { join } from 'node:path';
import protobuf from 'protobufjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runRetrace } from '../helpers/cli.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

/**
 * `retrace export --to otlp` against the real OTLP protocol: the JSON is decoded into the
 * `ExportTraceServiceRequest` of the opentelemetry-proto files (vendored in test/fixtures/otlp-proto)
 * with protobufjs, encoded to protobuf bytes and decoded again. Anything the protocol does not
 * know (a misspelt or snake_case field, a string where an integer goes) is dropped or changed on
 * the way, so the document must come back exactly as it was, with OTLP/JSON's own rules checked
 * besides: ids in hex of the right length, enums as integers, times as decimal strings.
 */
const PROTO_ROOT = join(REPO_ROOT, 'test/fixtures/otlp-proto');
const dir = tempDir('retrace-otlp-');
const db = tempDbPath(dir);
let request: protobuf.Type;

interface Span { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; startTimeUnixNano: string; endTimeUnixNano: string; attributes: { key: string; value: Record<string, unknown> }[]; status?: { code: number; message?: string } }
interface Traces { resourceSpans: { resource: { attributes: unknown[] }; scopeSpans: { scope: unknown; spans: Span[] }[] }[] }

const ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

/** Rewrites the id fields between OTLP/JSON's hex and protobuf JSON's base64 (bytes). */
function mapIds(value: unknown, convert: (id: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => mapIds(item, convert));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, ID_FIELDS.has(key) && typeof item === 'string' ? convert(item) : mapIds(item, convert)]));
}

function throughProtobuf(document: unknown): unknown {
  const asProto = mapIds(document, (hex) => Buffer.from(hex, 'hex').toString('base64'));
  const message = request.fromObject(asProto as Record<string, unknown>);
  const problem = request.verify(message);
  if (problem) throw new Error(problem);
  const decoded = request.decode(request.encode(message).finish());
  const back = request.toObject(decoded, { longs: String, enums: Number, bytes: String, defaults: false });
  return mapIds(back, (base64) => Buffer.from(base64, 'base64').toString('hex'));
}

async function exportOtlp(session: string): Promise<Traces> {
  const run = await runRetrace(['export', session, '--to', 'otlp', '--db', db]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Traces;
}

beforeAll(async () => {
  for (const folder of ['sessions', 'test/fixtures/claude/projects']) {
    const run = await runRetrace(['ingest', join(REPO_ROOT, folder), '--db', db, '--machine', 'spark-ops-1']);
    expect(run.code, run.stderr).toBe(0);
  }
  // The .proto files import each other by paths relative to the folder they were published in.
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(PROTO_ROOT, target.startsWith(PROTO_ROOT) ? target.slice(PROTO_ROOT.length + 1) : target);
  await root.load('opentelemetry/proto/collector/trace/v1/trace_service.proto');
  request = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
}, 120_000);

describe('retrace export --to otlp', () => {
  it('is an ExportTraceServiceRequest that survives protobuf encoding unchanged', async () => {
    const traces = await exportOtlp('qwen');
    expect(throughProtobuf(traces)).toEqual(traces);
    // The check can fail: a field the protocol does not have, or a wrong type, does not survive.
    const misspelt = structuredClone(traces);
    (misspelt.resourceSpans[0]?.scopeSpans[0]?.spans[0] as unknown as Record<string, unknown>)['start_time_unix_nano'] = '1';
    expect(throughProtobuf(misspelt)).not.toEqual(misspelt);
    const wrongType = structuredClone(traces);
    (wrongType.resourceSpans[0]?.scopeSpans[0]?.spans[0] as unknown as Record<string, unknown>)['kind'] = 'SPAN_KIND_INTERNAL';
    expect(throughProtobuf(wrongType)).not.toEqual(wrongType);
  });

  it('follows the OTLP/JSON rules: hex ids, integer enums, unix nanos as strings', async () => {
    const spans = (await exportOtlp('qwen')).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    for (const span of spans) {
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
      if (span.parentSpanId !== undefined) expect(span.parentSpanId).toMatch(/^[0-9a-f]{16}$/);
      expect(typeof span.kind).toBe('number');
      expect(span.startTimeUnixNano).toMatch(/^\d{19}$/);
      expect(BigInt(span.endTimeUnixNano) >= BigInt(span.startTimeUnixNano)).toBe(true);
    }
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
  });

  it('has one execute_tool span per tool call under one invoke_agent span for the session', async () => {
    const spans = (await exportOtlp('qwen')).resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    const [session, ...tools] = spans;
    expect(session?.name).toBe('invoke_agent opencode');
    expect(session?.parentSpanId).toBeUndefined();
    expect(tools.length).toBe(45);
    const attr = (span: Span | undefined, key: string): unknown => span?.attributes.find((a) => a.key === key)?.value;
    for (const tool of tools) {
      expect(tool.name).toMatch(/^execute_tool /);
      expect(tool.parentSpanId).toBe(session?.spanId);
      expect(attr(tool, 'gen_ai.operation.name')).toEqual({ stringValue: 'execute_tool' });
      expect(attr(tool, 'gen_ai.tool.name')).toEqual({ stringValue: tool.name.slice('execute_tool '.length) });
      expect(attr(tool, 'gen_ai.tool.call.id')).toHaveProperty('stringValue');
    }
    const timedOut = tools.filter((t) => t.status?.message === 'timed out');
    expect(timedOut.length).toBe(1);
    // The bash tool gave up at 120 s; its result arrived a little later.
    const ranFor = BigInt(timedOut[0]?.endTimeUnixNano ?? '0') - BigInt(timedOut[0]?.startTimeUnixNano ?? '0');
    expect(ranFor >= 120_000_000_000n && ranFor < 121_000_000_000n).toBe(true);
    expect(tools.some((t) => (attr(t, 'process.exit.code') as { intValue?: string } | undefined)?.intValue === '0')).toBe(true);
    expect(attr(session, 'retrace.session.machine')).toEqual({ stringValue: 'spark-ops-1' });
  });

  it('nests a subagent under the call that spawned it', async () => {
    const traces = await exportOtlp('9572fbe8-2f61-4b6b-98a6-d20b6e222bae');
    expect(throughProtobuf(traces)).toEqual(traces);
    const spans = traces.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    const agents = spans.filter((s) => s.name.startsWith('invoke_agent'));
    expect(agents.length).toBe(2);
    const task = spans.find((s) => s.name === 'execute_tool Task');
    expect(agents[1]?.parentSpanId).toBe(task?.spanId);
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
  });
});
