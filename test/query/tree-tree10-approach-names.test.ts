import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * How readers call the ways one candidate was run, each told by a small session of its own with
 * invented names (none is a story of the eval corpus): the one launch on a single node beside a
 * launch spread over two.
 */
const OOM = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 3 has a total capacity of 79.10 GiB of which 1.02 GiB is free.';

const ONE_NODE_FIRST: SyntheticSession = {
  id: 'syn-one-node-first',
  title: 'vLLM on one node, then over two with a pipeline',
  steps: [
    { role: 'user', text: 'Serve acme/Giant-400B-FP8 with vLLM on gpu-a (me@gpu-a); use gpu-b too only if it does not fit.' },
    {
      role: 'assistant', text: 'One node, TP 8.',
      calls: [{ command: "ssh me@gpu-a 'docker run -d --name giant --gpus all -p 8000:8000 vllm/vllm-openai:v0.7.3 --model acme/Giant-400B-FP8 --tensor-parallel-size 8 --gpu-memory-utilization 0.6'", output: 'c0ffee' }],
    },
    { role: 'assistant', text: 'Logs.', calls: [{ command: "ssh me@gpu-a 'sleep 120; docker logs giant 2>&1 | tail -2'", output: OOM }] },
    { role: 'assistant', text: 'Does not fit one node. Ray over both.', calls: [
      { command: "ssh me@gpu-a 'docker rm -f giant; docker run -d --name ray-head --gpus all --network host vllm/vllm-openai:v0.7.3 ray start --head --block'", output: 'a1' },
      { command: "ssh me@gpu-b 'docker run -d --name ray-worker --gpus all --network host vllm/vllm-openai:v0.7.3 ray start --address=gpu-a:6379 --block'", output: 'b2' },
    ] },
    { role: 'assistant', text: 'Serving with TP 8 and PP 2.', calls: [{ command: "ssh me@gpu-a \"docker exec -d ray-head bash -c 'vllm serve acme/Giant-400B-FP8 --tensor-parallel-size 8 --pipeline-parallel-size 2 --port 8000'\"", output: '' }] },
    { role: 'assistant', text: 'Checking.', calls: [{ command: "ssh me@gpu-a 'sleep 300; curl -s -o /dev/null -w \"%{http_code}\" localhost:8000/v1/models'", output: '200' }] },
    { role: 'assistant', text: 'It serves over both nodes.' },
  ],
};

const BUILD_OOM = '[TRT] [E] [defaultAllocator.cpp::allocate::31] Error Code 1: Cuda Runtime (out of memory)';
const TALKED_ABOUT: SyntheticSession = {
  id: 'syn-talked-about',
  title: 'An engine rebuilt with two limits changed, one of them discussed; the user falls back to another stack',
  steps: [
    { role: 'user', text: 'Build a TensorRT-LLM engine for acme/Zeta-13B on trtbox and serve it.' },
    { role: 'assistant', text: 'Building.', calls: [{ command: "ssh me@trtbox 'docker exec trt trtllm-build --checkpoint_dir /ckpt/z --output_dir /eng/a --max_batch_size 128 --max_num_tokens 8192 2>&1 | tail -1'", exit: 1, output: BUILD_OOM }] },
    { role: 'assistant', text: 'The activation workspace grows with max_num_tokens; at 8192 max_num_tokens it does not fit. Smaller max_num_tokens.', calls: [
      { command: "ssh me@trtbox 'docker exec trt trtllm-build --checkpoint_dir /ckpt/z --output_dir /eng/b --max_batch_size 32 --max_num_tokens 2048 2>&1 | tail -1'", output: '[TensorRT-LLM] [I] Total time of building all engines: 00:03:10' },
      { command: "ssh me@trtbox 'docker exec -d trt trtllm-serve /eng/b --port 8000; sleep 60; curl -s -o /dev/null -w \"%{http_code}\" localhost:8000/health'", output: '200' },
    ] },
    { role: 'assistant', text: 'Serving; `acme-model:7b` stays loaded in ollama on the other box.' },
    { role: 'user', text: 'ok. if this keeps breaking we\'ll just go with Ollama.' },
    { role: 'assistant', text: 'Noted.' },
  ],
};

const { names } = syntheticTrees([ONE_NODE_FIRST, TALKED_ABOUT], 'retrace-tree10-names-');

describe('options changed together, and the user\'s fallback', () => {
  it('names each build by the option the assistant talks about; "we\'ll just go with X" is a lead; a model tag said to be loaded is none', () => {
    const found = names(TALKED_ABOUT.id);
    expect(found).toContain('--max_num_tokens 8192 rejected');
    expect(found).toContain('--max_num_tokens 2048 accepted');
    expect(found).toContain('Ollama untested');
    expect(found).not.toContain('acme-model:7b untested');
  });
});

describe('the one launch on a single node beside launches over several', () => {
  it('is the single node approach, not the option it also tuned', () => {
    expect(names(ONE_NODE_FIRST.id)).toEqual(['vllm/vllm-openai:v0.7.3 accepted', 'single node rejected', '--pipeline-parallel-size 2 accepted']);
  });
});
