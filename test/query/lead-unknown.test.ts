import { describe, expect, it } from 'vitest';
import { proseLeads } from '../../src/query/tree/lead-prose.js';
import { readsAsSoftware } from '../../src/query/tree/lead-unknown.js';

/** Leads of unlisted stacks (framework null) one sentence names; every stack name here is invented or in no rule file. */
function unlisted(sentence: string): string[] {
  return proseLeads(sentence, false).filter((l) => l.framework === null && l.kind === 'framework').map((l) => l.name);
}

describe('leads of stacks no rule file names', () => {
  it('a name that reads as software where a proposal puts what to try is a lead', () => {
    expect(unlisted('Fallback: we could also try mistral.rs.')).toEqual(['mistral.rs']);
    expect(unlisted('If this fails, ZetaServe might work.')).toEqual(['ZetaServe']);
    expect(unlisted('We could switch to `fastllm-serve` instead.')).toEqual(['fastllm-serve']);
    expect(unlisted('Alternatively, consider acmeai/fastserve for this GPU.')).toEqual(['acmeai/fastserve']);
    expect(unlisted('Another option: use rustyllmv2 on the CPU.')).toEqual(['rustyllmv2']);
  });

  it('words, commands, files, options, models and known names in the same place are none', () => {
    expect(unlisted('We could try a smaller context instead.')).toEqual([]);
    expect(unlisted('We could try re-running it with more memory.')).toEqual([]);
    expect(unlisted('We could use `tmux` or `docker` instead.')).toEqual([]);
    expect(unlisted('Alternatively, try config.yaml or serve.py with --max-context 4096.')).toEqual([]);
    expect(unlisted('We could try Qwen/Qwen2.5-7B-Instruct-AWQ as a fallback.')).toEqual([]);
    expect(unlisted('We could put nginx-proxy in front, or use Docker Compose instead.')).toEqual([]);
    expect(unlisted('We could also try llama.cpp.')).toEqual([]);
  });

  it('reads software shapes, not English', () => {
    for (const name of ['mistral.rs', 'LocalAI', 'KTransformers', 'llama-cpp-python', 'exllamav2', 'owner/some-server']) expect(readsAsSoftware(name), name).toBe(true);
    for (const name of ['smaller', 'Docker', 'GPU', 'out-of-memory', 'step-by-step', 'tok/s', 'e.g', 'box1.lab', '10.0.0.5', 'app.py']) expect(readsAsSoftware(name), name).toBe(false);
  });
});
