import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/** One source checkout built on the head and on a worker host is one candidate, as one image run on both is. */
const HEAD_AND_WORKER: SyntheticSession = {
  id: 'syn-checkout-two-hosts',
  title: 'llama.cpp built on a head and an RPC worker',
  steps: [
    { role: 'user', text: 'Serve acme-chat-70b with llama.cpp over RPC: this box as head, boxb as worker.' },
    { role: 'assistant', text: 'Building here.', calls: [{ command: 'cd ~/src && git clone https://github.com/ggml-org/llama.cpp && cd llama.cpp && cmake -B build -DGGML_RPC=ON && cmake --build build -j', output: '[100%] Built target llama-server' }] },
    { role: 'assistant', text: 'Building on the worker.', calls: [{ command: "ssh me@boxb 'cd ~/src && git clone https://github.com/ggml-org/llama.cpp && cd llama.cpp && cmake -B build -DGGML_RPC=ON && cmake --build build -j'", output: '[100%] Built target rpc-server' }] },
    { role: 'assistant', text: 'Worker up.', calls: [{ command: "ssh me@boxb 'nohup ~/src/llama.cpp/build/bin/rpc-server -H 0.0.0.0 -p 50052 > rpc.log 2>&1 &'", output: '' }] },
    { role: 'assistant', text: 'Head.', calls: [{ command: 'nohup ~/src/llama.cpp/build/bin/llama-server -m ~/models/acme-chat-70b-Q4_K_M.gguf --rpc boxb:50052 -ngl 99 --port 8080 > srv.log 2>&1 &', output: '' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: 'sleep 30; curl -s -o /dev/null -w "%{http_code}" localhost:8080/health', output: '200' }] },
    { role: 'assistant', text: 'Serving over RPC.' },
  ],
};

const trees = syntheticTrees([HEAD_AND_WORKER], 'retrace-checkout-hosts-');

describe('a checkout built on two hosts', () => {
  it('is one accepted candidate, not a second one left abandoned', () => {
    const names = trees.names('syn-checkout-two-hosts');
    expect(names.filter((n) => n.startsWith('ggml-org/llama.cpp'))).toEqual(['ggml-org/llama.cpp accepted']);
  });
});
