import { describe, expect, it } from 'vitest';
import { parseCommandLine, parseTopCommandLine } from '../../src/query/shell/index.js';

describe('parsed command lines kept for the same text', () => {
  const line = `ssh gpu-2 'docker run -d --name vllm vllm/vllm-openai:v0.6.3 --model Qwen/Qwen2-7B' && curl -s localhost:8000/health | head -1`;

  it('gives what parsing gives, and the same parse again for the same text', () => {
    const first = parseTopCommandLine(line);
    expect(first).toEqual(parseCommandLine(line));
    expect(parseTopCommandLine(line)).toBe(first);
  });

  it('hands out a frozen parse: changing it throws instead of changing the next call’s', () => {
    const parsed = parseTopCommandLine(line);
    const first = parsed[0];
    if (!first) throw new Error('no command parsed');
    expect(() => (first.children as unknown[]).push(null)).toThrow(TypeError);
    expect(() => (first.argv as string[]).push('--x')).toThrow(TypeError);
    expect(parseTopCommandLine(line)).toEqual(parseCommandLine(line));
  });

  it('parses a very long text every time, uncached', () => {
    const long = `echo ${'x'.repeat(20_000)}`;
    const parsed = parseTopCommandLine(long);
    expect(parsed).toEqual(parseCommandLine(long));
    expect(parseTopCommandLine(long)).not.toBe(parsed);
  });
});
