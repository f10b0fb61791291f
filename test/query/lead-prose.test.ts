import { describe, expect, it } from 'vitest';
import { frameworkById } from '../../src/query/classify/index.js';
import { proseLeads } from '../../src/query/tree/lead-prose.js';

/** Leads named in one proposing sentence, as `name kind`. */
function leads(sentence: string, framework: string | null = null): string[] {
  return proseLeads(sentence, false, framework ? (frameworkById(framework) ?? null) : null).map((l) => `${l.name} ${l.kind}`);
}

describe('leads named in prose', () => {
  it('a possessive names the framework itself', () => {
    expect(leads("Alternatively, vLLM's CPU backend could serve it.")).toEqual(['vLLM framework']);
  });

  it('a layout degree counts GPUs or nodes: llama-bench\'s pp512 / tg128 are no pipeline layout', () => {
    expect(leads('We could compare pp512 and tg128 from llama-bench.', 'llama.cpp')).toEqual([]);
    expect(leads('We could also try TP=2 instead.', 'vllm')).toEqual(['--tensor-parallel-size 2 approach']);
  });
});
