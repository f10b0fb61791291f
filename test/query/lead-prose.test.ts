import { describe, expect, it } from 'vitest';
import { frameworkById } from '../../src/query/classify/index.js';
import { proseLeads } from '../../src/query/tree/lead-prose.js';

/** Leads named in one proposing sentence, as `name kind`. */
function leads(sentence: string, framework: string | null = null): string[] {
  return proseLeads(sentence, false, framework ? (frameworkById(framework) ?? null) : null).map((l) => `${l.name} ${l.kind}`);
}

describe('leads named in prose', () => {
  it('a possessive names the framework itself, qualified by the backend it names', () => {
    expect(leads("Alternatively, vLLM's CPU backend could serve it.")).toEqual(['vLLM CPU backend framework']);
    expect(leads("Alternatively, vLLM's scheduler could serve it.")).toEqual(['vLLM framework']);
  });

  it('a stack "with" or "on" a backend is that build of it, not the bare stack', () => {
    expect(leads('Fallback: llama.cpp with ROCm, or Ollama on Vulkan.')).toEqual(['llama.cpp with ROCm framework', 'Ollama on Vulkan framework']);
  });

  it('"with CUDA", "on GPU", "on CPU" are how a stack runs, not a backend of it: the bare stack is the lead', () => {
    expect(leads('Fallback: llama.cpp with CUDA, or vLLM on GPU.')).toEqual(['llama.cpp framework', 'vLLM framework']);
  });

  it('serving stacks of the rule files are leads by name: Intel\'s IPEX-LLM, exo', () => {
    expect(leads("I haven't tried Intel's IPEX-LLM or exo.")).toEqual(['IPEX-LLM framework', 'exo framework']);
  });

  it('a number measured in a unit after a stack is no version of it, nor is one after an image already tagged', () => {
    expect(leads('Kept on disk: `dustynv/ollama:0.6.8-r36.4-cu126-22.04` 4.1 GB, if you want to try again.')).not.toContain('Ollama 4.1 framework');
    expect(leads('Kept on disk: the Ollama image, 4.1 GB, if you want to try again.')).not.toContain('Ollama 4.1 framework');
    const rated = leads('Ollama 9.6 tok/s, so we could try vLLM 0.6.4 instead.');
    expect(rated).toContain('vLLM 0.6.4 framework');
    expect(rated).not.toContain('Ollama 9.6 framework');
  });

  it('a glob of profile names (`tensorrt_llm-a100-bf16-tp8-*`) names no stack to try', () => {
    expect(leads('The A100 profiles are `tensorrt_llm-a100-bf16-tp8-*`, so the coder would have to go.', 'nim')).toEqual([]);
  });

  it('a layout degree counts GPUs or nodes: llama-bench\'s pp512 / tg128 are no pipeline layout', () => {
    expect(leads('We could compare pp512 and tg128 from llama-bench.', 'llama.cpp')).toEqual([]);
    expect(leads('We could also try TP=2 instead.', 'vllm')).toEqual(['--tensor-parallel-size 2 approach']);
  });
});

describe('an option proposed for another stack', () => {
  const of = (sentence: string, tried: string[]): string[] => proseLeads(sentence, false, frameworkById('sglang') ?? null, new Set(tried)).filter((l) => !l.generic).map((l) => l.name);

  it('is named with that stack when the session never ran it, bare when it did; a variable is its stack\'s already', () => {
    expect(of('Another option would be vLLM with `--enforce-eager`.', ['sglang'])).toEqual(['vLLM --enforce-eager']);
    expect(of('Another option would be vLLM with `--enforce-eager`.', ['sglang', 'vllm'])).toEqual(['--enforce-eager']);
    expect(of('We could also try Ollama with `OLLAMA_KV_CACHE_TYPE=q8_0`.', ['sglang'])).toEqual(['OLLAMA_KV_CACHE_TYPE=q8_0']);
  });
});
