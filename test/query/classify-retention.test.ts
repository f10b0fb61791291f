import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ownString } from '../../src/core/own-string.js';
import { SessionClassifier, type CallRecord } from '../../src/query/classify/session.js';

/**
 * A session's classifier keeps its actions until the tree is built: what they keep of an output
 * (the evidence line, a signature's line, a version fact) must not keep the whole output alive.
 * V8 keeps a cut of a string as a view of it, so this is measured on the heap: 40 calls with 1 MB
 * outputs each, the calls let go, a full collection, and the classifier still holding every action.
 */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const MB = 1024 * 1024;

function bigOutput(index: number): string {
  // Distinct per call (no shared string the engine could reuse), one decisive line among ~1 MB of log.
  const filler = `INFO 03-20 10:05:${String(index % 60).padStart(2, '0')} loader.py:12] loading shard ${index} `.padEnd(120, '.');
  const lines = Array.from({ length: Math.ceil(MB / 121) }, (_, line) => `${filler}${line}`);
  lines.splice(lines.length - 3, 0, `RuntimeError: CUDA error: no kernel image is available for execution on the device (call ${index})`, `vllm 0.6.${index % 10} built for sm_90`);
  return lines.join('\n');
}

function call(index: number): CallRecord {
  return {
    callId: `c${index}`,
    messageOrdinal: index,
    tool: 'bash',
    status: 'completed',
    input: '',
    command: `docker run --rm --gpus all vllm/vllm-openai:v0.6.${index % 10} --model Qwen/Qwen2.5-7B-Instruct --port ${8000 + index}`,
    output: bigOutput(index),
    startedAt: null,
    durationMs: 1000,
    exitCode: 1,
    timedOut: false,
  };
}

describe('what a classifier keeps of an output', () => {
  it('owns its lines: 40 MB of outputs let go leave well under 4 MB behind', () => {
    collect();
    const before = process.memoryUsage().heapUsed;
    const classifier = new SessionClassifier();
    for (let index = 0; index < 40; index += 1) classifier.add(call(index));
    collect();
    const kept = process.memoryUsage().heapUsed - before;
    const { actions } = classifier.result();
    // The lines are still there: the outputs were read, and what was read is kept.
    expect(actions.some((a) => a.evidence.some((line) => line.includes('no kernel image is available')))).toBe(true);
    expect(kept).toBeLessThan(4 * MB);
  });

  it('ownString gives the same text', () => {
    const text = `${'x'.repeat(100)}needle${'y'.repeat(100)}`;
    const cut = text.slice(100, 120);
    expect(ownString(cut)).toBe(cut);
    expect(ownString('short')).toBe('short');
    expect(ownString('')).toBe('');
  });
});
