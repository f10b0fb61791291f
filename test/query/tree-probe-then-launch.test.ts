import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * A benchmark of a quant, then the server on that quant: one approach, named by the weights, not
 * a second one named by the server's context flag; a benchmark's own measuring flags (`-n 64`)
 * name nothing. Each a small session of its own, none a story of the eval corpus.
 */

const BENCH_THEN_SERVE: SyntheticSession = {
  id: 'syn-bench-then-serve',
  title: 'two quants benchmarked, the faster one served',
  steps: [
    { role: 'user', text: 'Serve acme-chat-14b with llama.cpp on this laptop at 20 tok/s or better.' },
    { role: 'assistant', text: 'Building llama.cpp.', calls: [{ command: 'cd ~/src/llama.cpp && cmake -B build -DGGML_METAL=ON && cmake --build build -j', output: '[100%] Built target llama-server' }] },
    { role: 'assistant', text: 'Benchmarking Q8_0 first.', calls: [{ command: '~/src/llama.cpp/build/bin/llama-bench -m ~/models/acme-chat-14b-Q8_0.gguf -ngl 99 -p 512 -n 64', output: '| acme 14B Q8_0 | tg64 | 11.2 ± 0.1 |' }] },
    { role: 'assistant', text: 'Q8_0 gives 11.2 tok/s, too slow against the 20 asked. Trying Q4_K_M.', calls: [{ command: '~/src/llama.cpp/build/bin/llama-bench -m ~/models/acme-chat-14b-Q4_K_M.gguf -ngl 99 -p 512 -n 64', output: '| acme 14B Q4_K_M | tg64 | 23.9 ± 0.2 |' }] },
    { role: 'assistant', text: 'Q4_K_M clears it at 23.9 tok/s. Serving it.', calls: [{ command: 'nohup ~/src/llama.cpp/build/bin/llama-server -m ~/models/acme-chat-14b-Q4_K_M.gguf -ngl 99 -c 32768 --port 8080 > ~/srv.log 2>&1 &', output: '' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: 'sleep 20; curl -s -o /dev/null -w "%{http_code}" localhost:8080/health', output: '200' }] },
    { role: 'assistant', text: 'Serving Q4_K_M on port 8080.' },
  ],
};

const trees = syntheticTrees([BENCH_THEN_SERVE], 'retrace-probe-launch-');

describe('a probe of the weights the next launch serves', () => {
  it('is that launch\'s setting: one accepted approach named by the weights', () => {
    const names = trees.names("syn-bench-then-serve");
    expect(names.filter((n) => n.includes('-c 32768') || n.includes('-n 64'))).toEqual([]);
    expect(trees.candidate('syn-bench-then-serve', 'acme-chat-14b-Q4_K_M.gguf')?.verdict).toBe('accepted');
    expect(names.filter((n) => n.includes('Q4_K_M'))).toHaveLength(1);
  });
});

describe('weights only benchmarked', () => {
  it('are an approach of their own, not the accepted one', () => {
    const q8 = trees.candidate('syn-bench-then-serve', 'acme-chat-14b-Q8_0.gguf');
    expect(q8).toBeDefined();
    expect(q8?.verdict).not.toBe('accepted');
  });
});
