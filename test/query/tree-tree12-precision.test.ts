import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * Precision of the tree (helper tree12): what the tree must not report, or must not report
 * twice — each told by a small session of its own, none a story of the eval corpus.
 */

const FALLBACK_TEXT: SyntheticSession = {
  id: 'syn-health-or-echo',
  title: 'a health check whose fallback printed',
  steps: [
    { role: 'user', text: 'Serve acme/tiny-chat-7b with vLLM on gpubox7.' },
    { role: 'assistant', text: 'Starting the older image.', calls: [{ command: "ssh me@gpubox7 'docker run -d --name v1 --gpus all -p 8000:8000 vllm/vllm-openai:v0.9.1 --model acme/tiny-chat-7b'", output: 'c0ffee01' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh me@gpubox7 'sleep 60; curl -sf localhost:8000/health || echo down'", output: 'down' }] },
    { role: 'assistant', text: 'Not up. Trying the newer image.', calls: [{ command: "ssh me@gpubox7 'docker rm -f v1; docker run -d --name v2 --gpus all -p 8000:8000 vllm/vllm-openai:v0.9.2 --model acme/tiny-chat-7b'", output: 'c0ffee02' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh me@gpubox7 'sleep 60; curl -sf localhost:8000/health && echo up || echo down'", output: 'up' }] },
    { role: 'assistant', text: 'The newer image serves.' },
  ],
};


describe('a check followed by `|| echo …`', () => {
  it('reads the fallback text as the check failing, and `&& echo up` as it passing', () => {
    expect(trees.candidate('syn-health-or-echo', 'vllm/vllm-openai:v0.9.1')?.verdict).not.toBe('accepted');
    expect(trees.candidate('syn-health-or-echo', 'vllm/vllm-openai:v0.9.2')?.verdict).toBe('accepted');
  });
});

const USAGE_AND_STATE: SyntheticSession = {
  id: 'syn-usage-run',
  title: 'TGI after Ollama, with a look at the launcher help',
  steps: [
    { role: 'user', text: 'Move rig9 off ollama: serve acme/tiny-chat-14b with TGI on both GPUs.' },
    { role: 'assistant', text: 'Looking at the box.', calls: [{ command: "ssh me@rig9 'ollama ps'", output: 'NAME            ID            SIZE   PROCESSOR  UNTIL\nacmechat:14b    1a2b3c4d5e6f  9 GB   100% GPU   4 minutes from now' }] },
    { role: 'assistant', text: 'State: ollama active, `acmechat:14b` loaded on GPU 0. Stopping it and starting TGI.', calls: [{ command: "ssh me@rig9 'sudo systemctl stop ollama; docker run -d --name tgi --gpus all -p 8080:80 ghcr.io/huggingface/text-generation-inference:3.9.1 --model-id acme/tiny-chat-14b --sharded true'", output: 'd00d01' }] },
    { role: 'assistant', text: 'Logs.', calls: [{ command: "ssh me@rig9 'sleep 30; docker logs tgi 2>&1 | tail -2'", output: 'Error: NotEnoughCUDADevices("`sharded` is true but only found 1 CUDA devices")' }] },
    { role: 'assistant', text: 'What does the launcher take?', calls: [{ command: "ssh me@rig9 'docker run --rm ghcr.io/huggingface/text-generation-inference:3.9.1 --help | grep -A2 num-shard'", output: '      --num-shard <NUM_SHARD>\n          The number of shards to use' }] },
    { role: 'assistant', text: 'Two shards.', calls: [{ command: "ssh me@rig9 'docker rm -f tgi; docker run -d --name tgi --gpus all -p 8080:80 ghcr.io/huggingface/text-generation-inference:3.9.1 --model-id acme/tiny-chat-14b --num-shard 2'", output: 'd00d02' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh me@rig9 'sleep 90; curl -s -o /dev/null -w \"%{http_code}\" localhost:8080/health'", output: '200' }] },
    { role: 'assistant', text: 'TGI serves on both GPUs.' },
  ],
};

const PLUGIN_DROPPED: SyntheticSession = {
  id: 'syn-plugin-dropped',
  title: 'an engine rebuilt with fewer build jobs, then without a plugin',
  steps: [
    { role: 'user', text: 'Build a TensorRT-LLM engine for acme/tiny-chat-70b on hgx9 and serve it with Triton.' },
    { role: 'assistant', text: 'A build container.', calls: [{ command: "ssh me@hgx9 'docker run -d --name env1 --gpus all -v /data:/data nvcr.io/nvidia/tritonserver:26.01-trtllm-python-py3 sleep infinity'", output: 'e1' }] },
    { role: 'assistant', text: 'Convert and build.', calls: [
      { command: "ssh me@hgx9 'docker exec env1 python3 /data/src/examples/llama/convert_checkpoint.py --model_dir /data/hf/tc70 --output_dir /data/ckpt/tc70 --dtype bfloat16 --tp_size 4 --workers 4'", output: 'Total time of converting checkpoints: 00:03:10' },
      { command: "ssh me@hgx9 'docker exec env1 trtllm-build --checkpoint_dir /data/ckpt/tc70 --output_dir /data/eng/tc70 --gemm_plugin bfloat16 --max_batch_size 32 --workers 4 2>&1 | tail -2'", exit: 1, output: "AttributeError: 'NoneType' object has no attribute 'save'" },
    ] },
    { role: 'assistant', text: 'One worker, full log this time.', calls: [{ command: "ssh me@hgx9 'docker exec env1 bash -lc \"trtllm-build --checkpoint_dir /data/ckpt/tc70 --output_dir /data/eng/tc70 --gemm_plugin bfloat16 --max_batch_size 32 --workers 1 > /data/b1.log 2>&1\"; grep -m2 E /data/b1.log'", exit: 0, output: '[TRT] [E] IPluginRegistry::getCreator: Error Code 4: API Usage Error (Cannot find plugin: Gemm, version: 1, namespace:tensorrt_llm.)\nRuntimeError: Engine building failed, please check the error log.' }] },
    { role: 'assistant', text: 'Without the gemm plugin.', calls: [{ command: "ssh me@hgx9 'docker exec env1 bash -lc \"trtllm-build --checkpoint_dir /data/ckpt/tc70 --output_dir /data/eng/tc70 --max_batch_size 32 --workers 1 > /data/b2.log 2>&1\"; grep -m2 E /data/b2.log'", exit: 0, output: '[TRT] [E] IPluginRegistry::getCreator: Error Code 4: API Usage Error (Cannot find plugin: GPTAttention, version: 1, namespace:tensorrt_llm.)\nRuntimeError: Engine building failed, please check the error log.' }] },
    { role: 'assistant', text: 'This image cannot build; giving up on it.' },
  ],
};

const ONE_NODE_THEN_TWO: SyntheticSession = {
  id: 'syn-one-node-then-two',
  title: 'one node runs out of memory, two nodes with a pipeline serve',
  steps: [
    { role: 'user', text: 'Serve acme/giant-chat-400b with vLLM on nodea (8 GPUs); use nodeb too only if one node is not enough.' },
    { role: 'assistant', text: 'One node first.', calls: [{ command: "ssh me@nodea 'docker run -d --name big --gpus all --network host vllm/vllm-openai:v0.9.3 --model acme/giant-chat-400b --tensor-parallel-size 8 --gpu-memory-utilization 0.85'", output: 'f1' }] },
    { role: 'assistant', text: 'Logs.', calls: [{ command: "ssh me@nodea 'sleep 120; docker logs big 2>&1 | tail -2'", output: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB.' }] },
    { role: 'assistant', text: 'It does not fit one node: both nodes with Ray and a pipeline of two.', calls: [{ command: "ssh me@nodea 'docker rm -f big; docker exec -d ray-head vllm serve acme/giant-chat-400b --tensor-parallel-size 8 --pipeline-parallel-size 2 --distributed-executor-backend ray --gpu-memory-utilization 0.80'", output: '' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: "ssh me@nodea 'sleep 300; curl -s -o /dev/null -w \"%{http_code}\" localhost:8000/health'", output: '200' }] },
    { role: 'assistant', text: 'Serving over both nodes.' },
  ],
};

const trees = syntheticTrees([FALLBACK_TEXT, USAGE_AND_STATE, PLUGIN_DROPPED, ONE_NODE_THEN_TWO], 'retrace-tree12-');

describe('what is no candidate', () => {
  it('a `docker run IMAGE --help` asks the entrypoint what it takes: no approach of its own', () => {
    expect(trees.names('syn-usage-run').some((n) => n.startsWith('--help'))).toBe(false);
    expect(trees.candidate('syn-usage-run', '--num-shard 2')?.verdict).toBe('accepted');
  });

  it('a model tag named in a statement of what runs ("ollama active, `x:14b` loaded") is no lead', () => {
    expect(trees.names('syn-usage-run').filter((n) => n.includes('acmechat'))).toEqual([]);
  });
});

describe('builds told apart by what changed', () => {
  it('a rerun of one build program leaves out what it no longer sets: `without --gemm_plugin`; a build-jobs change that fixed nothing is no approach', () => {
    const names = trees.names('syn-plugin-dropped');
    expect(names.filter((n) => n.includes('--workers') || n.includes('--tp_size'))).toEqual([]);
    expect(trees.candidate('syn-plugin-dropped', 'without --gemm_plugin')?.verdict).toBe('rejected');
    expect(trees.candidate('syn-plugin-dropped', 'without --gemm_plugin')?.reason).toContain('GPTAttention');
    expect(names).toHaveLength(2);
  });
});

describe('layouts called as readers call them', () => {
  it('the one launch kept on one node, beside a launch over nodes, is `single node` (not the memory flag it also changed)', () => {
    expect(trees.candidate('syn-one-node-then-two', 'single node')?.verdict).toBe('rejected');
    expect(trees.names('syn-one-node-then-two').some((n) => n.includes('--gpu-memory-utilization'))).toBe(false);
  });
});
