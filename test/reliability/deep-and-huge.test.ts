import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { boundText, KEPT_CHARS, TEXT_LIMIT_BYTES } from '../../src/core/bounded-text.js';
import { limitJsonDepth, MAX_JSON_DEPTH, parseJson, stringifyJson } from '../../src/core/json-depth.js';
import { AGENT_TRANSCRIPTS, type AgentTranscript, type ToolCallShape } from '../helpers/agent-transcripts.js';
import { runRetraceJson } from '../helpers/cli.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir('retrace-deep-huge-');
let fileCounter = 0;

interface Summary {
  sources: number;
  messages: number;
  tool_calls: number;
  texts_cut: number;
  errors: unknown[];
  derive_failures: unknown[];
}

interface StoredCall {
  input: string;
  command: string;
  output: string;
  truncated: boolean;
  extra: string | null;
}

async function ingest(agent: AgentTranscript, call: ToolCallShape): Promise<{ summary: Summary; call: StoredCall; messages: number }> {
  fileCounter += 1;
  const folder = join(dir, `${agent.agent}-${fileCounter}`);
  mkdirSync(folder, { recursive: true });
  const file = join(folder, agent.fileName);
  writeFileSync(file, agent.text(call));
  const db = tempDbPath(dir);
  const run = await runRetraceJson<Summary>(['ingest', file, '--db', db, '--no-redact']);
  const stored = await runRetraceJson<StoredCall[]>(['sql', '--db', db, 'SELECT input, command, output, truncated, extra FROM tool_calls']);
  const messages = await runRetraceJson<{ n: number }[]>(['sql', '--db', db, 'SELECT count(*) AS n FROM messages']);
  expect(stored.json, `${agent.agent}: ${JSON.stringify(run.json.errors)}`).toHaveLength(1);
  return { summary: run.json, call: stored.json[0] as StoredCall, messages: messages.json[0]?.n ?? 0 };
}

/** Arrays nested `depth` deep around "x", as raw JSON text. */
function nested(depth: number): string {
  return `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;
}

/** How deep "x" sits in a value whose over-deep part may be kept as JSON text (parsed back here). */
function depthOfX(value: unknown): number {
  let depth = 0;
  let current = value;
  for (;;) {
    if (typeof current === 'string' && current.startsWith('[')) current = JSON.parse(current);
    if (!Array.isArray(current)) break;
    depth += 1;
    current = current[0];
  }
  expect(current).toBe('x');
  return depth;
}

describe('JSON of any depth is kept, never dropped (issue 15, point 3)', () => {
  it('cuts parsed values at MAX_JSON_DEPTH, keeping the rest as its exact JSON text', () => {
    const text = `{"a":${nested(3000)},"b":[1,{"c":null}]}`;
    const value = parseJson(text) as { a: unknown; b: unknown };
    expect(value.b).toEqual([1, { c: null }]);
    expect(depthOfX(value.a)).toBe(3000);
    let level = value.a;
    for (let i = 1; i < MAX_JSON_DEPTH; i++) level = (level as unknown[])[0];
    expect(typeof (level as unknown[])[0]).toBe('string');
    expect(JSON.stringify(value).length).toBeGreaterThan(text.length);
    expect(stringifyJson(JSON.parse(nested(100_000)))).toBe(nested(100_000));
    expect(limitJsonDepth({ k: { l: [true, 1.5, 'é\u2028'] } }, 2)).toEqual({ k: { l: '[true,1.5,"é\u2028"]' } });
  });

  for (const agent of AGENT_TRANSCRIPTS) {
    for (const depth of [5_000, 20_000, 100_000]) {
      it(`${agent.agent}: a tool input nested ${depth.toLocaleString('en-US')} deep is stored with the rest of its file`, async () => {
        const { summary, call, messages } = await ingest(agent, { command: 'uname -a', deepInputJson: nested(depth), output: 'Linux spark 6.8' });
        expect(summary.errors).toEqual([]);
        expect(summary.derive_failures).toEqual([]);
        expect(summary.sources).toBe(1);
        expect(messages).toBeGreaterThanOrEqual(3);
        expect(call.command).toBe('uname -a');
        expect(call.output).toBe('Linux spark 6.8');
        expect(depthOfX((JSON.parse(call.input) as { deep: unknown }).deep)).toBe(depth);
      }, 60_000);
    }

    it(`${agent.agent}: a command nested 5,000 subshells deep is parsed and its session derived`, async () => {
      const command = `${'('.repeat(5000)}nvidia-smi${')'.repeat(5000)}`;
      const { summary, call } = await ingest(agent, { command, output: 'ok' });
      expect(summary.errors).toEqual([]);
      expect(summary.derive_failures).toEqual([]);
      expect(call.command).toBe(command);
    }, 60_000);
  }
});

describe('a text too large for one transaction is kept as head and tail, never dropped (issue 15, point 3)', () => {
  it('keeps texts up to the limit whole, and cuts longer ones on character boundaries', () => {
    expect(boundText('short').cut).toBeNull();
    const emoji = '😀'.repeat(TEXT_LIMIT_BYTES / 4 + 1);
    const cut = boundText(emoji);
    expect(cut.cut).toEqual({ bytes: Buffer.byteLength(emoji), sha256: createHash('sha256').update(emoji).digest('hex') });
    expect(cut.text.startsWith('😀'.repeat(KEPT_CHARS / 2))).toBe(true);
    expect(cut.text.endsWith('😀'.repeat(KEPT_CHARS / 2))).toBe(true);
    expect(Buffer.from(cut.text, 'utf8').toString('utf8')).toBe(cut.text);
  });

  for (const agent of AGENT_TRANSCRIPTS) {
    it(`${agent.agent}: a 122 MB tool output keeps its head, tail, size and hash, and the file its other records`, async () => {
      const head = 'HEAD-OF-OUTPUT\n';
      const tail = '\nTAIL-OF-OUTPUT';
      const output = `${head}${'y'.repeat(122 * 1024 * 1024)}${tail}`;
      const { summary, call, messages } = await ingest(agent, { command: 'cat /var/log/huge.log', output });
      expect(summary.errors).toEqual([]);
      expect(summary.sources).toBe(1);
      expect(summary.texts_cut).toBe(1);
      expect(messages).toBeGreaterThanOrEqual(3);
      expect(call.truncated).toBe(true);
      expect(call.output.startsWith(head)).toBe(true);
      expect(call.output.endsWith(tail)).toBe(true);
      expect(call.output.length).toBeLessThan(2 * KEPT_CHARS + 1000);
      const sha256 = createHash('sha256').update(output).digest('hex');
      expect(call.output).toContain(sha256);
      expect(JSON.parse(call.extra ?? '{}')).toMatchObject({ retrace_cut: { output: { bytes: Buffer.byteLength(output), sha256 } } });
    }, 120_000);
  }
});

describe('a source whose texts add up to more than the ingest memory cap is stored whole (issue 15, point 3)', () => {
  it('opencode: an export of ten 15 MB outputs, one transaction, is stored and derived', async () => {
    const sessionId = 'ses_hardeningbigexport000001';
    const t = 1_767_322_000_000;
    const messages = Array.from({ length: 10 }, (_, i) => ({
      info: { id: `msg_big${i}`, sessionID: sessionId, role: 'assistant', time: { created: t + i * 1000, completed: t + i * 1000 + 500 }, parentID: 'msg_big0', modelID: 'm', providerID: 'p' },
      parts: [{
        id: `prt_big${i}`, sessionID: sessionId, messageID: `msg_big${i}`, type: 'tool', callID: `call_big${i}`, tool: 'bash',
        state: { status: 'completed', input: { command: `cat part-${i}.log` }, output: String.fromCharCode(97 + i).repeat(15 * 1024 * 1024), metadata: { exit: 0 }, time: { start: t + i * 1000, end: t + i * 1000 + 5 } },
      }],
    }));
    const file = join(dir, 'ten-outputs.json');
    writeFileSync(file, JSON.stringify({ info: { id: sessionId, projectID: 'p', directory: '/w', title: 'ten outputs', version: '1.2.6', time: { created: t, updated: t } }, messages }));
    const db = tempDbPath(dir);
    const run = await runRetraceJson<Summary>(['ingest', file, '--db', db, '--no-redact']);
    expect(run.json.errors).toEqual([]);
    expect(run.json.derive_failures).toEqual([]);
    expect(run.json.texts_cut).toBe(0);
    const stored = await runRetraceJson<{ n: number; total: number; trees: number }[]>(['sql', '--db', db,
      `SELECT count(*) AS n, sum(length(output))::BIGINT AS total, (SELECT count(*) FROM trees) AS trees FROM tool_calls`]);
    expect(stored.json[0]).toEqual({ n: 10, total: 10 * 15 * 1024 * 1024, trees: 1 });
  }, 120_000);
});
